// The implementation declaration (spec/schemas/declaration.schema.json): the target's own choices on points
// the source leaves open. The kit's first duty is to judge by the source alone (rule kit-judges-by-source):
// a check that needs a value the source does not give runs only when the target declared that value; when it
// did not, the check is reported as "not checked: <what> not declared" and never fails the target.
//
// The CLI validates the file given with --declaration and passes its path to every worker in
// SITE_MCP_DECLARATION; each process reads it once.
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { loadJson, loadRules, SPEC_BASE, sharedAjv } from '../../spec/index.js';
import type { ImplementationDeclaration } from '../../generated/schemas/declaration.js';

/**
 * A target's implementation declaration (spec/schemas/declaration.schema.json, ImplementationDeclaration), with
 * errorCodes indexed by any kind name, as the steps ask by the kit's kinds.
 */
export type Declaration = Omit<ImplementationDeclaration, 'errorCodes'> & { errorCodes?: Partial<Record<string, string>> };

export class DeclarationError extends Error {}

/**
 * Thrown by a step that needs a value the target did not declare: the step, and the rest of its scenario, are
 * reported as not checked instead of failing (features/support/declared.ts).
 */
export class NotDeclared extends Error {
  constructor(readonly what: string) {
    super(`not declared: ${what}`);
  }
}

/** Whether the target declared that it follows decision rule `ruleId` of the catalogue. */
export function adopts(ruleId: string): boolean {
  return activeDeclaration()?.adopts?.includes(ruleId) ?? false;
}

/** Reads and validates a declaration file (YAML or JSON); throws DeclarationError with one readable sentence. */
export function readDeclaration(path: string): Declaration {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new DeclarationError(`cannot read the declaration file ${path}; pass an existing file to --declaration`);
  }
  let value: unknown;
  try {
    value = parseYaml(text);
  } catch (error) {
    throw new DeclarationError(`the declaration file ${path} is not YAML or JSON: ${(error as Error).message.split('\n')[0]}`);
  }
  const validate = sharedAjv().getSchema(`${SPEC_BASE}schemas/declaration.schema.json`)!;
  if (!validate(value)) {
    throw new DeclarationError(`the declaration file ${path} does not match spec/schemas/declaration.schema.json: ${sharedAjv().errorsText(validate.errors)}`);
  }
  const declaration = value as Declaration;
  const decisions = new Set(loadRules().filter((r) => r.decision).map((r) => r.id));
  const unknown = (declaration.adopts ?? []).filter((id) => !decisions.has(id));
  if (unknown.length) throw new DeclarationError(`the declaration file ${path} adopts ${unknown.join(', ')}, which are not decision rules of spec/rules`);
  if (declaration.pairing && declaration.adopts?.includes('pairing-field-names')) {
    throw new DeclarationError(`the declaration file ${path} both adopts pairing-field-names and maps pairing names of its own; keep one of them`);
  }
  return declaration;
}

let active: Declaration | null | undefined;

/** The declaration of this run (SITE_MCP_DECLARATION), or null when the target declared nothing. */
export function activeDeclaration(): Declaration | null {
  if (active === undefined) active = process.env.SITE_MCP_DECLARATION ? readDeclaration(process.env.SITE_MCP_DECLARATION) : null;
  return active;
}

/**
 * Thrown by a step that needs what the target has not built (declared in notImplemented, or a catalogue tool its
 * tools/list does not name): the rest of the scenario is reported as not checked, never failed.
 */
export class NotImplemented extends NotDeclared {
  constructor(thing: string) {
    super(`not implemented: ${thing}`);
  }
}

/** Whether the declaration says a tool (`tools`) or a part of the interface (`parts`) is not built yet. */
export function declaredNotImplemented(kind: 'tools' | 'parts', name: string): boolean {
  return (activeDeclaration()?.notImplemented?.[kind] as string[] | undefined)?.includes(name) ?? false;
}

/** The code the target declared for a kind of refusal, if it did. */
export function declaredErrorCode(kind: string): string | undefined {
  return activeDeclaration()?.errorCodes?.[kind];
}

const ERROR_KINDS = Object.keys(
  (loadJson<{ properties: { errorCodes: { properties: Record<string, unknown> } } }>('schemas/declaration.schema.json')).properties.errorCodes.properties,
);

/** Whether the target declared a code for every kind of refusal the kit tells apart. */
export function everyErrorKindDeclared(): boolean {
  const codes = activeDeclaration()?.errorCodes ?? {};
  return ERROR_KINDS.every((kind) => codes[kind]);
}

/** Every error code the target declared (for error_code_known). */
export function declaredErrorCodes(): Set<string> | undefined {
  const codes = activeDeclaration()?.errorCodes;
  return codes ? new Set(Object.values(codes).filter((c): c is string => Boolean(c))) : undefined;
}

/**
 * Where the target's data of `tool` carries our output field at `path` (a pointer in our shape), by its declared
 * outputFields: the entries of the tool's exact name, then of the longest matching `prefix*`; within them the key
 * that matches most of the path. A key is a field ("sites") or a path into list items in which a star stands for
 * an index ("sites/STAR/websiteId"); its value is a pointer into the target's data ("" for the data itself) whose
 * stars take the indices the key matched; what follows the key in `path` is appended. Undefined when nothing declared covers it.
 */
export function declaredOutputPointer(tool: string, path: string, declaration = activeDeclaration()): string | undefined {
  const declared = declaration?.outputFields ?? {};
  const patterns = Object.keys(declared).filter((k) => k.endsWith('*') && tool.startsWith(k.slice(0, -1))).sort((a, b) => a.length - b.length);
  const fields: Record<string, string> = Object.assign({}, ...patterns.map((k) => declared[k]), declared[tool]);
  const segments = path.split('/').slice(1);
  let best: { length: number; value: string; indices: string[] } | undefined;
  for (const [key, value] of Object.entries(fields)) {
    const keys = key.split('/');
    const indices: string[] = [];
    const matches = keys.length <= segments.length && keys.every((k, i) => (k === '*' ? /^\d+$/.test(segments[i]!) && indices.push(segments[i]!) > 0 : k === segments[i]));
    if (matches && (!best || keys.length > best.length)) best = { length: keys.length, value, indices };
  }
  if (!best) return undefined;
  let next = 0;
  const { value, indices, length } = best;
  const head = value.split('/').map((s, i) => (i > 0 && s === '*' ? indices[next++] ?? s : s)).join('/');
  const rest = segments.slice(length);
  return rest.length ? `${head}/${rest.join('/')}` : head;
}

const SOURCE_FIELDS = loadJson<{ tools: Record<string, string[]> }>('output-fields.json').tools;

/**
 * Where the data of `tool` at `path` (a pointer in our output shape) is read in this target: the same pointer for
 * a field the source names (spec/output-fields.json) or when the target declares outputSchemas; the declared
 * pointer for a field it maps in outputFields; undefined when the field may not be read by name (the steps then
 * look for it by value: features/support/located.ts).
 */
export function outputPointer(tool: string | undefined, path: string, declaration = activeDeclaration()): string | undefined {
  if (declaration?.outputSchemas) return path;
  const [, top = ''] = path.split('/');
  if (tool && SOURCE_FIELDS[tool]?.includes(top)) return path;
  return tool && top !== '*' ? declaredOutputPointer(tool, path, declaration) : undefined;
}

/**
 * The target's name for one of the kit's section types (`kind` "types": hero, text, …) or text fields ("fields":
 * heading, body, …): its declared `sections` mapping, else ours when it adopts section-types; NotDeclared
 * otherwise, since the source shows no section types or field names.
 */
/**
 * The target's names for the kit's section types and text fields as its fixtures answered them with a world
 * (WorldResponse.sectionVocabulary): §4.1 shows no vocabulary, and the target maps the kit's world sections to its
 * own, so it can say what it mapped them to. Kept for this process, since a target's vocabulary does not change.
 */
const learnedVocabulary: { types: Record<string, string>; fields: Record<string, string> } = { types: {}, fields: {} };

export function learnSectionVocabulary(vocabulary: { types?: Record<string, string | undefined>; fields?: Record<string, string | undefined> } | undefined): void {
  for (const kind of ['types', 'fields'] as const) {
    for (const [kit, theirs] of Object.entries(vocabulary?.[kind] ?? {})) if (typeof theirs === 'string' && theirs) learnedVocabulary[kind][kit] = theirs;
  }
}

/** The target's name for one of the kit's section types or text fields: declared, adopted, or learned from a world. */
export function sectionVocabulary(kind: 'types' | 'fields', name: string): string {
  const declared = activeDeclaration()?.sections?.[kind]?.[name];
  if (declared) return declared;
  if (adopts('section-types')) return name;
  const learned = learnedVocabulary[kind][name];
  if (learned) return learned;
  throw new NotDeclared(`the section ${kind === 'types' ? 'type' : 'field'} "${name}" (sections.${kind}, adopt section-types, or name it in a world answer's sectionVocabulary)`);
}

/** sectionVocabulary, or undefined when the target declared neither the mapping nor our vocabulary. */
export function sectionVocabularyIfDeclared(kind: 'types' | 'fields', name: string): string | undefined {
  try {
    return sectionVocabulary(kind, name);
  } catch (error) {
    if (error instanceof NotDeclared) return undefined;
    throw error;
  }
}

/**
 * The target's names in the device-code pairing bodies (POST /v1/cli/pair/start and /poll). §4.1 names the poll's
 * websiteId and nothing else ("Pairing request and response field names beyond those named above ... not shown"),
 * and §3 shows no state names: ours are the decision pairing-field-names, the target's its declared `pairing`
 * mapping (a name it leaves out is ours). websiteId is the source's and never mapped.
 */
export interface PairingNames {
  /** The target's name for one of our pairing fields (scopes, userCode, deviceCode, verificationUri, status, token, …). */
  field(ours: PairingField): string;
  /** The target's poll status for one of ours (pending, approved, redeemed, denied, expired). */
  status(ours: PairingStatus): string;
  /** Scopes as the target carries them in the start request and the poll answer. */
  encodeScopes(scopes: string[]): string[] | string;
  /** The scope names of a start request's or poll answer's scopes value; undefined when it is neither form. */
  decodeScopes(value: unknown): string[] | undefined;
  /** Where a delivery token reads the published site (§2.7, address not shown); NotDeclared when it is not known. */
  deliveryPath(): string;
}

type PairingMapping = NonNullable<ImplementationDeclaration['pairing']>;
/** Our names of the pairing fields a declaration may map (spec/schemas/declaration.schema.json, pairing.fields). */
export type PairingField = 'scopes' | 'readOnly' | 'admin' | 'userCode' | 'deviceCode' | 'verificationUri' | 'expiresIn' | 'interval' | 'status' | 'token';
/** Our poll statuses (pairing.statuses). */
export type PairingStatus = 'pending' | 'approved' | 'redeemed' | 'denied' | 'expired';

function pairingNamesOf(mapping: PairingMapping): PairingNames {
  const asString = mapping.scopesAs === 'string';
  return {
    field: (ours) => mapping.fields?.[ours] ?? ours,
    status: (ours) => mapping.statuses?.[ours] ?? ours,
    encodeScopes: (scopes) => (asString ? scopes.join(' ') : scopes),
    decodeScopes: (value) => {
      if (asString) return typeof value === 'string' ? value.split(' ').filter(Boolean) : undefined;
      return Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : undefined;
    },
    deliveryPath: () => {
      if (mapping.deliveryPath) return mapping.deliveryPath;
      if (adopts('pairing-field-names')) return OUR_DELIVERY_PATH;
      throw new NotDeclared('where a delivery token reads the published site (pairing.deliveryPath in the declaration or in the fixtures handshake\'s pairingNames, or adopt pairing-field-names)');
    },
  };
}

/** Our delivery address (rule pairing-field-names: the delivery endpoint is ours). */
const OUR_DELIVERY_PATH = '/v1/delivery/site';

/**
 * The pairing names of this target: its declared `pairing` mapping, else ours when it adopts pairing-field-names,
 * else the ones its fixtures handshake names; NotDeclared otherwise (the scenario stops as not checked, naming the
 * ways to give them).
 */
export function pairingNames(): PairingNames {
  const mapping = activeDeclaration()?.pairing;
  if (mapping) return pairingNamesOf(mapping);
  if (adopts('pairing-field-names')) return pairingNamesOf({});
  // Said by the target's fixtures handshake (Handshake.pairingNames; conformance/lib/prerequisites.ts).
  const told = process.env.SITE_MCP_FIXTURES_PAIRING_NAMES;
  if (told) return pairingNamesOf(JSON.parse(told) as PairingMapping);
  throw new NotDeclared('the pairing field names (name them in the fixtures handshake\'s pairingNames, declare them under pairing, or adopt pairing-field-names)');
}

/** pairingNames, or ours when the target declared neither (for a step whose check does not depend on them). */
export function pairingNamesOrOurs(): PairingNames {
  try {
    return pairingNames();
  } catch (error) {
    if (error instanceof NotDeclared) return pairingNamesOf({});
    throw error;
  }
}

/** Media type of the attachment a scenario uses to report a check it could not make (see report.ts). */
export const NOT_CHECKED_MEDIA_TYPE = 'text/x.site-mcp.not-checked';

/**
 * Media type of the attachment a scenario uses for a choice of the target's that it could not compare: a value the
 * source leaves open (an error code, the error object's details, how an unknown tool is refused) and the target did
 * not declare. The source's own check in that step ran; the choice is listed apart and never makes the scenario's
 * source verdict partial (report.ts; rule kit-judges-by-source).
 */
export const CHOICE_NOT_DECLARED_MEDIA_TYPE = 'text/x.site-mcp.choice-not-declared';
