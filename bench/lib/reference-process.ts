// The benchmarks' own child processes: a server of this (or another) checkout of the repository started under
// this node with optional node flags (a V8 CPU profile: --cpu-prof), which conformance/lib/target.ts does not
// take, and stopped again whatever happens.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listeningUrl } from '../../conformance/lib/target.js';

export interface ChildServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts `nodeArgs` under this node in `cwd` and waits for its "listening on <url>" line. `quiet` drops the child's
 * stderr (a conformance run provokes logged server errors on purpose).
 */
export async function startChild(nodeArgs: string[], cwd: string, { readyMs = 60_000, quiet = false } = {}): Promise<ChildServer> {
  const child = spawn(process.execPath, nodeArgs, { cwd, stdio: ['ignore', 'pipe', quiet ? 'ignore' : 'inherit'], env: { ...process.env, NODE_OPTIONS: '' } });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    }
  };
  process.once('exit', () => child.kill('SIGKILL'));
  try {
    const url = await listeningUrl(child, readyMs, (reason) => `${nodeArgs.join(' ')} ${reason}`);
    return { url, pid: child.pid!, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

export interface ReferenceOptions {
  /** The checkout whose reference/main.ts runs. */
  checkout: string;
  /** More options of reference/main.ts (e.g. --rate-limits). */
  args?: string[];
  /** Writes a V8 CPU profile named `profileName` there when the server stops. */
  cpuProfDir?: string;
  profileName?: string;
  /** Drops the server's stderr. */
  quiet?: boolean;
  /** Where its data directory is made (the OS temporary directory unless named). */
  dataParent?: string;
}

/** The reference server of `checkout` in test mode on loopback, a fresh data directory and a random fixtures secret. */
export async function startReference(options: ReferenceOptions): Promise<ChildServer & { fixturesSecret: string }> {
  const dataDir = await mkdtemp(join(options.dataParent ?? tmpdir(), 'site-mcp-bench-'));
  const fixturesSecret = randomBytes(16).toString('hex');
  const profile = options.cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', options.cpuProfDir, ...(options.profileName ? ['--cpu-prof-name', options.profileName] : [])] : [];
  try {
    const server = await startChild(
      [...profile, '--import', 'tsx/esm', join(options.checkout, 'reference/main.ts'), '--host', '127.0.0.1', '--port', '0', '--data-dir', dataDir, '--fixtures-secret', fixturesSecret, '--no-seed', ...(options.args ?? [])],
      options.checkout,
      { quiet: options.quiet },
    );
    return {
      ...server,
      fixturesSecret,
      stop: async () => {
        await server.stop();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}
