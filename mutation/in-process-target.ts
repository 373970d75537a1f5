// Mutation testing only (stryker.config.mjs): starts the reference server inside the vitest worker, so the code
// Stryker mutates is the code that answers the black-box property tests. Stryker switches mutants in the test
// process (globalThis.__stryker__); a server in a child process (conformance/properties/global-setup.ts) would
// never see them. The properties find it through SITE_MCP_URL/SITE_MCP_FIXTURES_SECRET (conformance/properties/harness.ts).
import { afterAll } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { startServer } from '../reference/app.js';
import { testMode } from '../reference/testing/index.js';

const dataDir = await mkdtemp(join(tmpdir(), 'site-mcp-mutation-'));
const fixturesSecret = randomBytes(16).toString('hex');
const server = await startServer({ host: '127.0.0.1', port: 0, dataDir, allowedHosts: [] }, testMode(fixturesSecret));
process.env.SITE_MCP_URL = server.url;
process.env.SITE_MCP_FIXTURES_SECRET = fixturesSecret;

afterAll(async () => {
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
});
