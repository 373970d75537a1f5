// `npm run bench -- security-retrial [--flood N]`: the fourth security review's findings tried again from outside,
// as the review tried them: a reference server started as its own process (reference/main.ts, test mode only where a
// finding needs the fixtures protocol, and --trust-proxy 127.0.0.1 so that the requests of this process can name
// their clients in X-Forwarded-For, as a proxy in front of the server would), every request over HTTP on loopback.
// Prints, per finding, what was sent, what came back and whether it still reproduces. Finding 2 (robots.txt) has a
// benchmark of its own: `npm run bench -- hostile-robots`. --flood N: the new limiter keys sent to push out a locked
// account (default 110,000, past spec/limits.json memory.limiterKeys).
import { spawnSync } from 'node:child_process';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs } from './lib/args.js';
import { startReference } from './lib/reference-process.js';
import { FixturesClient } from '../conformance/lib/fixtures-client.js';
import { McpConnection } from '../conformance/lib/mcp-client.js';
import { getFromAddress, postFromAddress } from '../conformance/lib/local-address.js';
import { TEST_WEBSITE_CERTIFICATE, TEST_WEBSITE_KEY } from '../conformance/lib/test-website.js';
import { limits } from '../reference/catalogue.js';

const { values } = benchArgs(import.meta.url, { options: { flood: { type: 'string', default: '110000' } } });
const repo = fileURLToPath(new URL('../', import.meta.url));
const results: { finding: string; reproduces: boolean; detail: string }[] = [];
const report = (finding: string, reproduces: boolean, detail: string) => {
  results.push({ finding, reproduces, detail });
  console.log(`  ${finding}: ${reproduces ? 'REPRODUCES' : 'closed'} — ${detail}`);
};

// A client's https website on loopback, serving client ID metadata documents (findings 3 and 8).
const served = new Map<string, { type: string }>();
let docRequests = 0;
let docInFlight = 0;
let docMostAtOnce = 0;
const docs = createHttpsServer({ cert: TEST_WEBSITE_CERTIFICATE, key: TEST_WEBSITE_KEY }, async (req, res) => {
  docRequests++;
  docInFlight++;
  docMostAtOnce = Math.max(docMostAtOnce, docInFlight);
  if (req.url?.startsWith('/slow/')) await new Promise((r) => setTimeout(r, 500));
  docInFlight--;
  // Finding 7's assets: 5 MiB each, every one different bytes (a copy kept twice is one file).
  if (req.url?.startsWith('/big/')) {
    const body = Buffer.alloc(5 * 1024 * 1024, req.url);
    body.write(`\x89PNG${req.url}`);
    return void res.writeHead(200, { 'content-type': 'image/png' }).end(body);
  }
  const doc = served.get(req.url ?? '');
  if (!doc) return void res.writeHead(404).end();
  res.writeHead(200, doc.type ? { 'content-type': doc.type } : {}).end(JSON.stringify({ client_id: `${origin}${req.url}`, client_name: 'Retrial', redirect_uris: ['http://127.0.0.1:9/callback'], token_endpoint_auth_method: 'none' }));
});
await new Promise<void>((resolve) => docs.listen(0, '127.0.0.1', resolve));
const origin = `https://127.0.0.1:${(docs.address() as AddressInfo).port}`;

const dataParent = await mkdtemp(join(tmpdir(), 'site-mcp-retrial-data-'));
const server = await startReference({ checkout: repo, args: ['--trust-proxy', '127.0.0.1', '--no-capture'], quiet: true, dataParent });
/** The bytes of every file under the server's data directory's assets/. */
async function assetBytes(): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dataParent, { withFileTypes: true, recursive: true }).catch(() => [])) {
    if (entry.isFile() && entry.parentPath.includes('/assets')) total += await stat(join(entry.parentPath, entry.name)).then((s) => s.size, () => 0);
  }
  return total;
}
const fx = new FixturesClient(server.url, server.fixturesSecret);
const post = (path: string, body: string, headers: Record<string, string> = {}, from = '127.0.0.1') => postFromAddress(`${server.url}${path}`, from, { 'content-type': 'application/json', ...headers }, body);
const REDIRECT = 'http://127.0.0.1:9/callback';
const metadata = (padding = 0) => JSON.stringify({ client_name: `retrial ${'x'.repeat(padding)}`, redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], response_types: ['code'] });
const authorizeQuery = (clientId: string) => new URLSearchParams({ client_id: clientId, redirect_uri: REDIRECT, response_type: 'code', scope: 'openid site:read', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGjSstw-cM', code_challenge_method: 'S256' });

try {
  await (await fetch(`${server.url}/oidc/.well-known/openid-configuration`)).text();
  console.log(`security-retrial: ${server.url} (a process of its own), every request over HTTP on loopback`);

  // 1 (High): admission by path spelling. One address: 70 registrations of 55 KB at /oidc/REG, /oidc/reg/, then
  // 1,500 authorization requests at /oidc/AUTH.
  let stored = 0;
  for (let i = 0; i < 70; i++) stored += (await post(['/oidc/REG', '/oidc/reg/', '/oidc/Reg/'][i % 3]!, metadata(55_000), {}, '127.81.0.1')).status === 201 ? 1 : 0;
  const client = (await (await post('/oidc/reg', metadata(), {}, '127.81.0.2')).json()) as { client_id: string };
  let admitted = 0;
  for (let i = 0; i < 1_500; i++) admitted += [302, 303].includes((await getFromAddress(`${server.url}${['/oidc/AUTH', '/oidc/auth/', '/oidc/Auth'][i % 3]}?${authorizeQuery(client.client_id)}`, '127.81.0.3')).status) ? 1 : 0;
  report('1 admission by path spelling', stored > 0 || admitted > limits.oauthAuthorization.perAddress.limit, `70 registrations of 55 KB at spelled paths: ${stored} stored; 1,500 authorization requests at /oidc/AUTH and kin: ${admitted} admitted (allowance ${limits.oauthAuthorization.perAddress.limit})`);

  // 3: CIMD fetches. 200 token requests from one address, each naming another document; then 40 at once on one host.
  await fx.fetchAllowlist([origin], [TEST_WEBSITE_CERTIFICATE]);
  docRequests = 0;
  let tokenAnswered = 0;
  for (let i = 0; i < 200; i++) {
    const form = new URLSearchParams({ grant_type: 'authorization_code', code: 'x', redirect_uri: REDIRECT, code_verifier: 'x'.repeat(43), client_id: `${origin}/missing/${i}.json` });
    const status = (await postFromAddress(`${server.url}/oidc/token`, '127.81.1.1', { 'content-type': 'application/x-www-form-urlencoded' }, form.toString())).status;
    if (status !== 429) tokenAnswered++;
  }
  const fetchedForToken = docRequests;
  docMostAtOnce = 0;
  await Promise.all(Array.from({ length: 40 }, (_, i) => getFromAddress(`${server.url}/oidc/auth?${authorizeQuery(`${origin}/slow/${i}.json`)}`, `127.81.2.${i + 1}`)));
  const bound = limits.oauthClientDocuments;
  report('3 CIMD fetches', fetchedForToken > 2 * bound.perAddress.limit || docMostAtOnce > bound.perHostConcurrent, `200 token requests from one address: ${tokenAnswered} answered past admission, ${fetchedForToken} document fetches (the rest 429); 40 authorizations at once on one host: at most ${docMostAtOnce} fetches there at once (bound ${bound.perHostConcurrent})`);

  // 4: behind a proxy, one client's wrong sign-ins lock out no other.
  const world = await fx.world({ users: [{ key: 'owner' }], sites: [{ key: 'main', members: { owner: 'owner' } }] });
  const owner = world.users.owner as { email: string; password: string };
  const signIn = (password: string, forwardedFor: string, email = owner.email) =>
    postFromAddress(`${server.url}/app/sign-in`, '127.0.0.1', { 'content-type': 'application/x-www-form-urlencoded', origin: server.url, 'x-forwarded-for': forwardedFor }, new URLSearchParams({ email, password, next: '/app/' }).toString()).then((r) => r.status);
  for (let i = 0; i < limits.signIn.perAddress.limit; i++) await signIn('wrong', '203.0.113.5', `nobody-${i}@example.test`);
  const otherClient = await signIn(owner.password, '198.51.100.7');
  report('4 limits behind a proxy', otherClient === 429, `${limits.signIn.perAddress.limit} wrong sign-ins from one client behind the proxy, then the owner from another client: HTTP ${otherClient}`);

  // 5: the pairing pool from one IPv6 /51 (through the proxy: its clients' addresses).
  let pairAdmitted = 0;
  for (let i = 0; i < 300; i++) pairAdmitted += (await post('/v1/cli/pair/start', JSON.stringify({ scopes: ['site:read'] }), { 'x-forwarded-for': `2001:db8:40:${(0x2000 + i).toString(16)}::1` })).status === 200 ? 1 : 0;
  const newcomer = (await post('/v1/cli/pair/start', JSON.stringify({ scopes: ['site:read'] }), { 'x-forwarded-for': '2001:db8:99::1' })).status;
  report('5 pairing pool from one /51', pairAdmitted > limits.pairStart.perNetwork!.limit || newcomer !== 200, `300 starts from 300 /64s of one /51: ${pairAdmitted} admitted (per network ${limits.pairStart.perNetwork!.limit}); a newcomer from another network: HTTP ${newcomer}`);

  // 6: test mode's switch, from the outside: the server's own program.
  const dir = await mkdtemp(join(tmpdir(), 'site-mcp-retrial-'));
  const main = (args: string[], env: Record<string, string> = {}) => spawnSync(process.execPath, ['--import', 'tsx/esm', 'reference/main.ts', '--port', '0', '--data-dir', dir, '--no-seed', '--no-capture', ...args], { cwd: repo, encoding: 'utf8', timeout: 20_000, env: { ...process.env, NODE_OPTIONS: '', SITE_MCP_SERVER_FIXTURES_SECRET: '', ...env } });
  const oneChar = main(['--fixtures-secret', 'x']);
  const network = main(['--fixtures-secret', 'a-secret-of-twenty-chars', '--host', '0.0.0.0']);
  await rm(dir, { recursive: true, force: true });
  report('6 test mode switch', oneChar.status !== 2 || network.status !== 2, `a one-character secret: exit ${oneChar.status}; test mode on 0.0.0.0 without --test-mode-on-network: exit ${network.status} (the kit's variable alone: reference/test/test-mode-switch.test.ts)`);

  // 7: four parallel imports of one workspace, 50 assets of 5 MiB each, against the 256 MiB storage quota.
  const importer = await fx.world({ plan: 'agency', passwordsOnDemand: true, users: [{ key: 'o' }], sites: [{ key: 's', members: { o: 'owner' } }] });
  const { token } = await fx.connection({ userId: importer.users.o!.userId, websiteId: importer.sites.s!.websiteId, reach: 'workspace', scopes: ['site:read', 'content:write'] });
  const mcp = new McpConnection(server.url, token);
  let peak = 0;
  let watching = true;
  const watcher = (async () => {
    while (watching) {
      peak = Math.max(peak, await assetBytes());
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  const snapshot = (n: number) => ({ format: 'PortableSiteV1', site: { name: `Parallel ${n}` }, pages: [{ key: 'home', title: 'Home', sections: [] }], assets: Array.from({ length: 50 }, (_, i) => ({ key: `a${i}`, url: `${origin}/big/${n}-${i}.png` })) });
  const answers = await Promise.all([0, 1, 2, 3].map((n) => mcp.callTool('import_site', { snapshot: snapshot(n) })));
  watching = false;
  await watcher;
  peak = Math.max(peak, await assetBytes());
  await mcp.close();
  const quota = limits.assetStorage.perWorkspaceBytes;
  const mib = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MiB`;
  report('7 parallel imports and the storage quota', peak > quota * 1.05, `4 imports at once of 50 assets of 5 MiB: ${answers.filter((a) => a.envelope.ok).length} answered ok; assets on disk at the peak ${mib(peak)} (quota ${mib(quota)})`);

  // 8: documents not served as JSON.
  const typed: string[] = [];
  for (const type of ['text/html', 'text/plain', '']) {
    const path = `/typed/${type.replace('/', '-') || 'none'}.json`;
    served.set(path, { type });
    typed.push(`${type || 'no type'} → HTTP ${(await getFromAddress(`${server.url}/oidc/auth?${authorizeQuery(`${origin}${path}`)}`, '127.81.3.1')).status}`);
  }
  report('8 CIMD content type', typed.some((t) => /HTTP 30[23]/.test(t)), typed.join(', '));

  // 9: the root protected-resource document.
  const root = await fetch(`${server.url}/.well-known/oauth-protected-resource`);
  const rootResource = root.ok ? ((await root.json()) as { resource?: string }).resource : undefined;
  report('9 root protected-resource document', rootResource !== undefined && rootResource !== server.url, `GET /.well-known/oauth-protected-resource: HTTP ${root.status}${rootResource ? `, resource ${rootResource}` : ''}`);

  // 10: implicit grant.
  const as = (await (await fetch(`${server.url}/.well-known/oauth-authorization-server/oidc`)).json()) as { response_types_supported: string[]; grant_types_supported: string[] };
  const implicit = (await post('/oidc/reg', JSON.stringify({ client_name: 'implicit', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', grant_types: ['implicit'], response_types: ['id_token'] }), {}, '127.81.4.1')).status;
  report('10 implicit grant', as.response_types_supported.some((t) => t !== 'code') || as.grant_types_supported.includes('implicit') || implicit === 201, `response_types_supported ${JSON.stringify(as.response_types_supported)}, implicit in grant_types_supported: ${as.grant_types_supported.includes('implicit')}; an implicit client registers: HTTP ${implicit}`);

  // 11: a locked account forgotten by a flood of new limiter keys.
  for (let i = 0; i < limits.signIn.perAccount.limit; i++) await signIn('wrong', `192.0.2.${i + 1}`);
  const lockedBefore = await signIn('wrong', '192.0.2.50');
  const flood = Number(values.flood);
  // Each from a /24 of its own first (10.<i>.<i>.x): the per-network count refuses none, so every start records keys.
  for (let i = 0; i < flood; i++) await post('/v1/cli/pair/start', JSON.stringify({ scopes: ['site:read'] }), { 'x-forwarded-for': `10.${i & 255}.${(i >> 8) & 255}.${1 + ((i >> 16) & 255)}` });
  const guesses: number[] = [];
  for (let i = 0; i < 5; i++) guesses.push(await signIn('wrong', `192.0.2.${60 + i}`));
  report('11 limiter eviction', guesses.some((s) => s !== 429), `account locked (HTTP ${lockedBefore}); after ${flood.toLocaleString('en')} pair starts from new addresses, 5 more guesses: ${guesses.join(', ')}`);

  const open = results.filter((r) => r.reproduces).length;
  console.log(`security-retrial: ${open} of ${results.length} findings tried reproduce (goal: 0)`);
} finally {
  await server.stop();
  await rm(dataParent, { recursive: true, force: true });
  await new Promise<void>((resolve) => docs.close(() => resolve()));
}
