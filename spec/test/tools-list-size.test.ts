// §8: the serialized tools/list payload stays at or below 40,000 characters; our own budget is 30,000.
import { describe, expect, it } from 'vitest';
import { loadJson, toolsListPayload } from '../index.js';

const limits = loadJson<{ toolsListMaxCharacters: number; toolsListBudgetCharacters: number }>('limits.json');

describe('tools/list payload', () => {
  const payload = toolsListPayload();
  const size = JSON.stringify(payload).length;
  console.log(`tools/list payload: ${size} characters (${payload.tools.length} tools)`);

  it(`rule:tools-list-size — is at most ${limits.toolsListMaxCharacters} characters`, () => {
    expect(size).toBeLessThanOrEqual(limits.toolsListMaxCharacters);
  });

  it(`stays within our budget of ${limits.toolsListBudgetCharacters} characters`, () => {
    expect(size).toBeLessThanOrEqual(limits.toolsListBudgetCharacters);
  });

  it('rule:tools-list-plain-object-inputs — publishes every input as a plain object with root properties', () => {
    for (const tool of payload.tools) {
      const input = tool.inputSchema as Record<string, unknown>;
      expect(input.type, tool.name).toBe('object');
      expect(typeof input.properties, tool.name).toBe('object');
      for (const key of ['oneOf', 'anyOf', 'allOf', 'if', 'then', 'else', 'not']) expect(input[key], `${tool.name} has a root ${key}`).toBeUndefined();
    }
  });

  it('inlines every $ref, so clients need nothing else to read a schema', () => {
    expect(JSON.stringify(payload)).not.toContain('$ref');
  });
});
