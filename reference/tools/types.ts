// What a tool handler receives. Authorization, validation, rate limits and activity are done before and
// after the handler by mcp/pipeline.ts, so a handler holds only the business logic of its tool.
import type { ToolName, ToolTypes } from '../../generated/tool-map.js';
import type { Connection, Site, WorkspaceDoc } from '../domain/model.js';
import type { Runtime } from '../runtime.js';
import type { Transaction } from '../store/store.js';

export interface ToolContext<A = Record<string, unknown>, S extends Site | undefined = Site | undefined> {
  rt: Runtime;
  args: A;
  connection: Connection;
  /** The workspace as read before the call. Read-only: change state through write(). */
  ws: WorkspaceDoc;
  /** The target website, resolved and authorized (undefined for tools that take no websiteId). */
  site: S;
  now: Date;
  /**
   * Runs one all-or-nothing business operation (§7.3) on a fresh copy of the workspace and its target site.
   * If `operation` throws, nothing is written. Lookup entries it adds through `tx` commit with it.
   */
  write<T>(operation: (ws: WorkspaceDoc, site: Site, tx: Transaction) => T | Promise<T>): Promise<T>;
  /** PII-free activity summary: names of things, never values (rule activity-pii-free). */
  note(summary: string, extra?: { creditsSpent?: number }): void;
}

/**
 * The context of one tool: its arguments as its input schema types them (the call path validated them), and its
 * website when the spec says the call path resolves one (generated/tool-map.ts, from spec/index.ts targetsSite).
 */
export type ContextOf<N extends ToolName> = ToolContext<ToolTypes[N]['input'], ToolTypes[N]['targetsSite'] extends true ? Site : undefined>;

/** A tool's handler: its answer is the tool's output schema's type, checked again at run time before commit. */
export type HandlerOf<N extends ToolName> = (ctx: ContextOf<N>) => Promise<ToolTypes[N]['output']> | ToolTypes[N]['output'];

/** The handler table: one handler per tool of spec/tools, each typed by its name. */
export type HandlerTable = { [N in ToolName]: HandlerOf<N> };

/** Declares the handler of the tool `name`; tsc checks its arguments and answer against generated/. */
export function defineTool<N extends ToolName>(name: N, handler: HandlerOf<N>): HandlerOf<N> {
  return handler;
}
