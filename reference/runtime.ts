// The services one reference-server process shares: store, activity log, limiters, the tool catalogue from
// spec/ with its compiled validators, and the handler table. Built once at start-up, never per request.
import { join } from 'node:path';
import { loadCatalogue, type Limits } from './catalogue.js';
import { ActivityLog } from './store/activity.js';
import { DiskAssetFiles, sweepAssetFiles } from './store/asset-files.js';
import { Store, type StoreHooks } from './store/store.js';
import { SlidingWindowLimiter } from './domain/rate-limit.js';
import type { Clock } from './domain/clock.js';
import type { DnsClient } from './domain/dns.js';
import type { ImageProvider } from './domain/image-provider.js';
import type { CaptureEngine } from './domain/capture.js';
import { CaptureQueue } from './domain/capture-queue.js';
import type { Config, Services } from './services.js';
import type { Network } from './domain/safe-fetch.js';
import type { HandlerTable, ToolPorts } from './tools/types.js';
import type { CallStep } from './mcp/pipeline.js';
import { Pairings } from './domain/pairing.js';
import { createIdentityProvider, type IdentityProvider } from './oauth/provider.js';
import { OAuthEdge } from './oauth/edge.js';
import { Sessions } from './http/app/sessions.js';

export class Runtime {
  readonly store: Store;
  readonly activity: ActivityLog;
  /** Every rate limit and throttle of this process, its keys bounded (rule memory-caller-keyed-maps-bounded). */
  readonly limiter: SlidingWindowLimiter;
  // The composed services (services.ts), each under its own name.
  readonly clock: Clock;
  readonly net: Network;
  readonly images: ImageProvider;
  readonly dns: DnsClient;
  readonly limits: Limits;
  /** Visual capture for migrations, or null when this server has none (services.ts). */
  readonly capture: CaptureEngine | null;
  /** Pages beyond a migration's capture allowance, captured later by an in-process worker (rule migrate-capture-allowance). */
  readonly captureQueue: CaptureQueue;
  /** The copies of imported assets, served at /assets/ (rules import-site-assets-revalidated, portable-site-assets-carried). */
  readonly assetFiles: DiskAssetFiles;
  /** The handler of each tool (tools/index.ts), as the compositions left it. */
  readonly handlers: HandlerTable;
  /** The steps of every tool call (mcp/pipeline.ts CALL_STEPS), as the compositions left them. */
  readonly callSteps: readonly CallStep[];
  readonly pairings: Pairings;
  #oauth: Promise<{ idp: IdentityProvider; edge: OAuthEdge }> | undefined;

  /** The identity provider and the MCP edge's verifier, made on first use (the issuer needs the bound port). */
  oauth(): Promise<{ idp: IdentityProvider; edge: OAuthEdge }> {
    this.#oauth ??= createIdentityProvider(this.baseUrl, this.config.dataDir, { limiter: this.limiter, limits: this.limits, net: this.net }).then((idp) => ({ idp, edge: new OAuthEdge(idp) }));
    return this.#oauth;
  }
  #tools: ToolPorts | undefined;
  /** What a handler may use of the server (tools/types.ts), made on first use: the base URL is set once bound. */
  get tools(): ToolPorts {
    const { store, limits, baseUrl, net, dns, images, capture, captureQueue, assetFiles } = this;
    return (this.#tools ??= { store, limits, baseUrl, net, dns, images, capture, captureQueue, assetFiles, libraryDir: join(this.config.dataDir, 'library') });
  }
  readonly sessions = new Sessions();
  readonly catalogue = loadCatalogue();
  readonly config: Config;
  baseUrl = '';

  private constructor(store: Store, config: Config, services: Services, handlers: HandlerTable, callSteps: readonly CallStep[]) {
    this.store = store;
    this.config = config;
    this.handlers = handlers;
    this.callSteps = callSteps;
    ({ clock: this.clock, net: this.net, images: this.images, dns: this.dns, limits: this.limits, capture: this.capture } = services);
    this.limiter = new SlidingWindowLimiter({ maxKeys: this.limits.memory.limiterKeys });
    this.assetFiles = new DiskAssetFiles(join(config.dataDir, 'assets'));
    this.captureQueue = new CaptureQueue({ store, engine: this.capture, net: this.net, files: this.assetFiles, clock: this.clock, limits: this.limits, delayMs: config.captureQueueDelayMs ?? 10_000 });
    // The composed limits (services.ts), so a composition's retention is the one kept (rule activity-retention-90-days).
    this.activity = new ActivityLog(config.dataDir, this.limits.activityRetentionDays);
    // The composed limits too (rules pairings-in-memory-capped, pairings-capacity-per-address, pairings-capacity-per-owner).
    this.pairings = new Pairings(this.limits.pairStart);
  }

  /**
   * What the compositions made (reference/app.ts): services, handlers, call steps, store hooks (production has
   * none) and what becomes of the store once it is open (production keeps it as it is).
   */
  static async create(
    config: Config,
    composed: { services: Services; handlers: HandlerTable; callSteps: readonly CallStep[]; storeHooks: StoreHooks; store?: (store: Store) => Store },
  ): Promise<Runtime> {
    const store = await Store.open(config.dataDir, composed.storeHooks);
    // Copies of imported assets that no committed site names (an import that failed after its fetches): removed
    // now, while nothing can be between its fetches and its commit (store/asset-files.ts; reference/store/README.md).
    // A sweep that fails leaves the files for the next start; it never stops the server.
    const swept = await sweepAssetFiles(config.dataDir).catch((error: unknown) => {
      console.error(`[site-mcp] asset files not swept: ${error instanceof Error ? error.message : String(error)}`);
      return [];
    });
    if (swept.length > 0) console.log(`[site-mcp] ${swept.length} asset files no site names removed (data/assets)`);
    return new Runtime(composed.store ? composed.store(store) : store, config, composed.services, composed.handlers, composed.callSteps);
  }
}
