// `npm start`: the reference server on its embedded file store. On first run it seeds a demo workspace and
// prints a full-scope demo token once, with a ready-to-paste MCP Inspector command.
//
//   --host H            listen address (env SITE_MCP_HOST, default 127.0.0.1)
//   --port N            port, 0 for any free one (env SITE_MCP_PORT, default 8787)
//   --data-dir D        store directory (env SITE_MCP_DATA_DIR, default ./data)
//   --fixtures-secret S test mode: the conformance kit's fixtures protocol, with this secret of at least 16
//                       characters (env SITE_MCP_SERVER_FIXTURES_SECRET; the kit's SITE_MCP_FIXTURES_SECRET never
//                       turns it on). It can create users and tokens: refused on a host other than loopback unless
//                       --test-mode-on-network says so too
//   --allowed-host H    extra Host header value to accept, repeatable (env SITE_MCP_ALLOWED_HOSTS, comma-separated)
//   --base-url U        public base URL when behind a proxy (env SITE_MCP_BASE_URL)
//   --trust-proxy A     a reverse proxy's address or CIDR range, repeatable (env SITE_MCP_TRUST_PROXY, comma-separated):
//                       a request from it is counted, by every per-address limit, for the client its
//                       X-Forwarded-For names (the right-most hop that is not a trusted proxy); default: none
//   --dns-server S      resolver for domain verification, host[:port] (env SITE_MCP_DNS_SERVER; system default)
//   --rate-limits C,W   calls per minute per connection and per workspace (default 120,600; load tests only)
//   --decision-limits F JSON file with other values for the limits that are our decisions (throttles, import
//                       cap, site limits, image cost, …; test mode only: correct variants for the suite)
//   --chromium PATH     Chromium for migrate_site_from_url's visual capture (env SITE_MCP_CHROMIUM; default
//                       /usr/bin/chromium-headless-shell, else /usr/bin/chromium; without one every migration
//                       is typed, fidelity "typed")
//   --no-capture        no visual capture: migrations take the typed path only (env SITE_MCP_CAPTURE=off)
//   --test-mode-on-network  allow test mode on a non-loopback --host (a test environment no one else reaches)
//   --no-seed           do not create the demo workspace
//   --help              this text
//
// Exit codes: 0 stopped by Ctrl-C or SIGTERM; 2 a wrong option or value (one sentence says which); 1 the server
// could not start (e.g. the port is taken).

// The options are checked before the server's modules load (they are imported below, once the options pass), so
// a wrong option is refused without paying to load the server (the kit's tests spawn many such commands).
import './require-node.js';
import { readFile, writeFile } from 'node:fs/promises';
import type { DecisionLimits } from './catalogue.js';
import { join, resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseTrustedProxies } from './api/client-address.js';

const { values } = readArguments({
  options: {
    host: { type: 'string' },
    port: { type: 'string' },
    'data-dir': { type: 'string' },
    'fixtures-secret': { type: 'string' },
    'allowed-host': { type: 'string', multiple: true },
    'base-url': { type: 'string' },
    'trust-proxy': { type: 'string', multiple: true },
    'dns-server': { type: 'string' },
    'no-seed': { type: 'boolean' },
    chromium: { type: 'string' },
    'no-capture': { type: 'boolean' },
    'rate-limits': { type: 'string' },
    'decision-limits': { type: 'string' },
    'test-mode-on-network': { type: 'boolean' },
  },
});

const env = process.env;
// Test mode is the server's own switch (rule test-mode-explicit): its flag or its own variable, never the kit's
// SITE_MCP_FIXTURES_SECRET, which a shell that runs the kit has set anyway.
const fixturesSecret = values['fixtures-secret'] ?? (env.SITE_MCP_SERVER_FIXTURES_SECRET || undefined);
const config = {
  host: values.host ?? env.SITE_MCP_HOST ?? '127.0.0.1',
  port: portNumber(values.port ?? env.SITE_MCP_PORT ?? '8787'),
  dataDir: resolve(values['data-dir'] ?? env.SITE_MCP_DATA_DIR ?? './data'),
  allowedHosts: [...(values['allowed-host'] ?? []), ...(env.SITE_MCP_ALLOWED_HOSTS?.split(',').filter(Boolean) ?? [])],
  baseUrl: values['base-url'] ?? env.SITE_MCP_BASE_URL ?? undefined,
  dnsServer: values['dns-server'] ?? env.SITE_MCP_DNS_SERVER ?? undefined,
  rateLimitsOverride: values['rate-limits'] ? parseRateLimits(values['rate-limits']) : undefined,
  trustProxy: trustedProxies([...(values['trust-proxy'] ?? []), ...(env.SITE_MCP_TRUST_PROXY?.split(',') ?? [])].map((v) => v.trim()).filter(Boolean)),
  // Visual capture (rule migrate-capture-then-typed): off, a named browser, or the default when it is installed.
  chromium: values['no-capture'] || env.SITE_MCP_CAPTURE === 'off' ? null : (values.chromium ?? env.SITE_MCP_CHROMIUM ?? undefined),
};
const MIN_FIXTURES_SECRET = 16;
if (fixturesSecret !== undefined && fixturesSecret.length < MIN_FIXTURES_SECRET) fail(`--fixtures-secret needs at least ${MIN_FIXTURES_SECRET} characters (it guards a protocol that creates users and tokens), got ${fixturesSecret.length}; e.g. --fixtures-secret "$(openssl rand -hex 16)".`);
const loopbackHost = /^(127\.\d+\.\d+\.\d+|localhost|::1|\[::1\])$/i.test(config.host);
if (fixturesSecret !== undefined && !loopbackHost && !values['test-mode-on-network']) fail(`test mode on --host ${config.host}: anyone who reaches it and learns the secret can create users and tokens; listen on 127.0.0.1, or add --test-mode-on-network for a test environment no one else reaches.`);
if (values['test-mode-on-network'] && fixturesSecret === undefined) fail('--test-mode-on-network goes with --fixtures-secret (test mode); without test mode there is nothing to allow.');
if (config.baseUrl !== undefined && !URL.canParse(config.baseUrl)) fail(`--base-url takes an absolute URL, e.g. https://sites.example.com, got ${JSON.stringify(config.baseUrl)}.`);
if (values.chromium && !existsSync(values.chromium)) fail(`--chromium: no file at ${values.chromium}; name the Chromium executable or pass --no-capture.`);
const decisionLimits = values['decision-limits'] ? await readDecisionLimits(values['decision-limits']) : undefined;

/** Reads --decision-limits: only the limits the source leaves open may change (§8 fixes 120/600, 5 minutes, …). */
async function readDecisionLimits(file: string): Promise<DecisionLimits> {
  if (!fixturesSecret) fail('--decision-limits needs --fixtures-secret (test mode only)');
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    fail(`--decision-limits: cannot read ${file} as JSON (${(error as Error).message})`);
  }
  const { DECISION_LIMIT_KEYS } = await import('./catalogue.js');
  const fixed = Object.keys(parsed).filter((k) => !(DECISION_LIMIT_KEYS as readonly string[]).includes(k));
  if (fixed.length) fail(`--decision-limits may change only ${DECISION_LIMIT_KEYS.join(', ')}; ${fixed.join(', ')} ${fixed.length === 1 ? 'is' : 'are'} fixed by the source`);
  return parsed as DecisionLimits;
}

/** A wrong option is the user's mistake: one sentence and exit 2, never a stack trace; --help prints the usage. */
function readArguments<T extends ParseArgsConfig>(config: T) {
  if (process.argv.includes('--help')) {
    const lines = readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n');
    const header = lines.slice(0, lines.findIndex((l) => !l.startsWith('//')));
    console.log(header.map((l) => l.replace(/^\/\/ ?/, '')).join('\n'));
    process.exit(0);
  }
  try {
    return parseArgs(config);
  } catch (error) {
    fail(`npm start: ${(error as Error).message.split('. ')[0]}; run with --help for the options.`);
  }
}

function portNumber(text: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port takes a port number from 0 to 65535, got ${JSON.stringify(text)}.`);
  return port;
}

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

function trustedProxies(values: string[]) {
  try {
    return parseTrustedProxies(values);
  } catch (error) {
    fail(`${(error as Error).message}.`);
  }
}

function parseRateLimits(text: string) {
  const [perConnection, perWorkspace] = text.split(',').map(Number);
  if (!Number.isInteger(perConnection) || !Number.isInteger(perWorkspace)) fail('--rate-limits takes two integers, e.g. 120,600.');
  return { perConnection: { limit: perConnection!, windowSeconds: 60 }, perWorkspace: { limit: perWorkspace!, windowSeconds: 60 } };
}

const { startServer } = await import('./app.js');
// Test mode: the fixtures protocol and its seams (reference/testing/), loaded only when a fixtures secret is given.
const compositions = fixturesSecret ? [(await import('./testing/index.js')).testMode(fixturesSecret, { decisionLimits })] : [];
const server = await startServer(config, ...compositions).catch((error: NodeJS.ErrnoException) => {
  // A taken port or an address this machine does not have is the user's to fix: one sentence, exit 1.
  if (error.code === 'EADDRINUSE' || error.code === 'EADDRNOTAVAIL' || error.code === 'EACCES') {
    console.error(`npm start: cannot listen on ${config.host}:${config.port} (${error.code}); pick another --port or --host.`);
    process.exit(1);
  }
  throw error;
});
console.log(`site-mcp reference server listening on ${server.url}`);
console.log(`  MCP endpoint: ${server.url}/api/mcp   data: ${config.dataDir}`);
if (fixturesSecret) console.log(`  TEST MODE is on: the fixtures protocol at ${server.url}/test-fixtures/v1 creates users, tokens and time; never serve real data from this server.`);
else if (env.SITE_MCP_FIXTURES_SECRET) console.log('  Test mode is off: SITE_MCP_FIXTURES_SECRET is the kit\'s; the server\'s test mode is --fixtures-secret (or SITE_MCP_SERVER_FIXTURES_SECRET).');
console.log(`  Visual capture for migrations: ${server.parts.capture ? 'on' : 'off (turned off, or no Chromium found; migrations are typed)'}`);

if (!values['no-seed']) {
  const marker = join(config.dataDir, 'demo-seed.json');
  const existing = await readFile(marker, 'utf8').then(JSON.parse).catch(() => undefined);
  if (existing) {
    console.log(`  Demo workspace ${existing.workspaceId} exists (owner ${existing.ownerEmail}); its token was shown on first run.`);
  } else {
    const { seedDemo } = await import('./seed.js');
    const demo = await seedDemo(server.parts);
    await writeFile(marker, JSON.stringify({ workspaceId: demo.workspaceId, ownerEmail: demo.ownerEmail }, null, 2));
    console.log(`\n  Demo workspace seeded. Owner sign-in at ${server.url}/app/sign-in: ${demo.ownerEmail} / ${demo.ownerPassword}`);
    console.log(`  Developers settings: ${server.url}/app/sites/${demo.websiteId}/developers`);
    console.log(`  Full-scope demo token (shown once, only its hash is stored):\n    ${demo.token}`);
    console.log(`\n  Try it with the MCP Inspector:`);
    console.log(`    npx @modelcontextprotocol/inspector --cli ${server.url}/api/mcp --transport http --header "Authorization: Bearer ${demo.token}" --method tools/call --tool-name list_sites\n`);
  }
}

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log(`site-mcp reference server stopping (${signal})`);
    server.close().then(() => process.exit(0));
  });
}
