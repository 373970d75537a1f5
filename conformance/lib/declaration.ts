// The implementation declaration (spec/schemas/declaration.schema.json): the target's own choices on points
// the source leaves open. The kit's first duty is to judge by the source alone (rule kit-judges-by-source):
// a check that needs a value the source does not give runs only when the target declared that value; when it
// did not, the check is reported as "not checked: <what> not declared" and never fails the target.
//
// The CLI validates the file given with --declaration and passes its path to every worker in
// SITE_MCP_DECLARATION; each process reads it once.
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { loadRules, SPEC_BASE, sharedAjv } from '../../spec/index.js';

export interface Declaration {
  declarationVersion: 1;
  implementation?: { name?: string; version?: string };
  errorCodes?: Partial<Record<string, string>>;
  errorObject?: boolean;
  outputSchemas?: boolean;
  mcpEncoding?: boolean;
  resourcesMirrorTools?: boolean;
  unknownTool?: 'envelope' | 'json-rpc-error';
  adopts?: string[];
  publicSiteUrl?: string;
}

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
  return declaration;
}

let active: Declaration | null | undefined;

/** The declaration of this run (SITE_MCP_DECLARATION), or null when the target declared nothing. */
export function activeDeclaration(): Declaration | null {
  if (active === undefined) active = process.env.SITE_MCP_DECLARATION ? readDeclaration(process.env.SITE_MCP_DECLARATION) : null;
  return active;
}

/** The code the target declared for a kind of refusal, if it did. */
export function declaredErrorCode(kind: string): string | undefined {
  return activeDeclaration()?.errorCodes?.[kind];
}

/** Every error code the target declared (for error_code_known). */
export function declaredErrorCodes(): Set<string> | undefined {
  const codes = activeDeclaration()?.errorCodes;
  return codes ? new Set(Object.values(codes).filter((c): c is string => Boolean(c))) : undefined;
}

/** Media type of the attachment a scenario uses to report a check it could not make (see report.ts). */
export const NOT_CHECKED_MEDIA_TYPE = 'text/x.site-mcp.not-checked';
