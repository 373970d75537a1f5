// How the kit's tests run one of its commands as a user would and read what it said: the exit code and both
// streams, whole.
import { spawn } from 'node:child_process';

export interface CommandResult { code: number; stdout: string; stderr: string }

/** Runs this Node with `nodeArgs` in `cwd`, without the test's NODE_OPTIONS, with `env` over the test's environment. */
export function runNode(nodeArgs: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<CommandResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, nodeArgs, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', (error) => resolve({ code: 1, stdout, stderr: `${stderr}${error.message}` }));
    child.once('exit', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}
