// Starts a deliberately broken server in this process: the reference in test mode (fixtures protocol on),
// composed as index.ts says for each rule named, behind the variant proxy when an entry breaks what only a client
// sees. serve.ts runs one from the command line; prove-checks.ts starts one per rule in its own process, so the
// reference's modules load once for all the rules instead of once per rule, a large part of `npm test`.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { startServer } from '../../reference/app.js';
import { testMode } from '../../reference/testing/index.js';
import type { CaptureEngine } from '../../reference/infra/capture.js';
import type { Composition } from '../../reference/app.js';
import { scratchDir } from '../lib/scratch-dir.js';
import { startVariantProxy } from '../variants/variant-proxy.js';
import { BROKEN, compositionOf } from './index.js';

export interface BrokenTarget {
  url: string;
  fixturesSecret: string;
  dataDir: string;
  /** Stops the server (and its proxy); removes the data dir when this module made it. Safe to call twice. */
  stop(): Promise<void>;
}

export interface BrokenOptions {
  host?: string;
  port?: number;
  /** The store directory; a fresh temporary one (removed by stop) when not given. */
  dataDir?: string;
  /** The fixtures protocol's secret; a random one when not given. */
  fixturesSecret?: string;
  /**
   * A visual-capture engine the caller owns and shares between servers (prove-checks: one Chromium for all the
   * rules instead of one launched by every server whose scenarios migrate); stopping the server leaves it
   * running. The server's own engine when not given.
   */
  capture?: CaptureEngine;
}

/** The caller's capture engine, which a server stopping must not close. */
function borrowedCapture(engine: CaptureEngine): Composition {
  const borrowed: CaptureEngine = { capture: (url, net, request) => engine.capture(url, net, request), available: () => engine.available(), close: async () => undefined };
  return { services: (services) => ({ ...services, capture: services.capture ? borrowed : null }) };
}

/** The reference broken for every rule of `rules` (each a key of BROKEN; the caller checks them). */
export async function startBroken(rules: readonly string[], options: BrokenOptions = {}): Promise<BrokenTarget> {
  const servers = rules.map((rule) => {
    if (!Object.hasOwn(BROKEN, rule)) throw new Error(`${rule} cannot be broken here`);
    return BROKEN[rule]!;
  });
  const fixturesSecret = options.fixturesSecret ?? randomBytes(16).toString('hex');
  const ownDataDir = !options.dataDir;
  const dataDir = resolve(options.dataDir ?? (await mkdtemp(join(scratchDir(), 'site-mcp-broken-'))));
  // The borrowed engine, then the broken compositions (one may take the browser away), so test mode's seams
  // decorate what they changed.
  const shared = options.capture ? [borrowedCapture(options.capture)] : [];
  const reference = await startServer({ host: options.host ?? '127.0.0.1', port: options.port ?? 0, dataDir, allowedHosts: [] }, ...shared, ...servers.map(compositionOf), testMode(fixturesSecret));
  const proxied = servers.flatMap((server) => (server.proxy ? [server.proxy] : []));
  const proxy = proxied.length ? await startVariantProxy(reference.url, Object.assign({}, ...proxied)) : undefined;
  let stopped: Promise<void> | undefined;
  return {
    url: proxy?.url ?? reference.url,
    fixturesSecret,
    dataDir,
    stop: () =>
      (stopped ??= (async () => {
        await Promise.all([proxy?.stop(), reference.close()]);
        if (ownDataDir) await rm(dataDir, { recursive: true, force: true });
      })()),
  };
}
