// The reference server's HTTP surface: one Koa app, one router, each concern in its own module. This is the
// production composition; a Composition adds to it (reference/testing/ in test mode, started by main.ts only
// when a fixtures secret is given), so nothing here imports test machinery.
import Koa from 'koa';
import Router from '@koa/router';
import type { AddressInfo } from 'node:net';
import { createServer, type Server as HttpServer } from 'node:http';
import { limits } from './catalogue.js';
import { Runtime } from './runtime.js';
import { mcpHandler } from './mcp/mount.js';
import { hostCheck } from './http/host-check.js';
import { publicSiteHandler } from './http/public-site.js';
import { protectedResourceMetadata } from './http/well-known.js';
import { appRouter, editorRouter } from './http/app/routes.js';
import { importedAssetHandler, libraryHandler } from './http/library.js';
import { pairingRouter } from './http/pairing.js';
import mount from 'koa-mount';
import { oauthInteractionRouter } from './oauth/interactions.js';
import type { Store, StoreHooks } from './store/store.js';
import { CALL_STEPS, type CallStep } from './mcp/pipeline.js';
import { productionServices, type Config, type Services } from './services.js';
import { handlers } from './tools/index.js';
import type { HandlerTable } from './tools/types.js';

export interface RunningServer {
  rt: Runtime;
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
  /** Decorates the store (store/store.ts) before anything uses it. */
  store?(store: Store): Store;
  /** Seams of the store's commits (test mode: the fixtures protocol's fail-next-write). */
  storeHooks?: StoreHooks;
  /** A router served first after the host check (test mode: the fixtures protocol). */
  router?(ports: RouterPorts): Router;
}

/** What a composition's router may use of the server: test mode's fixtures protocol, a broken server's routes. */
export type RouterPorts = Pick<Runtime, 'store' | 'clock' | 'activity' | 'limits' | 'dns' | 'pairings' | 'sessions' | 'baseUrl'>;

const MCP_PATH = /^\/api\/mcp\/?$/i;
const AUTHORIZATION_SERVER_METADATA = '/.well-known/oauth-authorization-server/oidc';

export function buildApp(rt: Runtime, compositions: readonly Composition[] = []): Koa {
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
  app.use(hostCheck(rt.baseUrl, rt.config.allowedHosts));
  // The MCP endpoint first: every agent call comes here, and matching it in the routers below would add to every
  // read call's CPU. It matches what its router route matched: a trailing slash, any letter case.
  const mcp = mcpHandler(rt);
  app.use((ctx, next) => (MCP_PATH.test(ctx.path) ? mcp(ctx) : next()));
  const router = new Router();
  router.get('/.well-known/oauth-protected-resource', protectedResourceMetadata(rt));
  router.get('/.well-known/oauth-protected-resource/api/mcp', protectedResourceMetadata(rt));
  router.get('/sites/:websiteId', publicSiteHandler(rt.store));
  router.get('/sites/:websiteId/', publicSiteHandler(rt.store));
  router.get('/sites/:websiteId/:slug', publicSiteHandler(rt.store));
  router.get('/library/:websiteId/:file', libraryHandler(rt.tools.libraryDir));
  router.get('/assets/:file', importedAssetHandler(rt.assetFiles));
  router.get('/healthz', (ctx) => {
    ctx.body = { ok: true };
  });
  for (const composition of compositions) if (composition.router) app.use(composition.router(rt).routes());
  // The identity provider is its own Koa app under /oidc, made once the issuer URL is known.
  let idpApp: Koa.Middleware | undefined;
  app.use(async (ctx, next) => {
    // RFC 8414 §3.1: the authorization-server metadata of the issuer <base>/oidc is at the well-known path with the
    // issuer's path appended, the first address 2025-11-25 clients try (rule oauth-authorization-server-metadata-
    // path-inserted); the provider's own discovery document answers it (CORS and caching as at its own address).
    if (ctx.path === AUTHORIZATION_SERVER_METADATA && (ctx.method === 'GET' || ctx.method === 'OPTIONS')) ctx.path = '/oidc/.well-known/openid-configuration';
    if (ctx.path !== '/oidc' && !ctx.path.startsWith('/oidc/')) return next();
    if (!idpApp) {
      const { provider } = (await rt.oauth()).idp;
      // koa-mount runs the provider's middleware on this app's context, so cookies must be signed with its keys.
      app.keys = provider.keys;
      idpApp = mount('/oidc', provider as unknown as Koa);
    }
    return idpApp(ctx, next);
  });
  const interactions = oauthInteractionRouter(rt);
  app.use(interactions.routes());
  const pairing = pairingRouter(rt);
  app.use(pairing.routes());
  const appPages = appRouter(rt);
  app.use(appPages.routes());
  app.use(editorRouter(rt).routes());
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}

export async function startServer(config: Config, ...compositions: Composition[]): Promise<RunningServer> {
  const services = compositions.reduce((s, c) => c.services?.(s) ?? s, productionServices(config, limits));
  const composedHandlers = compositions.reduce((table, c) => c.handlers?.(table) ?? table, handlers);
  const callSteps = compositions.reduce((steps, c) => c.callSteps?.(steps) ?? steps, CALL_STEPS);
  const store = (opened: Store) => compositions.reduce((s, c) => c.store?.(s) ?? s, opened);
  const rt = await Runtime.create(config, { services, handlers: composedHandlers, callSteps, storeHooks: mergeStoreHooks(compositions), store });
  // Bound first, so the base URL (the port may be 0) is known before anything is built on it; the app answers from
  // the same turn as the listening event, before any connection is read.
  const http: HttpServer = createServer();
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(config.port, config.host, () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  rt.baseUrl = config.baseUrl ?? `http://${host}:${port}`;
  http.on('request', buildApp(rt, compositions).callback());
  // Pages a previous run left waiting for capture are taken up again (rule migrate-capture-allowance).
  rt.captureQueue.start();
  return {
    rt,
    url: rt.baseUrl,
    close: async () => {
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
      await rt.captureQueue.stop();
      await rt.capture?.close();
      await rt.activity.close(); // queued entries on disk, then the open day files closed
    },
  };
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
