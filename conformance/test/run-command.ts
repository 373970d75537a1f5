// How the kit's tests run one of its commands as a user would and read what it said: the exit code and both
// streams, whole.
import { spawn } from 'node:child_process';

export interface CommandResult { code: number; stdout: string; stderr: string }

/**
 * Runs this Node with `nodeArgs` in `cwd`, without the test's NODE_OPTIONS, with `env` over the test's environment.
 * After `timeoutMs` (when given) the command is killed and answers code -1 with a line saying so on stderr: a
 * command that hangs fails its test instead of holding it.
 */
export function runNode(nodeArgs: string[], cwd: string, env: NodeJS.ProcessEnv = {}, timeoutMs?: number): Promise<CommandResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, nodeArgs, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '', ...env } });
    let killed = false;
    const timer = timeoutMs === undefined ? undefined : setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve({ code: 1, stdout, stderr: `${stderr}${error.message}` });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(killed ? { code: -1, stdout, stderr: `${stderr}\n[killed: still running after ${timeoutMs} ms]` } : { code: code ?? 1, stdout, stderr });
    });
  });
}
