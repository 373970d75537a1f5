#!/usr/bin/env node
// The one step of npm test that reaches a network, and only the npm registry (rule kit-no-packet-off-machine): it
// installs the packed kit once into a throw-away folder, so npm's cache holds every package and packument the
// packed kit needs. The tests of the packed kit and of the GitHub Action (npm run test:packed) then install it again
// with npm's --offline inside a network namespace of loopback alone, as every other stage of npm test runs.
// It is an installation, as `npm ci` is: it runs nothing of the kit.
//
//   node conformance/lib/warm-npm-cache.mjs      exit 0, or 1 with one sentence when npm could not install
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const npmBeside = join(process.execPath, '..', 'npm');
const npm = existsSync(npmBeside) ? npmBeside : 'npm';
const dir = mkdtempSync(join(tmpdir(), 'site-mcp-warm-'));
try {
  execFileSync(npm, ['pack', '--pack-destination', dir, '--silent'], { cwd: repo, stdio: ['ignore', 'ignore', 'inherit'], timeout: 120_000 });
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error('npm pack wrote no tarball');
  mkdirSync(join(dir, 'app'));
  writeFileSync(join(dir, 'app', 'package.json'), JSON.stringify({ name: 'warm-npm-cache', private: true }));
  execFileSync(npm, ['install', '--no-audit', '--no-fund', '--loglevel=error', '--prefer-offline', join(dir, tarball)], { cwd: join(dir, 'app'), stdio: ['ignore', 'ignore', 'inherit'], timeout: 400_000 });
} catch (error) {
  console.error(`warm-npm-cache: npm could not install the packed kit (${error.message.split('\n')[0]}); check that the npm registry is reachable, then run npm run test:packed again.`);
  process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
