// The composition root of the reference server: startServer builds each service once and hands each consumer
// only the ports it uses (the call path CallPorts, the MCP endpoint McpPorts, the app pages AppPorts, ...), and the
// HTTP surface is one Koa app, each concern in its own module. This is the production composition; a Composition
// adds to it (reference/testing/ in test mode, started by main.ts only when a fixtures secret is given), so nothing
// here imports test machinery.
import { SharedStorageBudgets } from './domain/import-merge.js';
import Koa from 'koa';
import Router from '@koa/router';
import type { AddressInfo } from 'node:net';
import { createServer, type Server as HttpServer } from 'node:http';
import { join } from 'node:path';
import { limits, loadCatalogue, type Catalogue } from './catalogue.js';
import { mcpHandler } from './mcp/mount.js';
import { hostCheck } from './api/host-check.js';
import { clientAddressMiddleware, type TrustedProxies } from './api/client-address.js';
import { publicSiteHandler } from './web/public-site.js';
import { protectedResourceMetadata } from './api/well-known.js';
import { appRouter, editorRouter } from './web/app-pages.js';
import { importedAssetHandler, libraryHandler } from './api/library.js';
import { pairingRouter } from './api/pairing.js';
import { authMdRouter } from './api/auth-md.js';
import { deliveryRouter } from './api/delivery.js';
import { connectRouter } from './web/connect.js';
import mount from 'koa-mount';
import { oauthInteractionRouter } from './auth/oauth-interactions.js';
import { oauthOnFirstUse, type OAuthPort } from './auth/oauth-identity.js';
import type { AdmissionRow } from './auth/oauth-admission.js';
import { Store, type StoreHooks } from './infra/store/store.js';
import { ActivityLog } from './infra/store/activity.js';
import { DiskAssetFiles, sweepAssetFiles } from './infra/store/asset-files.js';
import { SlidingWindowLimiter } from './domain/rate-limit.js';
import { CaptureQueue } from './domain/capture-queue.js';
import { Pairings } from './domain/pairing.js';
import { Sessions } from './web/session.js';
import { CALL_STEPS, type CallStep } from './mcp/pipeline.js';
import { productionServices, type Config, type Services } from './services.js';
import { handlers } from './tools/index.js';
import type { HandlerTable, ToolPorts } from './tools/types.js';

/**
 * What the composition root built for one server, each part once: the composed services (services.ts) and what is
 * made on them. No consumer takes this record; each is handed the ports it declares.
 */
export interface ServerParts extends Readonly<Services> {
  /** The server's public base URL, known once it is bound (the port may be 0). */
  readonly baseUrl: string;
  readonly store: Store;
  readonly activity: ActivityLog;
  /**
   * The limits of requests without a connection (sign-in, pairing, OAuth admission), keyed by what callers send and
   * bounded (rule memory-caller-keyed-maps-bounded).
   */
  readonly limiter: SlidingWindowLimiter;
  /**
   * The call path's own (rules rate-limit-per-connection, rate-limit-per-workspace, throttle-*), keyed by connections
   * and workspaces only: a flood of requests without an account, each a key of `limiter`, cannot push a connection's
   * count out and so reset it.
   */
  readonly callLimiter: SlidingWindowLimiter;
  /** Pages beyond a migration's capture allowance, captured later by an in-process worker (rule migrate-capture-allowance). */
  readonly captureQueue: CaptureQueue;
  /** The copies of imported assets, served at /assets/ (rules import-site-assets-revalidated, portable-site-assets-carried). */
  readonly assetFiles: DiskAssetFiles;
  readonly pairings: Pairings;
  readonly sessions: Sessions;
  readonly catalogue: Catalogue;
  /** The handler of each tool (tools/index.ts), as the compositions left it. */
  readonly handlers: HandlerTable;
  /** The steps of every tool call (mcp/pipeline.ts CALL_STEPS), as the compositions left them. */
  readonly callSteps: readonly CallStep[];
  /** The identity provider and the MCP edge's verifier, made on first use. */
  readonly oauth: OAuthPort;
  /** What a tool handler may use (tools/types.ts). */
  readonly tools: ToolPorts;
}

export interface RunningServer {
  /** What the server was built from, for a test or a benchmark to look into (and main.ts to seed the demo). */
  parts: ServerParts;
  url: string;
  close(): Promise<void>;
}

/** What a composition adds to the production server (reference/testing/index.ts: test mode). */
export interface Composition {
  /** Replaces or decorates services (services.ts) before anything uses them: test mode's seams, a test's fakes. */
  services?(services: Services): Services;
  /** Replaces or decorates tool handlers (tools/index.ts): test mode's invalid-next-answer. */
  handlers?(handlers: HandlerTable): HandlerTable;
  /** Changes the call path (mcp/pipeline.ts CALL_STEPS): a step left out, replaced or added. */
  callSteps?(steps: readonly CallStep[]): readonly CallStep[];
  /** Decorates the store (infra/store/store.ts) before anything uses it. */
  store?(store: Store): Store;
  /** Seams of the store's commits (test mode: the fixtures protocol's fail-next-write). */
  storeHooks?: StoreHooks;
  /** A router served first after the host check (test mode: the fixtures protocol). */
  router?(ports: RouterPorts): Router;
  /** Changes the OAuth admission table (auth/oauth-admission.ts): a row or a check left out, replaced or added. */
  oauthAdmission?(rows: readonly AdmissionRow[]): readonly AdmissionRow[];
}

/** What a composition's router may use of the server: test mode's fixtures protocol, a broken server's routes. */
export type RouterPorts = Pick<ServerParts, 'store' | 'clock' | 'activity' | 'limits' | 'dns' | 'pairings' | 'sessions' | 'baseUrl'>;

const MCP_PATH = /^\/api\/mcp\/?$/i;
const AUTHORIZATION_SERVER_METADATA = '/.well-known/oauth-authorization-server/oidc';

function buildApp(parts: ServerParts, allowedHosts: readonly string[], trustProxy: TrustedProxies, compositions: readonly Composition[]): Koa {
  const app = new Koa();
  app.proxy = false;
  // Never a stack trace or a 5xx body with internals; errors are logged here once.
  app.on('error', (error: Error) => console.error('[site-mcp] request failed:', error.message));
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      console.error('[site-mcp] unhandled:', error);
      ctx.status = 500;
      ctx.body = { error: { code: 'internal_error', message: 'Unexpected server error.' } };
    }
  });
  // Who is calling, once per request, for every per-address limit below (rule client-address-behind-proxy).
  app.use(clientAddressMiddleware(trustProxy));
  app.use(hostCheck(parts.baseUrl, allowedHosts));
  // The MCP endpoint first: every agent call comes here, and matching it in the routers below would add to every
  // read call's CPU. It matches what its router route matched: a trailing slash, any letter case.
  const mcp = mcpHandler({ ...parts, limiter: parts.callLimiter });
  app.use((ctx, next) => (MCP_PATH.test(ctx.path) ? mcp(ctx) : next()));
  const router = new Router();
  // RFC 9728 §3.1: the metadata of the resource <base>/api/mcp is at the well-known path with /api/mcp appended. The
  // root document would describe <base>, which is no resource here, and a client must discard a document naming
  // another resource than the one it fetched it for (§3.3): none is served (rule protected-resource-metadata-own-path).
  router.get('/.well-known/oauth-protected-resource/api/mcp', protectedResourceMetadata(parts));
  router.get('/sites/:websiteId', publicSiteHandler(parts.store));
  router.get('/sites/:websiteId/', publicSiteHandler(parts.store));
  router.get('/sites/:websiteId/:slug', publicSiteHandler(parts.store));
  router.get('/library/:websiteId/:file', libraryHandler(parts.tools.libraryDir));
  router.get('/assets/:file', importedAssetHandler(parts.assetFiles));
  router.get('/healthz', (ctx) => {
    ctx.body = { ok: true };
  });
  for (const composition of compositions) if (composition.router) app.use(composition.router(parts).routes());
  // The identity provider is its own Koa app under /oidc, made once the issuer URL is known.
  let idpApp: Koa.Middleware | undefined;
  app.use(async (ctx, next) => {
    // RFC 8414 §3.1: the authorization-server metadata of the issuer <base>/oidc is at the well-known path with the
    // issuer's path appended, the first address 2025-11-25 clients try (rule oauth-authorization-server-metadata-
    // path-inserted); the provider's own discovery document answers it (CORS and caching as at its own address).
    if (ctx.path === AUTHORIZATION_SERVER_METADATA && (ctx.method === 'GET' || ctx.method === 'OPTIONS')) ctx.path = '/oidc/.well-known/openid-configuration';
    if (ctx.path !== '/oidc' && !ctx.path.startsWith('/oidc/')) return next();
    if (!idpApp) {
      const { provider } = (await parts.oauth()).idp;
      // koa-mount runs the provider's middleware on this app's context, so cookies must be signed with its keys.
      app.keys = provider.keys;
      idpApp = mount('/oidc', provider as unknown as Koa);
    }
    return idpApp(ctx, next);
  });
  const interactions = oauthInteractionRouter(parts);
  app.use(interactions.routes());
  const pairing = pairingRouter(parts);
  app.use(pairing.routes());
  app.use(authMdRouter().routes());
  app.use(deliveryRouter(parts).routes());
  app.use(connectRouter(parts).routes());
  const appPages = appRouter(parts);
  app.use(appPages.routes());
  app.use(editorRouter(parts).routes());
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}

export async function startServer(config: Config, ...compositions: Composition[]): Promise<RunningServer> {
  const services = compositions.reduce((s, c) => c.services?.(s) ?? s, productionServices(config, limits));
  const opened = await Store.open(config.dataDir, mergeStoreHooks(compositions));
  await sweepUnnamedAssetFiles(config.dataDir);
  const store = compositions.reduce((s, c) => c.store?.(s) ?? s, opened);
  const assetFiles = new DiskAssetFiles(join(config.dataDir, 'assets'));
  const limiter = new SlidingWindowLimiter({ maxKeys: services.limits.memory.limiterKeys });
  // Every part that does not need the base URL, made before the server listens.
  const partsWithoutUrl = {
    ...services,
    store,
    // The composed limits (services.ts), so a composition's retention is the one kept (rule activity-retention-90-days).
    activity: new ActivityLog(config.dataDir, services.limits.activityRetentionDays),
    limiter,
    callLimiter: new SlidingWindowLimiter({ maxKeys: services.limits.memory.limiterKeys }),
    captureQueue: new CaptureQueue({ store, engine: services.capture, net: services.net, files: assetFiles, clock: services.clock, limits: services.limits, delayMs: config.captureQueueDelayMs ?? 10_000 }),
    assetFiles,
    // The composed limits too (rules pairings-in-memory-capped, pairings-capacity-per-address, pairings-capacity-per-owner).
    pairings: new Pairings(services.limits.pairStart),
    sessions: new Sessions({ perUser: services.limits.memory.appSessionsPerUser }),
    catalogue: loadCatalogue(),
    handlers: compositions.reduce((table, c) => c.handlers?.(table) ?? table, handlers),
    callSteps: compositions.reduce((steps, c) => c.callSteps?.(steps) ?? steps, CALL_STEPS),
  };
  // Bound before the parts built on the base URL (the port may be 0), so they take it as a plain value; the app
  // answers from the same turn as the listening event, before any connection is read.
  const http: HttpServer = createServer();
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(config.port, config.host, () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const baseUrl = config.baseUrl ?? `http://${host}:${port}`;
  const { limits: composedLimits, net, dns, images, capture, captureQueue } = partsWithoutUrl;
  const parts: ServerParts = {
    ...partsWithoutUrl,
    baseUrl,
    oauth: oauthOnFirstUse(baseUrl, config.dataDir, { limiter, limits: composedLimits, net, rows: (rows) => compositions.reduce((table, c) => c.oauthAdmission?.(table) ?? table, rows) }),
    tools: { store, limits: composedLimits, baseUrl, net, dns, images, capture, captureQueue, assetFiles, storageBudgets: new SharedStorageBudgets(), libraryDir: join(config.dataDir, 'library') },
  };
  http.on('request', buildApp(parts, config.allowedHosts, config.trustProxy ?? [], compositions).callback());
  // Pages a previous run left waiting for capture are taken up again (rule migrate-capture-allowance).
  parts.captureQueue.start();
  return {
    parts,
    url: baseUrl,
    close: async () => {
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
      await parts.captureQueue.stop();
      await parts.capture?.close();
      await parts.activity.close(); // queued entries on disk, then the open day files closed
    },
  };
}

/**
 * Copies of imported assets that no committed site names (an import that failed after its fetches): removed at
 * start, while nothing can be between its fetches and its commit (infra/store/asset-files.ts; reference/infra/store/README.md).
 * A sweep that fails leaves the files for the next start; it never stops the server.
 */
async function sweepUnnamedAssetFiles(dataDir: string): Promise<void> {
  const swept = await sweepAssetFiles(dataDir).catch((error: unknown) => {
    console.error(`[site-mcp] asset files not swept: ${error instanceof Error ? error.message : String(error)}`);
    return [];
  });
  if (swept.length > 0) console.log(`[site-mcp] ${swept.length} asset files no site names removed (data/assets)`);
}

/** The store hooks of every composition, each called in order. */
function mergeStoreHooks(compositions: readonly Composition[]): StoreHooks {
  const before = compositions.flatMap((c) => (c.storeHooks?.beforeCommit ? [c.storeHooks.beforeCommit] : []));
  const fileWrites = compositions.flatMap((c) => (c.storeHooks?.beforeFileWrite ? [c.storeHooks.beforeFileWrite] : []));
  return {
    ...(before.length ? { beforeCommit: (workspaceId: string, creates: readonly string[]) => before.forEach((hook) => hook(workspaceId, creates)) } : {}),
    ...(fileWrites.length ? { beforeFileWrite: (path: string) => fileWrites.forEach((hook) => hook(path)) } : {}),
  };
}
