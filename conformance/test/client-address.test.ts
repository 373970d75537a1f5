// The kit chooses its client address (features/support/client-address.ts) only for a target at an IPv4 loopback
// address and only on a machine that lets a socket use any address of 127/8: elsewhere the per-address checks are
// "not checked" and the pairing scenarios use the kit's one address, instead of failing on EADDRNOTAVAIL (as on
// macOS, which has only 127.0.0.1). The macOS-like machine is a network namespace whose only local loopback
// address is 127.0.0.1 (`unshare -n`, which needs root).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { kitChoosesAddress } from '../../features/support/client-address.js';
import type { SiteWorld } from '../../features/support/world.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const target = (url: string) => ({ url }) as SiteWorld;
const asRoot = process.getuid?.() === 0 && spawnSync('unshare', ['-n', 'true']).status === 0;

describe('kitChoosesAddress', () => {
  it('on this machine (Linux: all of 127/8 is local): yes for an IPv4 loopback target, no for a name or another address', async () => {
    expect(await kitChoosesAddress(target('http://127.0.0.1:8787'))).toBe(true);
    expect(await kitChoosesAddress(target('http://127.3.4.5:8787/base'))).toBe(true);
    expect(await kitChoosesAddress(target('http://localhost:8787'))).toBe(false);
    expect(await kitChoosesAddress(target('http://[::1]:8787'))).toBe(false);
    expect(await kitChoosesAddress(target('https://mcp.example.test'))).toBe(false);
  });

  it.runIf(asRoot)('on a machine whose only loopback address is 127.0.0.1: no, even for 127.0.0.1', () => {
    const script = `import { kitChoosesAddress } from './features/support/client-address.ts'; console.log(await kitChoosesAddress({ url: 'http://127.0.0.1:8787' }));`;
    const macosLike = 'ip link set lo up && ip route del local 127.0.0.0/8 dev lo table local && ip route replace local 127.0.0.1 dev lo table local';
    const run = spawnSync('unshare', ['-n', 'sh', '-c', `${macosLike} && "$0" --import tsx/esm --input-type=module -e "$1"`, process.execPath, script], { cwd: repo, encoding: 'utf8', timeout: 30_000, env: { ...process.env, NODE_OPTIONS: '' } });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe('false');
  });
});
