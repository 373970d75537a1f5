// Rule test-mode-explicit: the fixtures protocol creates users, tokens and time, so the server turns it on only when
// told so itself (--fixtures-secret, or its own SITE_MCP_SERVER_FIXTURES_SECRET), never from the kit's variable a
// shell that runs the kit has set, with a secret of at least 16 characters, and not on a host other than loopback
// unless a second flag says so; its start lines say test mode is on. `npm start` itself, as a person runs it.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listeningUrl } from '../../conformance/lib/target.js';
import { runNode } from '../../conformance/test/run-command.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const SECRET = 'a-secret-of-twenty-chars';
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'site-mcp-test-mode-'));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

/** Starts `npm start`'s program with `args` and `env`; answers what it printed up to its start lines and the handshake's status. */
async function startAndProbe(args: string[], env: NodeJS.ProcessEnv): Promise<{ output: string; handshake: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx/esm', 'reference/main.ts', '--port', '0', '--data-dir', dataDir, '--no-seed', '--no-capture', ...args], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '', SITE_MCP_SERVER_FIXTURES_SECRET: '', ...env } });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  try {
    const url = await listeningUrl(child, 30_000, (reason) => `the server ${reason}: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 300)); // the lines after the address
    const handshake = (await fetch(`${url}/test-fixtures/v1`, { headers: { 'x-fixtures-secret': env.SITE_MCP_FIXTURES_SECRET || SECRET } })).status;
    return { output, handshake };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

describe('rule:test-mode-explicit', () => {
  it('the kit\'s SITE_MCP_FIXTURES_SECRET alone does not turn test mode on, and the start lines say so', async () => {
    const { output, handshake } = await startAndProbe([], { SITE_MCP_FIXTURES_SECRET: SECRET });
    expect(handshake).toBe(404);
    expect(output).toMatch(/Test mode is off: SITE_MCP_FIXTURES_SECRET is the kit's/);
    expect(output).not.toMatch(/TEST MODE is on/);
  }, 60_000);

  it('--fixtures-secret turns it on, and the start lines say it is on', async () => {
    const { output, handshake } = await startAndProbe(['--fixtures-secret', SECRET], {});
    expect(handshake).toBe(200);
    expect(output).toMatch(/TEST MODE is on: the fixtures protocol at http:\/\/127\.0\.0\.1:\d+\/test-fixtures\/v1/);
  }, 60_000);

  it('a short secret, or test mode on a host other than loopback without the second flag, exits 2 with one sentence', async () => {
    for (const [args, says] of [
      [['--fixtures-secret', 'short'], /--fixtures-secret needs at least 16 characters .* got 5/],
      [['--fixtures-secret', SECRET, '--host', '0.0.0.0'], /test mode on --host 0\.0\.0\.0: .*--test-mode-on-network/],
      [['--test-mode-on-network'], /--test-mode-on-network goes with --fixtures-secret/],
    ] as const) {
      const { code, stderr } = await runNode(['--import', 'tsx/esm', 'reference/main.ts', '--port', '0', '--data-dir', dataDir, '--no-seed', ...args], repo, { SITE_MCP_SERVER_FIXTURES_SECRET: '' }, 60_000);
      expect(code, args.join(' ')).toBe(2);
      expect(stderr.trim().split('\n').filter((l) => !/oidc-provider/.test(l)), stderr).toHaveLength(1);
      expect(stderr).toMatch(says);
    }
  }, 90_000);
});
