// What a tool handler receives. Authorization, validation, rate limits and activity are done before and
// after the handler by mcp/pipeline.ts, so a handler holds only the business logic of its tool.
import type { SharedStorageBudgets } from '../domain/import-merge.js';
import type { ToolName, ToolTypes } from '../../generated/tool-map.js';
import type { Limits } from '../../spec/index.js';
import type { CaptureEngine } from '../infra/capture.js';
import type { CaptureQueue } from '../domain/capture-queue.js';
import type { DnsClient } from '../infra/dns.js';
import type { ImageProvider } from '../infra/image-provider.js';
import type { Connection, Site, WorkspaceDoc } from '../domain/model.js';
import type { Network } from '../infra/safe-fetch.js';
import type { AssetFiles } from '../infra/store/asset-files.js';
import type { Store, Transaction } from '../infra/store/store.js';

/**
 * The services a handler may use, handed over by the call path from what the server was composed with: these and
 * nothing else (never the server's container), so a handler's reach is what its signature says.
 */
export interface ToolPorts {
  /** Transactions beyond write(): another workspace's (a company a plan creates) and the directory's lookups. */
  store: Store;
  /** spec/limits.json as composed (a correct variant or a broken server may change our decision values). */
  limits: Limits;
  /** The server's public base URL, for the addresses an answer names (editor, assets). */
  baseUrl: string;
  /** Imports' and migrations' fetches (rules migrate-ssrf-hardened, import-site-assets-revalidated). */
  net: Network;
  /** Domain verification's resolver (rules domain-*). */
  dns: DnsClient;
  /** generate_image's provider. */
  images: ImageProvider;
  /** Visual capture for migrations, or null when the server has no browser (rule migrate-capture-then-typed). */
  capture: CaptureEngine | null;
  /** Pages beyond a migration's capture allowance, captured later (rule migrate-capture-allowance). */
  captureQueue: CaptureQueue;
  /** The kept copies of imported assets (rule import-site-assets-revalidated). */
  assetFiles: AssetFiles;
  /** The storage budget parallel imports of a workspace share (rule import-assets-within-storage-quota). */
  storageBudgets: SharedStorageBudgets;
  /** Where generated images are kept, one folder per website. */
  libraryDir: string;
}

export interface ToolContext<A = Record<string, unknown>, S extends Site | undefined = Site | undefined> extends ToolPorts {
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
