// The set-up every conformance run does around its target between reading its options and running Cucumber: the
// fixtures handshake, the DNS stub, the kit's loopback website and the environment the steps read. One home for it:
// conformance/cli.ts runs it once per run, conformance/prove-worker.ts once per rule in a long-lived process.
import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CANARY_HOSTNAME, canaryUrl, startCanary } from './canary.js';
import { startDnsStub, writeZoneRecords } from './dns-stub.js';
import { startTestWebsite, TEST_WEBSITE_CERTIFICATE } from './test-website.js';
import { FixturesClient } from './fixtures-client.js';
import { callTimeoutMs } from './bounded-fetch.js';
import { sharedAjv, SPEC_BASE } from '../../spec/index.js';

/** The target's address and the secret of its fixtures protocol. */
export interface TargetAddress { url: string; fixturesSecret: string }

export const FIXTURES_PROTOCOL_VERSION = 1;

/** A prerequisite the target does not meet: the run stops with exit 2 and this one sentence. */
export class PrerequisiteError extends Error {}

/** The fixtures handshake (GET /test-fixtures/v1): the protocol must be there, the secret right, the version ours. */
export async function handshake(target: TargetAddress): Promise<string[]> {
  let answer: { protocol?: string; version?: number; supports?: string[]; pairingNames?: unknown };
  try {
    answer = await new FixturesClient(target.url, target.fixturesSecret).handshake();
  } catch (error) {
    const { status, noAnswer } = error as { status?: number; noAnswer?: string };
    if (noAnswer === 'timeout') throw new PrerequisiteError(`${target.url} accepted the connection but did not answer GET /test-fixtures/v1 within ${callTimeoutMs() / 1000} s: check that the server is running and not stuck, or give it longer with --call-timeout.`);
    if (status === 0 && noAnswer === 'unreachable') throw new PrerequisiteError(`cannot reach ${target.url}: check --url and that the server is running.`);
    if (status === 404) throw new PrerequisiteError(`${target.url} does not answer GET /test-fixtures/v1 with this secret: start the server in test mode with the fixtures protocol on and pass the same secret with --fixtures-secret.`);
    throw new PrerequisiteError(`the fixtures handshake at ${target.url}/test-fixtures/v1 failed: ${(error as Error).message.split('\n')[0]}`);
  }
  if (answer.protocol !== 'site-mcp-fixtures' || answer.version !== FIXTURES_PROTOCOL_VERSION) {
    throw new PrerequisiteError(`${target.url} speaks fixtures protocol ${JSON.stringify(answer.protocol)} version ${JSON.stringify(answer.version)}; this kit speaks site-mcp-fixtures version ${FIXTURES_PROTOCOL_VERSION} (conformance/docs/fixtures-protocol.md).`);
  }
  // The target's pairing names, when its handshake gives them (Handshake.pairingNames), for every scenario worker.
  delete process.env.SITE_MCP_FIXTURES_PAIRING_NAMES;
  if (answer.pairingNames !== undefined) {
    const validate = sharedAjv().getSchema(`${SPEC_BASE}schemas/declaration.schema.json#/properties/pairing`)!;
    if (!validate(answer.pairingNames)) throw new PrerequisiteError(`the fixtures handshake at ${target.url}/test-fixtures/v1 answered pairingNames that do not match a declaration's pairing block (spec/schemas/declaration.schema.json): ${sharedAjv().errorsText(validate.errors)}`);
    process.env.SITE_MCP_FIXTURES_PAIRING_NAMES = JSON.stringify(answer.pairingNames);
  }
  return answer.supports ?? [];
}

/**
 * What a run needs around its target, set up once per run: the handshake, a DNS stub the target resolves through, the
 * kit's loopback website on the target's fetch allowlist, the SSRF canaries, and the environment the steps read
 * (SITE_MCP_DNS_ZONE_DIR, SITE_MCP_CANARY, SITE_MCP_FIXTURES_SUPPORTS, SITE_MCP_TEST_WEBSITE_URL, SITE_MCP_TEST_WEBSITE_HTTPS_URL). stop() takes all of it
 * down; a process that runs several runs (conformance/prove-worker.ts) calls it after each, so nothing is left over.
 */
export async function prerequisites(target: TargetAddress): Promise<{ stop(): Promise<void> }> {
  const supports = await handshake(target);
  // One DNS stub for the run; domain scenarios add records to its zone directory, the target resolves through
  // it when its fixtures serve the optional part dns-resolver.
  const zoneDir = await mkdtemp(join(tmpdir(), 'site-mcp-zone-'));
  // Removed at exit even when the run dies before stop(); stop() removes the listener, so a long-lived process
  // running many runs does not pile them up.
  const removeAtExit = () => rmSync(zoneDir, { recursive: true, force: true });
  process.once('exit', removeAtExit);
  const dns = await startDnsStub(zoneDir);
  process.env.SITE_MCP_DNS_ZONE_DIR = zoneDir;
  // The SSRF canaries (rule kit-no-packet-off-machine): loopback listeners no target may ever reach.
  const canary = await startCanary();
  process.env.SITE_MCP_CANARY = JSON.stringify(canary.address);
  // The kit's loopback website for migrations, allowed to the target when its fixtures support that; the
  // scenarios that need it are reported as not checked otherwise. Its /to-canary link redirects to a canary.
  const website = await startTestWebsite({ redirectToCanary: canaryUrl(canary.address, 'loopback', 'kit-website', 'moved') });
  const stop = async () => {
    await dns.stop();
    await website.stop();
    await canary.stop();
    await rm(zoneDir, { recursive: true, force: true });
    process.off('exit', removeAtExit);
  };
  // The optional parts of the fixtures protocol the target serves, for steps that need one (they report "not
  // checked" instead of failing a target that lacks it).
  process.env.SITE_MCP_FIXTURES_SUPPORTS = supports.join(',');
  try {
    const fixtures = new FixturesClient(target.url, target.fixturesSecret);
    // An optional part the handshake does not list is never called: the DNS scenarios are then not checked.
    if (supports.includes('dns-resolver')) await fixtures.dnsResolver(dns.server);
    // The name the dns-name canary vector spells (rule migrate-ssrf-names-resolved): the stub answers it with the
    // canary's address, for a target that resolves its fetches through the stub (part fetch-resolver).
    writeZoneRecords(zoneDir, [{ name: CANARY_HOSTNAME, type: 'A', value: canary.address.host }]);
    // Its https origin too, with its test certificate, for a target that takes one (optional part
    // fetch-allowlist-tls): the asset scenarios name their assets there (rule portable-site-assets-carried).
    const tls = supports.includes('fetch-allowlist') && supports.includes('fetch-allowlist-tls');
    // With it, the target's own origin when that is on loopback: an export names assets at the target's address
    // and importing that export fetches them there (rule portable-site-round-trip); a public target needs nothing.
    const own = new URL(target.url).origin;
    const ownOnLoopback = /^https?:\/\/(127\.0\.0\.1|localhost|\[::1\]):[0-9]{1,5}$/.test(own);
    if (supports.includes('fetch-allowlist')) {
      await (tls ? fixtures.fetchAllowlist([website.url, website.httpsUrl, ...(ownOnLoopback ? [own] : [])], [TEST_WEBSITE_CERTIFICATE]) : fixtures.fetchAllowlist([website.url]));
      process.env.SITE_MCP_TEST_WEBSITE_URL = website.url;
    } else delete process.env.SITE_MCP_TEST_WEBSITE_URL;
    if (tls) process.env.SITE_MCP_TEST_WEBSITE_HTTPS_URL = website.httpsUrl;
    else delete process.env.SITE_MCP_TEST_WEBSITE_HTTPS_URL;
  } catch (error) {
    await stop();
    throw error;
  }
  return { stop };
}

