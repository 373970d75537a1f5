// `npm run bench -- oauth-state [--clients N] [--authorizations N] [--padding BYTES]`: the cost of the identity
// provider's stored state. Registers N clients (default 300) at /oidc/reg, each padded with
// BYTES of client_name (default 16,000, just under the metadata cap of spec/limits.json oauthRegistration), spread over
// loopback addresses so that no address passes the registration throttle, then sends N authorization requests
// (default 1,500) to /oidc/auth, each of which stores an interaction. A probe asks /healthz every 25 ms meanwhile:
// its slowest answer is how long one request held the event loop. Prints each phase's slowest and median request,
// the probe's slowest answer, this process's CPU time a request (server and client share it; unlike wall time it does
// not count waiting for a busy machine's cores or disk) and the bytes under <data>/oidc. Goal: every request under 100 ms (with one file per
// model, the 400 registrations of 50 KB went from 24 ms to 459 ms each and the probe waited 0.5 s).
// Last, one address floods both endpoints in other spellings the provider routes (/oidc/REG, /oidc/reg/, /oidc/AUTH,
// …; rule oauth-admission-every-path-spelling): 70 registrations of 55 KB and 1,500 authorization requests. Goal:
// no more stored than the address's allowance (spec/limits.json oauthRegistration, oauthAuthorization).
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../reference/app.js';
import { getFromAddress, postFromAddress } from '../conformance/lib/local-address.js';
import { benchArgs } from './lib/args.js';
import { limits } from '../reference/catalogue.js';

const { values } = benchArgs(import.meta.url, {
  options: { clients: { type: 'string', default: '300' }, authorizations: { type: 'string', default: '1500' }, padding: { type: 'string', default: '16000' } },
});
const clients = Number(values.clients);
const authorizations = Number(values.authorizations);
const padding = Number(values.padding);
const GOAL_MS = 100;

async function bytesUnder(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  return total;
}

/** Asks /healthz every 25 ms until stopped; answers the slowest answer's milliseconds. */
function probe(url: string): { stop(): Promise<number> } {
  let slowest = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const t0 = performance.now();
      await (await fetch(`${url}/healthz`)).text();
      slowest = Math.max(slowest, performance.now() - t0);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return slowest;
    },
  };
}

const summary = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return `first ${times[0]?.toFixed(1)} ms, last ${times.at(-1)?.toFixed(1)} ms, median ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms, slowest ${sorted.at(-1)?.toFixed(1)} ms`;
};
const cpuSummary = (cpu: number[]) => {
  const sorted = [...cpu].sort((a, b) => a - b);
  return `CPU a request median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(1)} ms, slowest ${sorted.at(-1)?.toFixed(1)} ms`;
};
const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};
const verdict = (times: number[]) => (Math.max(...times) < GOAL_MS ? 'goal met' : 'GOAL NOT MET');

const dir = await mkdtemp(join(tmpdir(), 'site-mcp-bench-oauth-'));
const server = await startServer({ host: '127.0.0.1', port: 0, dataDir: dir, allowedHosts: [], chromium: null });
try {
  const redirectUri = 'http://127.0.0.1:9/callback';
  const metadata = JSON.stringify({ client_name: `bench ${'x'.repeat(padding)}`, redirect_uris: [redirectUri], token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], response_types: ['code'] });
  // The provider is made on the first /oidc request (keys, adapter): not a registration's cost.
  await (await fetch(`${server.url}/oidc/.well-known/openid-configuration`)).text();
  console.log(`oauth-state: ${clients} registrations of ${metadata.length} bytes, then ${authorizations} authorization requests (goal: each under ${GOAL_MS} ms)`);
  const registrationTimes: number[] = [];
  const registrationCpu: number[] = [];
  const clientIds: string[] = [];
  let refused = 0;
  let watch = probe(server.url);
  for (let i = 0; i < clients; i++) {
    // Five registrations per address, each address new: the throttle is per address, the state is shared.
    const from = `127.77.${Math.floor(i / 5 / 250)}.${1 + (Math.floor(i / 5) % 250)}`;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const res = await postFromAddress(`${server.url}/oidc/reg`, from, { 'content-type': 'application/json' }, metadata);
    const answer = (await res.json()) as { client_id?: string };
    registrationTimes.push(performance.now() - t0);
    registrationCpu.push(cpuMs(cpu0));
    if (res.status === 201 && answer.client_id) clientIds.push(answer.client_id);
    else refused++;
  }
  let stalled = await watch.stop();
  console.log(`  registrations: ${clientIds.length} stored, ${refused} refused; ${summary(registrationTimes)}; /healthz waited up to ${stalled.toFixed(0)} ms; ${cpuSummary(registrationCpu)} (${verdict(registrationTimes)})`);
  if (clientIds.length === 0) throw new Error('no registration was accepted');

  const authorizationTimes: number[] = [];
  const authorizationCpu: number[] = [];
  let redirected = 0;
  watch = probe(server.url);
  for (let i = 0; i < authorizations; i++) {
    const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
    const auth = new URL(`${server.url}/oidc/auth`);
    const query = { client_id: clientIds[i % clientIds.length]!, redirect_uri: redirectUri, response_type: 'code', scope: 'openid site:read', code_challenge: challenge, code_challenge_method: 'S256', state: String(i) };
    for (const [k, v] of Object.entries(query)) auth.searchParams.set(k, v);
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    // Fifty requests per address, each address new: authorization requests are counted per address too
    // (spec/limits.json oauthAuthorization), the state is shared.
    const res = await getFromAddress(auth.href, `127.78.${Math.floor(i / 50 / 250)}.${1 + (Math.floor(i / 50) % 250)}`);
    await res.arrayBuffer();
    authorizationTimes.push(performance.now() - t0);
    authorizationCpu.push(cpuMs(cpu0));
    if (res.status === 303 || res.status === 302) redirected++;
  }
  stalled = await watch.stop();
  console.log(`  authorizations: ${redirected} of ${authorizations} sent on to an interaction; ${summary(authorizationTimes)}; /healthz waited up to ${stalled.toFixed(0)} ms; ${cpuSummary(authorizationCpu)} (${verdict(authorizationTimes)})`);
  console.log(`  stored: ${(await bytesUnder(join(dir, 'oidc'))).toLocaleString('en')} bytes under <data>/oidc; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);

  // One address, every spelling: each request is admitted as the route the provider answers it as.
  const from = '127.79.0.1';
  const filesUnder = async () => (await readdir(join(dir, 'oidc'), { withFileTypes: true, recursive: true })).filter((e) => e.isFile()).length;
  const large = JSON.stringify({ client_name: `spelled ${'x'.repeat(55_000)}`, redirect_uris: [redirectUri], token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], response_types: ['code'] });
  const registrationSpellings = ['/oidc/REG', '/oidc/reg/', '/oidc/Reg/'];
  let files = await filesUnder();
  let stored = 0;
  for (let i = 0; i < 70; i++) {
    const res = await postFromAddress(`${server.url}${registrationSpellings[i % 3]}`, from, { 'content-type': 'application/json' }, i % 2 ? large : metadata);
    await res.arrayBuffer();
    if (res.status === 201) stored++;
  }
  const registrationGoal = limits.oauthRegistration.perAddress.limit;
  console.log(`  one address, ${registrationSpellings.join(' ')}: 70 registrations (half of 55 KB), ${stored} stored, ${(await filesUnder()) - files} files written (goal: at most ${registrationGoal}: ${stored <= registrationGoal ? 'goal met' : 'GOAL NOT MET'})`);
  const authorizationSpellings = ['/oidc/AUTH', '/oidc/auth/', '/oidc/Auth'];
  files = await filesUnder();
  let admitted = 0;
  for (let i = 0; i < 1_500; i++) {
    const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
    const auth = new URL(`${server.url}${authorizationSpellings[i % 3]}`);
    const query = { client_id: clientIds[i % clientIds.length]!, redirect_uri: redirectUri, response_type: 'code', scope: 'openid site:read', code_challenge: challenge, code_challenge_method: 'S256' };
    for (const [k, v] of Object.entries(query)) auth.searchParams.set(k, v);
    const res = await getFromAddress(auth.href, '127.79.0.2');
    await res.arrayBuffer();
    if (res.status === 303 || res.status === 302) admitted++;
  }
  const written = (await filesUnder()) - files;
  const authorizationGoal = limits.oauthAuthorization.perAddress.limit;
  console.log(`  one address, ${authorizationSpellings.join(' ')}: 1,500 authorization requests, ${admitted} admitted, ${written} interaction files written (goal: at most ${authorizationGoal}: ${written <= authorizationGoal ? 'goal met' : 'GOAL NOT MET'})`);
} finally {
  await server.close();
  await rm(dir, { recursive: true, force: true });
}
