// Where the last answer holds a field of our output shape (rule kit-judges-by-source; §4.3 names no result
// fields). In order: the pointer the target declared (outputSchemas, outputFields) or the name the source gives
// (spec/output-fields.json); else the field found by the value it must hold, among the values this scenario
// arranged: the ids of its worlds. A list is the one array of the answer whose items carry ids of the kind our
// items carry (a list of sites: website ids); an item's id field is the field of the item that holds such an id.
// Nothing found, or more than one place: "not checked" with the reason, never a guess.
import assert from 'node:assert/strict';
import type { WorldResponse } from '../../conformance/lib/fixtures-client.js';
import { NotDeclared, outputPointer } from '../../conformance/lib/declaration.js';
import { fieldsHolding, listsHolding, listsIn, pointersHolding, pointersWhere } from '../../conformance/lib/find-by-value.js';
import { loadSchemas, SPEC_BASE, toolByName, toolSchemaId } from '../../spec/index.js';
import { pointer } from './json.js';
import type { SiteWorld } from './world.js';

type Site = NonNullable<WorldResponse['sites'][string]>;

/** Our id fields, and the ids of that kind a world arranged. */
const ID_FIELDS: Record<string, (world: WorldResponse) => string[]> = {
  websiteId: (w) => sites(w).map((s) => s.websiteId),
  pageId: (w) => sites(w).flatMap((s) => present(Object.values(s.pages)).map((p) => p.pageId)),
  sectionId: (w) => sites(w).flatMap((s) => present(Object.values(s.pages)).flatMap((p) => present(Object.values(p.sections)))),
  leadId: records('leads'),
  bookingId: records('bookings'),
  contactId: records('contacts'),
  productId: records('products'),
  serviceId: records('services'),
  documentId: records('documents'),
  userId: (w) => present(Object.values(w.users)).map((u) => u.userId),
};

const present = <T>(values: (T | undefined)[]): T[] => values.filter((v): v is T => v !== undefined);

function sites(world: WorldResponse): Site[] {
  return present(Object.values(world.sites));
}

function records(list: string) {
  return (world: WorldResponse) => sites(world).flatMap((s) => s.records[list] ?? []);
}

function knownIds(world: SiteWorld, field: string): Set<string> {
  const of = ID_FIELDS[field];
  return new Set(of ? world.worlds.flatMap(of) : []);
}

/** Every id the scenario's worlds arranged, of every kind. */
export function idsArranged(world: SiteWorld): Set<string> {
  return new Set(Object.keys(ID_FIELDS).flatMap((field) => [...knownIds(world, field)]));
}

type Schema = { $ref?: string; type?: unknown; properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[]; oneOf?: Schema[] };

/** Our output schema of `tool` at `path` (a pointer into its data), $refs followed; undefined where it has none. */
export function ourSchemaAt(tool: string, path: string): Schema | undefined {
  const schemas = loadSchemas();
  let base = toolSchemaId(tool, 'output');
  const follow = (node: Schema | undefined, hops = 0): Schema | undefined => {
    if (!node?.$ref || hops > 8) return node;
    const url = new URL(node.$ref, base);
    const [document, fragment = ''] = url.href.split('#');
    const root = document === toolSchemaId(tool, 'output') ? (toolByName(tool)?.outputSchema as Schema | undefined) : (schemas.get(document!) as Schema | undefined);
    if (document!.startsWith(SPEC_BASE)) base = document!;
    return follow(pointer(root, fragment) as Schema | undefined, hops + 1);
  };
  let node = follow(toolByName(tool)?.outputSchema as Schema | undefined);
  for (const key of path.split('/').slice(1)) {
    if (!node) return undefined;
    node = /^\d+$/.test(key) ? follow(node.items) : follow(node.properties?.[key] ?? (node.anyOf ?? node.oneOf ?? []).map((s) => follow(s)?.properties?.[key]).find(Boolean));
  }
  return node;
}

/** The id field our items of the list at `path` carry: their own id (a lead's leadId), else the site's. */
function itemIdField(tool: string, path: string): string | undefined {
  const fields = Object.keys(ourSchemaAt(tool, `${path}/0`)?.properties ?? {}).filter((f) => f in ID_FIELDS);
  return fields.find((f) => f !== 'websiteId') ?? fields[0];
}

type Found = { at: string } | { why: string };

/** The list of the last answer that stands for our list at `path`. */
function listByValue(world: SiteWorld, tool: string, path: string): Found {
  const data = world.last.envelope?.ok ? world.last.envelope.data : undefined;
  // Items of ours without an id of the world (domains, invitations) are found by a text the kit sent as one of
  // their fields (the hostname it connected, the email it invited).
  const field = itemIdField(tool, path);
  const fields = Object.keys(ourSchemaAt(tool, `${path}/0`)?.properties ?? {});
  const known = field ? knownIds(world, field) : new Set(fields.flatMap((f) => [...world.exchanges.writtenAs(f)]).filter((t) => textsWritten(world).has(t)));
  const what = field ? `${field}s` : `values it sent as ${fields.join(', ') || 'their fields'}`;
  const holding = listsHolding(data, known);
  if (holding.length === 1) return { at: holding[0]! };
  if (holding.length > 1) return { why: `${holding.length} lists of the answer hold the scenario's ${what} (${holding.slice(0, 3).join(', ')})` };
  // An empty list holds no id: the answer's only list is the one (where else would it be?).
  const lists = listsIn(data);
  if (lists.length === 1) return { at: lists[0]! };
  return { why: `no list of the answer holds one of the scenario's ${what}, and it has ${lists.length} lists` };
}

/** The field of an item of our list (`/sites/0/websiteId`): the list found by value, then the item's field holding such an id. */
function itemFieldByValue(world: SiteWorld, tool: string, path: string): Found {
  const match = /^(.*)\/(\d+)\/([^/]+)$/.exec(path);
  if (!match || !(match[3]! in ID_FIELDS)) return { why: 'it is no id of a list item' };
  const [, listPath, index, field] = match as unknown as [string, string, string, string];
  const list = listByValue(world, tool, listPath);
  if (!('at' in list)) return list;
  const data = world.last.envelope?.ok ? world.last.envelope.data : undefined;
  const item = pointer(data, `${list.at}/${index}`);
  const fields = fieldsHolding(item, knownIds(world, field));
  if (fields.length === 1) return { at: `${list.at}/${index}${fields[0] ? `/${fields[0]}` : ''}` };
  return { why: `item ${index} of the list at ${list.at} has ${fields.length} fields holding one of the scenario's ${field}s` };
}

/** Where the last answer holds our field at `path`: declared or named by the source, else found by value. */
function locate(world: SiteWorld, path: string): Found {
  const tool = world.last.tool;
  const declared = outputPointer(tool, path);
  if (declared !== undefined) return { at: declared };
  if (!tool) return { why: 'no tool was called' };
  if (path === '/*') return { why: 'the whole answer is read in our output shape' };
  if (/\/\d+\/[^/]+$/.test(path)) return itemFieldByValue(world, tool, path);
  const schema = ourSchemaAt(tool, path);
  if (schema?.type === 'array' || schema?.items) return listByValue(world, tool, path);
  return { why: 'no value the kit arranged marks it' };
}

const reason = (world: SiteWorld, path: string, why: string) => `output field ${world.last.tool ?? '?'}${path} (outputSchemas or outputFields; by value: ${why})`;

/**
 * For an assertion: the pointer to read, or undefined after reporting "not checked" when the field cannot be found.
 * The whole answer in our output shape ("/*") is our choice, not the source's (§4.2 shows no output shapes): undeclared,
 * it is listed with the target's choices not declared, and the source's verdict does not wait for it.
 */
export function checkableOutput(world: SiteWorld, path: string): string | undefined {
  if (path === '/*' && outputPointer(world.last.tool, path) === undefined) {
    world.choiceNotDeclared(`our output shape of ${world.last.tool ?? 'the call'} (outputSchemas)`);
    return undefined;
  }
  const found = locate(world, path);
  if ('at' in found) return found.at;
  world.notChecked(reason(world, path, found.why));
  return undefined;
}

/** For a step that cannot go on without the field: the pointer to read; NotDeclared skips the rest of the scenario. */
export function requireOutput(world: SiteWorld, path: string): string {
  const found = locate(world, path);
  if ('at' in found) return found.at;
  throw new NotDeclared(reason(world, path, found.why));
}

/** The texts the kit sent in this scenario that could mark a value: not one lower-case word (vocabulary), not short. */
function textsWritten(world: SiteWorld): Set<string> {
  return new Set([...world.exchanges.written].filter((text) => text.length >= 3 && !/^[a-z]+$/.test(text)));
}

const ARRANGED = /\{\{(site|page|section|record|user|workspace):/;

/**
 * Whether `expected` (written in the step as `text`) is a value the kit can look for: an id its worlds arranged, or
 * a text it sent the target in this scenario. One lower-case word is vocabulary (a status, a type, a plan), which
 * the target names its own way, and a short text could sit anywhere: neither is looked for.
 */
function lookedForByValue(world: SiteWorld, text: string, expected: unknown): boolean {
  if (typeof expected !== 'string' || expected.length < 3) return false;
  if (ARRANGED.test(text)) return true;
  return textsWritten(world).has(expected);
}

/**
 * For `the data at <path> equals <text>` where the target did not name the field: the check by value, when the
 * value is one the kit arranged or wrote (it must be somewhere in the answer: the source asks the answer to carry
 * it, not where). True when the step is settled here (passed, or failed by the assert); false to go on by name.
 */
export function checkedByValue(world: SiteWorld, path: string, text: string, expected: unknown): boolean {
  if (outputPointer(world.last.tool, path) !== undefined || !lookedForByValue(world, text, expected)) return false;
  const data = world.last.envelope?.ok ? world.last.envelope.data : undefined;
  const where = pointersHolding(data, expected);
  assert.ok(where.length > 0, `${world.last.tool ?? 'the call'}: the answer holds ${JSON.stringify(expected)} nowhere (looked for by value: the target's name for ${path} is not declared)`);
  return true;
}

/**
 * As checkedByValue, for a number the kit read through the fixtures (a site revision): it must be somewhere in the
 * answer, as a number or its digits.
 */
export function numberCheckedByValue(world: SiteWorld, path: string, expected: number, what: string): boolean {
  if (outputPointer(world.last.tool, path) !== undefined) return false;
  const data = world.last.envelope?.ok ? world.last.envelope.data : undefined;
  const where = pointersWhere(data, (value) => value === expected || value === String(expected));
  assert.ok(where.length > 0, `${world.last.tool ?? 'the call'}: the answer holds ${what} (${expected}) nowhere (looked for by value: the target's name for ${path} is not declared)`);
  return true;
}
