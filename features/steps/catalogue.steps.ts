// Steps that read the catalogue a server advertises: tools/list, resources, prompts.
import assert from 'node:assert/strict';
import { Then } from '@cucumber/cucumber';
import type { SiteWorld } from '../support/world.js';

async function anyClient(world: SiteWorld) {
  const first = [...world.connections.values()][0];
  if (!first) throw new Error('this step needs a connection');
  return first.mcp.client();
}

const list = (s: string) => s.split(',').map((x) => x.trim()).filter(Boolean).sort();

Then('the resources are exactly {string}', async function (this: SiteWorld, uris: string) {
  const { resources } = await (await anyClient(this)).listResources();
  assert.deepEqual(resources.map((r) => r.uri).sort(), list(uris));
});

Then('the resource {string} of {string} shows website {string}', async function (this: SiteWorld, uri: string, name: string, websiteId: string) {
  const result = await (await this.connection(name).mcp.client()).readResource({ uri });
  const envelope = JSON.parse(String((result.contents[0] as { text?: string }).text));
  assert.equal(envelope.ok, true, JSON.stringify(envelope));
  assert.equal(envelope.data.websiteId, this.resolve(websiteId));
});

Then('the resource {string} of {string} is refused with {string}', async function (this: SiteWorld, uri: string, name: string, code: string) {
  const result = await (await this.connection(name).mcp.client()).readResource({ uri });
  const envelope = JSON.parse(String((result.contents[0] as { text?: string }).text));
  assert.equal(envelope.ok, false);
  assert.equal(envelope.error.code, code);
});

Then('the prompts are exactly {string}', async function (this: SiteWorld, names: string) {
  const { prompts } = await (await anyClient(this)).listPrompts();
  assert.deepEqual(prompts.map((p) => p.name).sort(), list(names));
});

Then('the prompt {string} of {string} returns guidance', async function (this: SiteWorld, prompt: string, name: string) {
  const result = await (await this.connection(name).mcp.client()).getPrompt({ name: prompt, arguments: { topic: 'our new oven', season: 'summer' } });
  const text = result.messages.map((m) => (m.content as { text?: string }).text ?? '').join('\n');
  assert.ok(text.length > 40, 'a prompt must carry guidance text');
});

Then('no tool name matches {string}', async function (this: SiteWorld, pattern: string) {
  const { tools } = await (await anyClient(this)).listTools();
  assert.ok(tools.length > 0);
  const re = new RegExp(pattern);
  assert.deepEqual(tools.map((t) => t.name).filter((n) => re.test(n)), []);
});

Then('no tool input has a property matching {string}', async function (this: SiteWorld, pattern: string) {
  const { tools } = await (await anyClient(this)).listTools();
  const re = new RegExp(pattern, 'i');
  const offending: string[] = [];
  const visit = (name: string, schema: unknown): void => {
    if (!schema || typeof schema !== 'object') return;
    const props = (schema as { properties?: Record<string, unknown> }).properties ?? {};
    for (const [key, sub] of Object.entries(props)) {
      if (re.test(key)) offending.push(`${name}.${key}`);
      visit(name, sub);
    }
    for (const k of ['oneOf', 'anyOf', 'allOf', 'items']) {
      const v = (schema as Record<string, unknown>)[k];
      for (const sub of Array.isArray(v) ? v : v ? [v] : []) visit(name, sub);
    }
  };
  for (const t of tools) visit(t.name, t.inputSchema);
  assert.deepEqual(offending, []);
});

Then('the serialized tools\\/list result is at most {int} characters', async function (this: SiteWorld, max: number) {
  const result = await (await anyClient(this)).listTools();
  const size = JSON.stringify(result).length;
  this.attach(`tools/list: ${size} characters`);
  assert.ok(size <= max, `tools/list is ${size} characters`);
});
