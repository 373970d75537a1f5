// The tool catalogue and the limits as the server reads them from spec/ (through spec/index.ts): each tool's
// definition, its gate and its validators, and the limit values with the keys that are our decisions.
import { loadLimits, loadTools, targetsSite, toolValidator, type Limits, type ToolDefinition } from '../spec/index.js';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { Gate } from './domain/authorize.js';
import type { Role } from './domain/vocabulary.js';

export type { Limits };

/** spec/limits.json, as spec/index.ts reads it. */
export const limits = loadLimits();

export interface CatalogueEntry {
  definition: ToolDefinition;
  gate: Gate;
  readonly validateInput: ValidateFunction;
  readonly validateOutput: ValidateFunction;
}

/** The tools of spec/tools by name. */
export type Catalogue = ReadonlyMap<string, CatalogueEntry>;

/** Derives each tool's gate from its spec definition: read-only tools need a viewer, owner-only an owner. */
function gateOf(definition: ToolDefinition): Gate {
  const minRole: Role = definition.gates.includes('owner-only') ? 'owner' : definition.annotations?.readOnlyHint ? 'viewer' : 'editor';
  return { scopes: definition.scopes, gates: definition.gates, minRole, targetsSite: targetsSite(definition) };
}

export function loadCatalogue(): Catalogue {
  const catalogue = new Map<string, CatalogueEntry>();
  for (const definition of loadTools()) {
    // Each validator compiles on the tool's first call and is kept: compiling all 2 x 46 at start-up is a large
    // share of the server's start-up CPU, paid again by every server a test starts.
    let input: CatalogueEntry['validateInput'] | undefined;
    let output: CatalogueEntry['validateOutput'] | undefined;
    catalogue.set(definition.name, {
      definition,
      gate: gateOf(definition),
      get validateInput() {
        return (input ??= toolValidator(definition.name, 'input')!);
      },
      get validateOutput() {
        return (output ??= toolValidator(definition.name, 'output')!);
      },
    });
  }
  return catalogue;
}

/**
 * The limits that are our decisions (spec/limits.json entries marked decision); the source fixes the rest. Test
 * mode may take other values for them (--decision-limits), so a correct variant of the reference can prove the
 * suite never hard-codes our choices.
 */
export const DECISION_LIMIT_KEYS = ['throttles', 'importMaxBytes', 'siteLimitByPlan', 'imageCreditCost', 'toolArguments', 'signIn', 'pairStart', 'pairCode', 'oauthRegistration', 'crawl'] as const;
export type DecisionLimits = Partial<Pick<Limits, (typeof DECISION_LIMIT_KEYS)[number]>>;
