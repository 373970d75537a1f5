// Where the suite points: an implementation at SITE_MCP_URL (with SITE_MCP_FIXTURES_SECRET), or, when no URL
// is given, the reference server started as a child process on loopback, port 0, with a fresh data dir.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Target {
  url: string;
  fixturesSecret: string;
  /** Stops what this process started (nothing for an external URL). */
  stop(): Promise<void>;
  /** The server's process id when this process started it. */
  pid?: number;
}

const repo = fileURLToPath(new URL('../../', import.meta.url));

export async function startReferenceServer(extraArgs: string[] = []): Promise<Target> {
  const dataDir = await mkdtemp(join(tmpdir(), 'site-mcp-conformance-'));
  const fixturesSecret = randomBytes(16).toString('hex');
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', join(repo, 'reference/main.ts'), '--host', '127.0.0.1', '--port', '0', '--data-dir', dataDir, '--fixtures-secret', fixturesSecret, '--no-seed', ...extraArgs], {
    cwd: repo,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await new Promise((r) => child.once('exit', r));
      clearTimeout(killer);
    }
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`reference server did not start within 30 s:\n${stderr}`)), 30_000);
      let out = '';
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const match = /listening on (http:\/\/\S+)/.exec(out);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`reference server exited (${code}) before it was ready:\n${stderr}`));
      });
    });
    // Keep draining output so the child never blocks on a full pipe.
    child.stdout!.resume();
    return { url, fixturesSecret, stop, pid: child.pid };
  } catch (error) {
    await stop();
    throw error;
  }
}

export async function resolveTarget(options: { url?: string; fixturesSecret?: string } = {}): Promise<Target> {
  const url = options.url ?? process.env.SITE_MCP_URL;
  if (url) {
    const fixturesSecret = options.fixturesSecret ?? process.env.SITE_MCP_FIXTURES_SECRET;
    if (!fixturesSecret) throw new Error('A target URL needs its fixtures secret (--fixtures-secret or SITE_MCP_FIXTURES_SECRET).');
    return { url: url.replace(/\/$/, ''), fixturesSecret, stop: async () => undefined };
  }
  return startReferenceServer();
}
