// Acting over MCP and asserting on the answer. Every call runs the generic checks (conformance/lib/checks.ts)
// before any assertion here. Negative scenarios assert the exact error code.
import assert from 'node:assert/strict';
import { Then, When } from '@cucumber/cucumber';
import { TargetFailure, withCallTimeout, type Envelope } from '../../conformance/lib/mcp-client.js';
import { TEST_WEBSITE } from '../../conformance/lib/test-website.js';
import type { SiteWorld } from '../support/world.js';
import { parse, pointer, stringsIn, subsetMismatch } from '../support/json.js';
import { activeDeclaration, declaredErrorCode, NotDeclared, outputPointer } from '../../conformance/lib/declaration.js';
import { checkableOutput, checkedByValue, requireOutput } from '../support/located.js';
import { pointersWhere } from '../../conformance/lib/find-by-value.js';
import { requireImplemented } from '../support/tools-built.js';
import { FixturesError, fixturesSupport } from '../../conformance/lib/fixtures-client.js';

async function call(world: SiteWorld, name: string, tool: string, args: Record<string, unknown>) {
  await requireImplemented(world, tool);
  const { envelope } = await world.connection(name).mcp.callTool(tool, args);
  world.last = { tool, connection: name, args, envelope };
  if (tool.startsWith('prepare_') && envelope.ok) world.lastPlanId = await preparedPlanId(world, name, tool, envelope.data);
}

/**
 * The id of the plan a prepare_* call just made. Where its answer carries it is not shown (§5): the declared
 * outputFields (or our shape, planId) when there is one, else the newest plan of the connection as the target's
 * fixtures tell it (part connection-plans), else undefined ({{plan}} is then not checked).
 */
async function preparedPlanId(world: SiteWorld, name: string, tool: string, data: unknown): Promise<string | undefined> {
  const planAt = outputPointer(tool, '/planId');
  if (planAt !== undefined) {
    const planId = pointer(data, planAt);
    return typeof planId === 'string' ? planId : undefined;
  }
  if (!fixturesSupport('connection-plans')) return undefined;
  const { plans } = await world.fixtures.connectionPlans(world.connection(name).connectionId);
  return plans[0]?.planId;
}

const args = (world: SiteWorld, doc: string) => JSON.parse(world.resolve(doc)) as Record<string, unknown>;

// The tool's name may hold templates too ({{repeat:x:5000}}: a name of a caller's choosing, rule activity-name-bounded).
When('{string} calls {string}', async function (this: SiteWorld, name: string, tool: string) {
  await call(this, name, this.resolve(tool), {});
});

When('{string} calls {string} with:', async function (this: SiteWorld, name: string, tool: string, doc: string) {
  await call(this, name, tool, args(this, doc));
});

/** What the kit waits beyond a target's migration time budget: converting what it read, and the way back. */
const MIGRATION_SLACK_SECONDS = 10;

// Rule migrate-crawl-time-bounded: the call may take the target's own time budget (the limits part's migrationSeconds,
// after "the target's limit values are known") and MIGRATION_SLACK_SECONDS more, not longer. A success and a tool
// error are both answers. The step's own timeout is the kit's slow page's life, above any wait it allows.
When("{string} calls {string} with, waiting the target's migration time budget:", { timeout: (TEST_WEBSITE.dripSeconds + 60) * 1000 }, async function (this: SiteWorld, name: string, tool: string, doc: string) {
  const budget = this.limitValues?.migrationSeconds?.value;
  if (budget === undefined) throw new NotDeclared("the target's migration time budget, which §4.3 does not show (serve migrationSeconds in the fixtures part limits, or adopt limit-values)");
  const wait = budget + MIGRATION_SLACK_SECONDS;
  if (wait >= TEST_WEBSITE.dripSeconds) throw new NotDeclared(`a migration time budget the kit can wait out: the target's ${budget} s and the kit's ${MIGRATION_SLACK_SECONDS} s more reach the ${TEST_WEBSITE.dripSeconds} s its slow page lasts`);
  try {
    await withCallTimeout(wait * 1000, () => call(this, name, tool, args(this, doc)));
  } catch (error) {
    if (error instanceof TargetFailure && error.noAnswer) throw new TargetFailure(`${error.message}, though the target's migration time budget is ${budget} s: a source sending a byte every ${TEST_WEBSITE.dripIntervalMs / 1000} s held the call`);
    throw error;
  }
});

async function repeat(world: SiteWorld, name: string, tool: string, times: number, callArgs: Record<string, unknown>) {
  await requireImplemented(world, tool);
  // Concurrent batches keep a scenario that needs hundreds of calls fast; the answers are kept for
  // "every one of those calls succeeds".
  world.lastBatch = [];
  const connection = world.connection(name).mcp;
  for (let done = 0; done < times; done += 20) {
    const batch = await Promise.all(Array.from({ length: Math.min(20, times - done) }, () => connection.callTool(tool, callArgs)));
    world.lastBatch.push(...batch.map((b) => b.envelope));
  }
}

When('{string} calls {string} {count} times', async function (this: SiteWorld, name: string, tool: string, times: string) {
  await repeat(this, name, tool, this.count(times), {});
});

When('{string} calls {string} {count} times with:', async function (this: SiteWorld, name: string, tool: string, times: string, doc: string) {
  await repeat(this, name, tool, this.count(times), args(this, doc));
});

// One call after another, each in a throttle window of its own: the clock of the connection's workspace advances past
// the tool's throttle window (the target's limit values) before each, so a scenario can fill a workspace up to a
// limit whatever the target's throttle of that tool (rules throttle-create-site, create-site-limit-twice).
When('{string} calls {string} {count} times, a throttle window apart, with:', async function (this: SiteWorld, name: string, tool: string, times: string, doc: string) {
  const window = this.limitValue(`throttles.${tool}.windowSeconds`);
  const workspaceId = this.user(this.connection(name).userKey).workspaceId;
  const callArgs = args(this, doc);
  for (let done = 0; done < this.count(times); done++) {
    await this.fixtures.advanceClock(workspaceId, window + 1);
    await call(this, name, tool, callArgs);
  }
});

When('{string} calls {string} with a snapshot of {count} bytes', async function (this: SiteWorld, name: string, tool: string, size: string) {
  const bytes = this.count(size);
  const filler = 'x'.repeat(8000);
  const items = Array.from({ length: Math.ceil(bytes / 8000) }, (_, i) => ({ n: i, text: filler }));
  const snapshot = { format: 'PortableSiteV1', site: { name: 'Big' }, pages: [], collections: [{ key: 'big', name: 'Big', items }] };
  await call(this, name, tool, { snapshot });
});

const describeLast = (world: SiteWorld) => `${world.last.connection} → ${world.last.tool}`;

function lastEnvelope(world: SiteWorld): Envelope {
  assert.ok(world.last.envelope, 'no tool was called yet in this scenario');
  return world.last.envelope;
}

Then('the call succeeds', function (this: SiteWorld) {
  const env = lastEnvelope(this);
  assert.ok(env.ok, `${describeLast(this)} failed: ${JSON.stringify(env.error)}`);
});

// Any failure: the source names no error for it (e.g. §7.3 a business operation that failed).
Then('the call fails', function (this: SiteWorld) {
  const env = lastEnvelope(this);
  assert.equal(env.ok, false, `${describeLast(this)} succeeded but must fail: ${JSON.stringify(env.data ?? null).slice(0, 200)}`);
});

// `kind` names a kind of refusal (the kit's names: spec/schemas/error.schema.json). That the call is refused
// follows from the source; which code it carries is the target's choice, checked only when declared.
Then('the call fails with {string}', function (this: SiteWorld, kind: string) {
  const env = lastEnvelope(this);
  assert.equal(env.ok, false, `${describeLast(this)} succeeded but must be refused (${kind}): ${JSON.stringify(env.data ?? null).slice(0, 200)}`);
  const declaration = activeDeclaration();
  if (env.protocolError) {
    // Only an unlisted tool may be refused by the protocol instead of an envelope (checks.ts lets nothing else through).
    assert.notEqual(declaration?.unknownTool, 'envelope', `${describeLast(this)}: declared to answer an envelope, answered JSON-RPC error ${env.protocolError.code}`);
    if (!declaration?.unknownTool) this.choiceNotDeclared('how an unknown tool is refused (unknownTool)');
    return;
  }
  // "validation_failed or not_found": where the source leaves open which refusal fits (an id of no known form may
  // be refused as malformed or looked up and not found, §7), any of the kinds' declared codes will do.
  const kinds = kind.split(' or ');
  // The code answered for one kind of refusal, kept for this scenario: a later step that must tell two refusals
  // apart compares with it (learned codes: the source shows no codes).
  if (kinds.length === 1 && typeof env.error?.code === 'string' && !this.codesSeen.has(kind)) this.codesSeen.set(kind, env.error.code);
  const codes = kinds.map((k) => declaredErrorCode(k));
  if (codes.every((c) => c !== undefined)) assert.ok(codes.includes(String(env.error?.code)), `${describeLast(this)}: expected the declared code ${codes.join(' or ')} for a ${kind} refusal: ${JSON.stringify(env.error)}`);
  else this.choiceNotDeclared(`the error code for ${kind} (${kinds.map((k) => `errorCodes.${k}`).join(', ')})`);
  if (declaration?.errorObject) {
    assert.ok(typeof env.error?.message === 'string' && env.error.message.length > 10, 'the error message must tell a person what happened and what to do');
  }
});

// §5.7: when several causes apply, the denial names the first. Which refusal came back is told by its code: the
// declared ones, else the codes this scenario saw each kind answered alone (steps before this one). A target that
// answers one code for both cannot be told apart: not checked, never failed.
Then('the call fails with {string}, named before {string}', function (this: SiteWorld, first: string, second: string) {
  const env = lastEnvelope(this);
  assert.equal(env.ok, false, `${describeLast(this)} succeeded but must be refused (${first}): ${JSON.stringify(env.data ?? null).slice(0, 200)}`);
  const code = String(env.error?.code ?? env.protocolError?.code);
  const [a, b] = [declaredErrorCode(first), declaredErrorCode(second)];
  if (a !== undefined && b !== undefined) return assert.equal(code, a, `${describeLast(this)}: answered ${code}, not the declared ${a} of ${first}, which §5.7 names before ${second}`);
  const [seenFirst, seenSecond] = [this.codesSeen.get(first), this.codesSeen.get(second)];
  if (seenFirst === undefined || seenSecond === undefined) return this.notChecked(`which refusal comes first: ${first} and ${second} were not each seen alone before in this scenario`);
  if (seenFirst === seenSecond) return this.notChecked(`which refusal comes first: the target answers one code (${seenFirst}) for ${first} and ${second}`);
  assert.equal(code, seenFirst, `${describeLast(this)}: answered ${code}, the code it answers for ${second} alone; §5.7 names ${first} (${seenFirst} alone) first`);
});

// A refusal that must be of one kind (a scope's, not a later one of another cause): its code is the declared one,
// else the one this scenario saw for that kind alone. Where that code is also another kind's, the two cannot be told
// apart: not checked, never failed.
Then('the call fails with {string}, the refusal seen for it alone', function (this: SiteWorld, kind: string) {
  const env = lastEnvelope(this);
  assert.equal(env.ok, false, `${describeLast(this)} succeeded but must be refused (${kind}): ${JSON.stringify(env.data ?? null).slice(0, 200)}`);
  const code = String(env.error?.code ?? env.protocolError?.code);
  const declared = declaredErrorCode(kind);
  if (declared !== undefined) return assert.equal(code, declared, `${describeLast(this)}: answered ${code}, not the declared ${declared} of ${kind}`);
  const seen = this.codesSeen.get(kind);
  if (seen === undefined) return this.notChecked(`which refusal came back: ${kind} was not seen alone before in this scenario`);
  const shared = [...this.codesSeen].filter(([other, c]) => other !== kind && c === seen).map(([other]) => other);
  if (shared.length) return this.notChecked(`which refusal came back: the target answers one code (${seen}) for ${kind} and ${shared.join(', ')}`);
  assert.equal(code, seen, `${describeLast(this)}: answered ${code}, not ${seen}, the code it answers for ${kind} alone: refused for another reason than ${kind}`);
});

// Error details (issues, requiredScopes, limit, currentRev, use, …) are our error object's shape, not the
// source's: checked only when the target declares errorObject (rule kit-judges-by-source).
function detailsDeclared(world: SiteWorld, what: string): boolean {
  if (activeDeclaration()?.errorObject) return true;
  world.choiceNotDeclared(`error details ${what} (errorObject)`);
  return false;
}

Then('the error details name {string}', function (this: SiteWorld, name: string) {
  if (!detailsDeclared(this, 'issues')) return;
  const issues = (lastEnvelope(this).error?.details?.issues ?? []) as { path?: string; message?: string }[];
  assert.ok(issues.length > 0, `no details.issues in ${JSON.stringify(lastEnvelope(this).error)}`);
  assert.ok(
    issues.some((i) => `${i.path ?? ''} ${i.message ?? ''}`.includes(name)),
    `no issue names ${name}: ${JSON.stringify(issues)}`,
  );
});

Then('every one of those calls succeeds', function (this: SiteWorld) {
  assert.ok(this.lastBatch.length > 0, 'no repeated calls were made');
  const failed = this.lastBatch.filter((e) => !e.ok);
  assert.equal(failed.length, 0, `${failed.length} of ${this.lastBatch.length} calls failed, first: ${JSON.stringify(failed[0]?.error)}`);
});

Then('the data at {string} equals {string}', function (this: SiteWorld, pathText: string, expected: string) {
  const path = this.resolve(pathText);
  let value: unknown;
  try {
    value = parse(this.resolve(expected));
  } catch (error) {
    // A value the target did not declare (a status word of ours), in a field it did not name either: only this
    // check is skipped; the scenario goes on, as it would had the field been missing alone.
    if (!(error instanceof NotDeclared) || outputPointer(this.last.tool, path) !== undefined) throw error;
    this.notChecked(error.what);
    return;
  }
  if (lastEnvelope(this).ok && checkedByValue(this, path, expected, value)) return;
  const at = checkableOutput(this, path);
  if (at === undefined) return;
  assert.deepEqual(pointer(lastEnvelope(this).data, at), value, `data at ${path}`);
});

// A field of our output shape that the source does not ask the answer to carry (an added section's key, a new
// page's slug, a marker of ours): read by name where declared; undeclared, it is one of the target's choices, listed
// apart, and the source's verdict does not wait for it.
Then('the data at {string}, a field of our output shape, equals {string}', function (this: SiteWorld, pathText: string, expected: string) {
  const path = this.resolve(pathText);
  const at = outputPointer(this.last.tool, path);
  if (at === undefined) return this.choiceNotDeclared(`our output shape of ${this.last.tool ?? 'the call'}: ${path} (outputSchemas or outputFields)`);
  assert.deepEqual(pointer(lastEnvelope(this).data, at), parse(this.resolve(expected)), `data at ${path}`);
});

Then('the data at {string}, a field of our output shape, is a non-empty list', function (this: SiteWorld, pathText: string) {
  const path = this.resolve(pathText);
  const at = outputPointer(this.last.tool, path);
  if (at === undefined) return this.choiceNotDeclared(`our output shape of ${this.last.tool ?? 'the call'}: ${path} (outputSchemas or outputFields)`);
  const value = pointer(lastEnvelope(this).data, at);
  assert.ok(Array.isArray(value) && value.length > 0, `${path} is not a non-empty list: ${JSON.stringify(value)?.slice(0, 200)}`);
});

// Fields the source names for the last tool's result (spec/output-fields.json): each must be there.
Then('the data has the fields {string}', function (this: SiteWorld, fields: string) {
  const data = lastEnvelope(this).data as Record<string, unknown> | undefined;
  for (const field of fields.split(',').map((f) => f.trim())) {
    const at = checkableOutput(this, `/${field}`);
    if (at === undefined) continue;
    assert.ok(data && pointer(data, at) !== undefined, `${describeLast(this)}: the result has no ${field} (it must be relayed to the user)`);
  }
});

Then('the data at {string} has {count} items', function (this: SiteWorld, pathText: string, items: string) {
  const count = this.count(items);
  const path = this.resolve(pathText);
  const at = checkableOutput(this, path);
  if (at === undefined) return;
  const value = pointer(lastEnvelope(this).data, at);
  assert.ok(Array.isArray(value), `${path} is not an array: ${JSON.stringify(value)?.slice(0, 200)}`);
  assert.equal(value.length, count, `${path} has ${value.length} items`);
});

// A list whose entries the source does not count (list_draft_changes: one per call or grouped, §4.3 shows none).
Then('the data at {string} is a non-empty list', function (this: SiteWorld, pathText: string) {
  const path = this.resolve(pathText);
  const at = checkableOutput(this, path);
  if (at === undefined) return;
  const value = pointer(lastEnvelope(this).data, at);
  assert.ok(Array.isArray(value) && value.length > 0, `${path} is not a non-empty list: ${JSON.stringify(value)?.slice(0, 200)}`);
});

Then('the data at {string} is a(n) {word}', function (this: SiteWorld, pathText: string, kind: string) {
  const path = this.resolve(pathText);
  const at = checkableOutput(this, path);
  if (at === undefined) return;
  const value = pointer(lastEnvelope(this).data, at);
  const actual = Array.isArray(value) ? 'array' : value === null ? 'null' : Number.isInteger(value) && kind === 'integer' ? 'integer' : typeof value;
  assert.equal(actual, kind, `data at ${path} is ${JSON.stringify(value)?.slice(0, 100)}`);
});

Then('the data matches:', function (this: SiteWorld, doc: string) {
  if (checkableOutput(this, '/*') === undefined) return;
  const mismatch = subsetMismatch(lastEnvelope(this).data, JSON.parse(this.resolve(doc)));
  assert.equal(mismatch, undefined, `${describeLast(this)}: ${mismatch}`);
});

Then('the error details at {string} equals {string}', function (this: SiteWorld, path: string, expected: string) {
  if (!detailsDeclared(this, path)) return;
  assert.deepEqual(pointer(lastEnvelope(this).error?.details, path), parse(this.resolve(expected)), `error details at ${path}`);
});

Then('the error details at {string} is a number from {int} to {int}', function (this: SiteWorld, path: string, min: number, max: number) {
  if (!detailsDeclared(this, path)) return;
  const value = pointer(lastEnvelope(this).error?.details, path);
  assert.equal(typeof value, 'number', `error details at ${path} is ${JSON.stringify(value)}, not a number`);
  assert.ok((value as number) >= min && (value as number) <= max, `error details at ${path} is ${value}, expected ${min}..${max}`);
});

// A plain-language next step or explanation (§4.3 names none of their fields): some text of the answer is a
// sentence, at least four words of letters.
Then('the answer carries a plain-language sentence', function (this: SiteWorld) {
  const sentences = [...stringsIn(lastEnvelope(this).data, 500)].filter((text) => (text.match(/\p{L}{2,}/gu) ?? []).length >= 4);
  assert.ok(sentences.length > 0, `${describeLast(this)}: no text of the answer is a sentence: ${JSON.stringify(lastEnvelope(this).data)?.slice(0, 300)}`);
});

// An entry found by a value the kit wrote (an address it invited), holding a word the source names (a level):
// the innermost object of the answer with a field equal to the first, one of whose fields equals the second.
Then('the entry of the data that names {string} also holds {string}', function (this: SiteWorld, nameText: string, wordText: string) {
  const [name, word] = [this.resolve(nameText), this.resolve(wordText)];
  const data = lastEnvelope(this).data;
  const entries = pointersWhere(data, (v) => v !== null && typeof v === 'object' && !Array.isArray(v) && Object.values(v).includes(name));
  assert.ok(entries.length > 0, `${describeLast(this)}: no entry of the answer names ${name}: ${JSON.stringify(data)?.slice(0, 300)}`);
  const holding = entries.filter((at) => Object.values(pointer(data, at) as Record<string, unknown>).includes(word));
  assert.ok(holding.length > 0, `${describeLast(this)}: the entry naming ${name} does not hold ${word}: ${JSON.stringify(pointer(data, entries[0]!))}`);
});

Then('the data contains {string}', function (this: SiteWorld, text: string) {
  const wanted = this.resolve(text);
  assert.ok(JSON.stringify(lastEnvelope(this).data).includes(wanted), `${describeLast(this)}: the data lacks ${wanted}`);
});

// A fragment of our own output shape (field names, id prefixes, message words): checked only with outputSchemas.
Then('the data, in our output shape, contains {string}', function (this: SiteWorld, text: string) {
  if (checkableOutput(this, '/*') === undefined) return;
  assert.ok(JSON.stringify(lastEnvelope(this).data).includes(this.resolve(text)), `data lacks ${text}`);
});

Then('the data does not contain {string}', function (this: SiteWorld, text: string) {
  const unwanted = this.resolve(text);
  assert.ok(!JSON.stringify(lastEnvelope(this).data ?? null).includes(unwanted), `${describeLast(this)}: the data contains ${unwanted}`);
});

Then('the answer does not contain {string}', function (this: SiteWorld, text: string) {
  assert.ok(!JSON.stringify(lastEnvelope(this)).includes(this.resolve(text)), `the answer (data or error) contains ${text}`);
});

When('the data at {string} is remembered as {string}', function (this: SiteWorld, pathText: string, key: string) {
  const path = this.resolve(pathText);
  const value = pointer(lastEnvelope(this).data, requireOutput(this, path));
  assert.notEqual(value, undefined, `no data at ${path}`);
  this.remembered.set(key, value);
});

// The website a call created (create_site, import_site, migrate_site_from_url). Where the answer names it is not
// shown (§4.3): the declared pointer when there is one; else, by meaning, the one string of the answer that the
// target's fixtures know as a website (part sites) and that is none of the scenario's own sites.
When('the website the call created is remembered as {string}', async function (this: SiteWorld, key: string) {
  const data = lastEnvelope(this).data;
  const at = outputPointer(this.last.tool, '/websiteId');
  if (at !== undefined) {
    const value = pointer(data, at);
    assert.equal(typeof value, 'string', `${describeLast(this)}: no website id at ${at}`);
    this.remembered.set(key, value);
    return;
  }
  if (!fixturesSupport('sites')) throw new NotDeclared(`output field ${this.last.tool ?? '?'}/websiteId (outputSchemas or outputFields, or the fixtures part sites)`);
  const own = new Set(this.worlds.flatMap((w) => Object.values(w.sites).map((site) => site?.websiteId)));
  // An id is one token: a sentence, a URL's spaces-free tail or a long text is not asked about.
  const candidates = [...stringsIn(data, 200)].filter((text) => !own.has(text) && /^[^\s/]{1,100}$/.test(text));
  const sites: string[] = [];
  for (const candidate of candidates) {
    try {
      await this.fixtures.siteState(candidate);
      sites.push(candidate);
    } catch (error) {
      // Not a website of the target (404, or an id it refuses outright).
      if (!(error instanceof FixturesError) || error.status < 400 || error.status > 499) throw error;
    }
  }
  assert.equal(sites.length, 1, `${describeLast(this)}: the answer names ${sites.length} websites the target's fixtures know besides the scenario's own (${sites.join(', ')}); it must name the one it created`);
  this.remembered.set(key, sites[0]);
});

Then('the data at {string} has as many items as the remembered {string}', function (this: SiteWorld, pathText: string, key: string) {
  const path = this.resolve(pathText);
  const now = pointer(lastEnvelope(this).data, requireOutput(this, path));
  const before = this.remembered.get(key);
  assert.ok(Array.isArray(now) && Array.isArray(before), `no arrays to compare at ${path}`);
  assert.equal(now.length, before.length, `${path} had ${before.length} items, now ${now.length}`);
});

When('the answer is remembered as {string}', function (this: SiteWorld, key: string) {
  this.remembered.set(key, lastEnvelope(this));
  this.remembered.set(`args:${key}`, this.last.args ?? {});
});

Then('the answer equals the remembered {string} except {string}', function (this: SiteWorld, key: string, ignored: string) {
  const strip = (e: unknown) => JSON.parse(JSON.stringify(e), (k, v) => (k === ignored ? undefined : v));
  assert.deepEqual(strip(lastEnvelope(this)), strip(this.remembered.get(key)));
});

// Two answers "look the same" when they are equal once each call's own argument values are masked: the
// answer about another tenant's id must not differ from the answer about a missing id in anything but the id.
Then('the answer looks exactly like the remembered {string}', function (this: SiteWorld, key: string) {
  const mask = (envelope: unknown, callArgs: Record<string, unknown>) => {
    let text = JSON.stringify(envelope);
    const values = Object.values(callArgs).filter((v): v is string => typeof v === 'string' && v.length >= 4);
    for (const v of values.sort((a, b) => b.length - a.length)) text = text.split(JSON.stringify(v).slice(1, -1)).join('<arg>');
    return JSON.parse(text) as unknown;
  };
  const remembered = this.remembered.get(key);
  assert.ok(remembered, `nothing remembered as ${key}`);
  assert.deepEqual(mask(lastEnvelope(this), this.last.args ?? {}), mask(remembered, this.remembered.get(`args:${key}`) as Record<string, unknown>));
});
