// The services one server process is composed with: a plain record, made once at start-up. productionServices()
// gives production's; a Composition (reference/app.ts) may replace or decorate any of them before the server
// starts: test mode (reference/testing/) decorates them with the fixtures protocol's seams, a test passes fakes.
// No spec parsing here: the limits spec/limits.json gives come from the composition (app.ts, from runtime.ts).
import type { Limits } from '../spec/index.js';
import { systemClock, type Clock } from './infra/clock.js';
import { DnsClient } from './infra/dns.js';
import { svgBrandProvider, type ImageProvider } from './infra/image-provider.js';
import type { Network } from './infra/safe-fetch.js';
import { existsSync } from 'node:fs';
import { chromiumCapture, type CaptureEngine } from './infra/capture.js';
import type { TrustedProxies } from './api/client-address.js';


export interface Services {
  /** Time per workspace (infra/clock.ts). */
  clock: Clock;
  /** Imports' asset fetches, migrations' checks and crawls (rules import-site-assets-revalidated, migrate-ssrf-hardened). */
  net: Network;
  /** generate_image's provider (§4.3). */
  images: ImageProvider;
  /** Domain verification's resolver (rules domain-*). */
  dns: DnsClient;
  /** spec/limits.json, with the overrides a Config may carry. */
  limits: Limits;
  /**
   * migrate_site_from_url's visual capture (infra/capture.ts), or null when this server has no browser: every
   * migration then takes the typed path and says so (rule migrate-capture-then-typed).
   */
  capture: CaptureEngine | null;
}

/** How one server process is started: its flags (main.ts) or a test's choices. */
export interface Config {
  dataDir: string;
  host: string;
  port: number;
  /** Public base URL; derived from the bound address when not set. */
  baseUrl?: string;
  /** Extra Host header values accepted besides the bound address (DNS-rebinding protection). */
  allowedHosts: string[];
  /** DNS server for domain verification (host or host:port); the system resolver when unset. */
  dnsServer?: string;
  /** Replaces the standard rate limits; only benchmarks set it, to measure the checked path without refusals. */
  rateLimitsOverride?: Limits['rateLimits'];
  /**
   * The Chromium executable of visual capture (migrate_site_from_url); null turns capture off, unset means
   * /usr/bin/chromium-headless-shell or else /usr/bin/chromium, whichever exists first (services.ts). Without a browser every migration is typed (rule migrate-capture-then-typed).
   */
  chromium?: string | null;
  /**
   * The reverse proxies whose X-Forwarded-For names the client (--trust-proxy; api/client-address.ts, rule
   * client-address-behind-proxy): none by default, so only the socket's peer counts.
   */
  trustProxy?: TrustedProxies;
  /** How long the capture queue waits after a migration before it captures the pages beyond the allowance (default 10 s: the migration's caller reads its result first). */
  captureQueueDelayMs?: number;
}

export function productionServices(config: Config, specLimits: Limits): Services {
  const dns = new DnsClient();
  dns.useServer(config.dnsServer);
  return {
    clock: systemClock,
    net: { allowOrigins: [] },
    images: svgBrandProvider,
    dns,
    limits: { ...specLimits, ...(config.rateLimitsOverride ? { rateLimits: config.rateLimitsOverride } : {}) },
    capture: captureEngine(config),
  };
}

/**
 * Debian's Chromium, its headless build first (package chromium-headless-shell, the same Chromium without the
 * desktop browser's UI layers): a captured page and a start cost it under half of what /usr/bin/chromium costs
 * (`npm run bench -- capture --chromium PATH` compares them).
 */
export const CHROMIUM_CANDIDATES = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'] as const;

/** The first Chromium of CHROMIUM_CANDIDATES installed here, or undefined. */
export function defaultChromium(): string | undefined {
  return CHROMIUM_CANDIDATES.find((path) => existsSync(path));
}

/** The config's Chromium, else the default; none (typed migrations only) when off or not installed. */
export function captureEngine(config: Pick<Config, 'chromium'>): CaptureEngine | null {
  if (config.chromium === null) return null;
  const executablePath = config.chromium ?? defaultChromium();
  return executablePath && existsSync(executablePath) ? chromiumCapture({ executablePath }) : null;
}
