#!/usr/bin/env node
// Runs a command in a network namespace of its own with nothing but loopback (rule kit-no-packet-off-machine): a
// broken, mutated or regressed server under test that fetches an address it must refuse then reaches nothing, and
// no packet leaves this machine. npm test's unit and feature stages, prove-checks and the mutation run go through it.
//
//   node conformance/lib/run-isolated.mjs <command> [args...]
//
// Linux only: as root `unshare --net`, otherwise `unshare --net --map-root-user` where user namespaces are allowed,
// then `ip link set lo up`. Where neither works (macOS, a container without the capability, no iproute2) the command
// runs as it is, after one line on stderr that says so. Inside, SITE_MCP_NET_ISOLATED=1 is set, and a nested call
// runs its command directly. The exit code is the command's.
import { spawn, spawnSync } from 'node:child_process';
import { constants } from 'node:os';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('run-isolated: name the command to run, e.g. node conformance/lib/run-isolated.mjs npx vitest run');
  process.exit(2);
}

/** The unshare options that give this process a network namespace here, or a sentence saying why none can be had. */
function namespaceOptions() {
  if (process.platform !== 'linux') return `not on Linux (${process.platform})`;
  if (spawnSync('ip', ['-V'], { stdio: 'ignore' }).status !== 0) return 'no `ip` command (Debian: apt-get install iproute2)';
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  for (const options of asRoot ? [['--net']] : [['--net', '--map-root-user']]) {
    const probe = spawnSync('unshare', [...options, 'ip', 'link', 'set', 'lo', 'up'], { stdio: 'ignore' });
    if (probe.status === 0) return options;
  }
  return asRoot ? 'unshare --net is not permitted here' : 'unshare --net --map-root-user is not permitted here (user namespaces off)';
}

function run(file, argv, env) {
  const child = spawn(file, argv, { stdio: 'inherit', env });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
  child.on('error', (error) => {
    console.error(`run-isolated: could not start ${file}: ${error.message}`);
    process.exit(2);
  });
}

if (process.env.SITE_MCP_NET_ISOLATED === '1') {
  run(command, args, process.env);
} else {
  const options = namespaceOptions();
  if (typeof options === 'string') {
    console.error(`run-isolated: running without network isolation (${options}); a broken server under test could reach other addresses.`);
    run(command, args, process.env);
  } else {
    // `sh -c` brings loopback up inside the new namespace, then becomes the command.
    run('unshare', [...options, 'sh', '-c', 'ip link set lo up && exec "$@"', 'run-isolated', command, ...args], { ...process.env, SITE_MCP_NET_ISOLATED: '1' });
  }
}
