// What a tool handler receives. Authorization, validation, rate limits and activity are done before and
// after the handler by mcp/call-tool.ts, so a handler holds only the business logic of its tool.
import type { Connection, Site, WorkspaceDoc } from '../domain/model.js';
import type { Runtime } from '../runtime.js';
import type { Transaction } from '../store/store.js';

export interface ToolContext<A = Record<string, unknown>> {
  rt: Runtime;
  args: A;
  connection: Connection;
  /** The workspace as read before the call. Read-only: change state through write(). */
  ws: WorkspaceDoc;
  /** The target website, resolved and authorized (undefined for tools that take no websiteId). */
  site: Site | undefined;
  now: Date;
  /**
   * Runs one all-or-nothing business operation (§7.3) on a fresh copy of the workspace and its target site.
   * If `operation` throws, nothing is written. Lookup entries it adds through `tx` commit with it.
   */
  write<T>(operation: (ws: WorkspaceDoc, site: Site, tx: Transaction) => T | Promise<T>): Promise<T>;
  /** PII-free activity summary: names of things, never values (rule activity-pii-free). */
  note(summary: string, extra?: { creditsSpent?: number }): void;
}

export type ToolHandler<A = any, D = unknown> = (ctx: ToolContext<A>) => Promise<D> | D;
