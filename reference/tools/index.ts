// The handler table: tool name → implementation, one module per scope area. tsc proves it complete: a tool of
// spec/tools without a handler, a handler for a name outside spec/tools, or a tool two areas both handle fails
// to compile (reference/test/catalogue.test.ts checks the same at run time).
import type { ToolName } from '../../generated/tool-map.js';
import type { HandlerTable, ToolContext } from './types.js';
import { siteReadHandlers } from './site-read.js';
import { contentWriteHandlers } from './content-write.js';
import { advancedEditorHandlers } from './advanced-editor.js';
import { importHandlers } from './import-site.js';
import { migrateHandlers } from './migrate-site.js';
import { commerceHandlers } from './commerce.js';
import { settingsAccessCommsHandlers } from './settings-access-comms.js';
import { domainHandlers } from './domains.js';
import { aiImageHandlers } from './ai-images.js';
import { crmHandlers } from './crm.js';
import { workspaceHandlers } from './workspace.js';
import { reviewedHandlers } from './reviewed.js';

/** The areas' records joined: a tool handled in every area it appears in. */
type Joined<T> = T extends readonly [infer First, ...infer Rest] ? First & Joined<Rest> : unknown;
/** Tool names that more than one area handles (a join would silently keep only the last). */
type HandledTwice<T, Seen = never> = T extends readonly [infer First, ...infer Rest] ? Extract<keyof First, Seen> | HandledTwice<Rest, Seen | keyof First> : never;
type NotInCatalogue<T> = Exclude<keyof Joined<T>, ToolName>;

function joinAreas<const T extends readonly object[]>(
  ...areas: T & ([HandledTwice<T> | NotInCatalogue<T>] extends [never] ? unknown : { handledTwice: HandledTwice<T>; notInCatalogue: NotInCatalogue<T> })
): Joined<T> {
  return Object.assign({}, ...areas);
}

export const handlers: HandlerTable = joinAreas(
  siteReadHandlers,
  contentWriteHandlers,
  advancedEditorHandlers,
  importHandlers,
  migrateHandlers,
  commerceHandlers,
  settingsAccessCommsHandlers,
  domainHandlers,
  aiImageHandlers,
  crmHandlers,
  workspaceHandlers,
  reviewedHandlers,
);

const isToolName = (name: string): name is ToolName => Object.hasOwn(handlers, name);

/**
 * The handler in `table` (the server's composed table) of a tool the client named, or undefined for a
 * name outside it. Its context is the general ToolContext: the call path has validated the arguments against the
 * tool's input schema and resolved its website exactly when the spec says it targets one, which is what the
 * handler's generated types assume.
 */
export function handlerFor(table: HandlerTable, name: string): ((ctx: ToolContext) => unknown) | undefined {
  // cast: the call path validated the arguments and resolved the website as ContextOf<name> types them (see above).
  return isToolName(name) ? (table[name] as (ctx: ToolContext) => unknown) : undefined;
}
