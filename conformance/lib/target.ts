// Where the suite points: an implementation at SITE_MCP_URL (with SITE_MCP_FIXTURES_SECRET), or, when no URL
// is given, the reference server started as a child process on loopback, port 0, with a fresh data dir (in memory
// when the machine has room: scratch-dir.ts) and a random fixtures secret. `stop()` ends the child (SIGTERM,
// SIGKILL after 5 s) and removes the data dir; a child is also ended when this process exits or is interrupted,
// so no server is ever left behind.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scratchDir } from './scratch-dir.js';

export interface Target {
  url: string;
  fixturesSecret: string;
  /** Stops what this process started (nothing for an external URL). Safe to call twice. */
  stop(): Promise<void>;
  /** The server's process id when this process started it. */
  pid?: number;
}

const repo = fileURLToPath(new URL('../../', import.meta.url));
const READY_TIMEOUT_MS = 30_000;
const KILL_AFTER_MS = 5_000;

// Children started by this process, ended on exit or interruption if nobody stopped them.
const running = new Map<ChildProcess, string>();
let guarded = false;

function guardProcess(): void {
  if (guarded) return;
  guarded = true;
  const killAll = () => {
    for (const [child, dataDir] of running) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
    running.clear();
  };
  process.once('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      killAll();
      // Nobody else handles it: behave like the default (exit with the signal's status).
      if (process.listenerCount(signal) === 0) process.exit(128 + ({ SIGINT: 2, SIGTERM: 15, SIGHUP: 1 } as const)[signal]);
    });
  }
}

/** Starts a deliberately broken server (conformance/broken/serve.ts) for `rules`, as a child process. */
export function startBrokenServer(rules: readonly string[]): Promise<Target> {
  return startReferenceServer(rules.flatMap((rule) => ['--break', rule]), 'conformance/broken/serve.ts');
}

/**
 * The URL a server child prints in its "listening on <url>" line (reference/main.ts prints it once ready).
 * Rejects, with `explain(reason)` as the message, when the child fails to start, exits first, or says nothing
 * within `timeoutMs`. Shared with the benchmarks' own children (bench/lib/reference-process.ts).
 */
export function listeningUrl(child: ChildProcess, timeoutMs: number, explain: (reason: string) => string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(explain(`did not print its ready line within ${timeoutMs / 1000} s`))), timeoutMs);
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out = (out + d.toString()).slice(-10_000);
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!.replace(/\/$/, ''));
      }
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(explain(`could not be started: ${error.message}`)));
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(explain(`exited (${signal ?? code}) before it was ready`)));
    });
  });
}

/** Starts the reference server (`program`, reference/main.ts unless named) as a child process; `extraArgs` go to its command line. */
export async function startReferenceServer(extraArgs: string[] = [], program = 'reference/main.ts'): Promise<Target> {
  const dataDir = await mkdtemp(join(scratchDir(), 'site-mcp-conformance-'));
  const fixturesSecret = randomBytes(16).toString('hex');
  guardProcess();
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx/esm', join(repo, program), '--host', '127.0.0.1', '--port', '0', '--data-dir', dataDir, '--fixtures-secret', fixturesSecret, '--no-seed', ...extraArgs],
    // NODE_OPTIONS is cleared so the server never inherits the suite's loaders or inspector flags.
    { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } },
  );
  running.set(child, dataDir);
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    // Keep the tail only: enough to explain a failed start, bounded for a long run.
    stderr = (stderr + d.toString()).slice(-20_000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS);
        await exited;
        clearTimeout(killer);
      }
      running.delete(child);
      await rm(dataDir, { recursive: true, force: true });
    })());
  try {
    const url = await listeningUrl(child, READY_TIMEOUT_MS, (reason) => `the reference server ${reason}; its stderr:\n${stderr}`);
    return { url, fixturesSecret, stop, pid: child.pid };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * The target of a run: `url`/`fixturesSecret` (CLI flags) or SITE_MCP_URL/SITE_MCP_FIXTURES_SECRET, else a
 * freshly started reference server.
 */
export async function resolveTarget(options: { url?: string; fixturesSecret?: string } = {}): Promise<Target> {
  const url = options.url ?? process.env.SITE_MCP_URL;
  if (url) {
    const fixturesSecret = options.fixturesSecret ?? process.env.SITE_MCP_FIXTURES_SECRET;
    if (!fixturesSecret) throw new Error('A target URL needs its fixtures secret (--fixtures-secret or SITE_MCP_FIXTURES_SECRET).');
    return { url: url.replace(/\/$/, ''), fixturesSecret, stop: async () => undefined };
  }
  return startReferenceServer();
}
