// Mutation testing only (mutation/vitest.config.ts, project "features"): the Gherkin features, one vitest test per
// scenario, run in this process by Cucumber against a reference that also runs in this process, so the code
// Stryker mutates is the code that answers and per-test coverage points each mutant at the scenarios that reach
// it. The steps stay black-box (they talk HTTP to the server, as in `npm run test:features`); the same
// prerequisites as conformance/cli.ts: the reference's declaration, a DNS stub and the kit's loopback website.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';
import { loadConfiguration, loadSources, loadSupport, runCucumber, type IRunEnvironment } from '@cucumber/cucumber/api';
import { startServer, type RunningServer } from '../reference/app.js';
import { testMode } from '../reference/testing/index.js';
import { startDnsStub } from '../conformance/lib/dns-stub.js';
import { startTestWebsite } from '../conformance/lib/test-website.js';
import { FixturesClient } from '../conformance/lib/fixtures-client.js';

const repo = fileURLToPath(new URL('..', import.meta.url));
// Cucumber imports the TypeScript steps natively (outside vitest's module runner): through tsx.
register();

const quiet = new Writable({ write: (_chunk, _encoding, done) => done() });
const environment: IRunEnvironment = { cwd: repo, stdout: quiet, stderr: quiet, env: process.env };
process.env.SITE_MCP_DECLARATION = join(repo, 'conformance/declarations/reference.yaml');
process.env.SITE_MCP_SEED ??= '1';

const { runConfiguration } = await loadConfiguration({ file: 'cucumber.mjs', provided: { parallel: 0, format: [] } }, environment);
runConfiguration.formats = { stdout: 'summary', files: {}, publish: false, options: {} };
// SITE_MCP_MUTATION_FEATURES=features/a.feature,… keeps only those features' scenarios (mutation/README.md, "On a busy
// machine"): a module only a few features reach need not pay for all of them in Stryker's dry run.
const onlyFeatures = process.env.SITE_MCP_MUTATION_FEATURES?.split(',').map((f) => f.trim()).filter(Boolean);
if (onlyFeatures?.length) runConfiguration.sources.paths = onlyFeatures;
const { plan } = await loadSources(runConfiguration.sources);

let server: RunningServer;
let support: Awaited<ReturnType<typeof loadSupport>>;
let stopAll: () => Promise<void>;

beforeAll(async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'site-mcp-mutation-features-'));
  const zoneDir = await mkdtemp(join(tmpdir(), 'site-mcp-mutation-zone-'));
  const fixturesSecret = randomBytes(16).toString('hex');
  server = await startServer({ host: '127.0.0.1', port: 0, dataDir, allowedHosts: [] }, testMode(fixturesSecret));
  const dns = await startDnsStub(zoneDir);
  const website = await startTestWebsite();
  const fixtures = new FixturesClient(server.url, fixturesSecret);
  await fixtures.dnsResolver(dns.server);
  await fixtures.fetchAllowlist([website.url]);
  Object.assign(process.env, { SITE_MCP_URL: server.url, SITE_MCP_FIXTURES_SECRET: fixturesSecret, SITE_MCP_DNS_ZONE_DIR: zoneDir, SITE_MCP_TEST_WEBSITE_URL: website.url });
  stopAll = async () => {
    await server.close();
    await dns.stop();
    await website.stop();
    await rm(dataDir, { recursive: true, force: true });
    await rm(zoneDir, { recursive: true, force: true });
  };
  support = await loadSupport(runConfiguration, environment);
});

afterAll(async () => {
  await stopAll?.();
});

for (const pickle of plan) {
  const where = `${pickle.uri}:${pickle.location.line}`;
  it(`${where} ${pickle.name}`, async () => {
    const failures: string[] = [];
    const { success } = await runCucumber(
      { ...runConfiguration, sources: { ...runConfiguration.sources, paths: [where] }, support },
      environment,
      (envelope) => {
        const result = envelope.testStepFinished?.testStepResult;
        if (result && result.status !== 'PASSED' && result.status !== 'SKIPPED') failures.push(`${result.status}: ${result.message ?? ''}`);
      },
    );
    expect(failures).toEqual([]);
    expect(success).toBe(true);
  });
}
