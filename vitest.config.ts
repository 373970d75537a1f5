// Node 22 or newer, and Node's compile cache for every process the tests start: vitest's workers and the servers and
// CLIs they spawn inherit NODE_COMPILE_CACHE, so each loads Koa, oidc-provider, the MCP SDK, playwright-core and the
// rest from V8's cached code instead of compiling them again (about 0.5 s of CPU less for six files).
import './conformance/lib/require-node.js';
import { availableParallelism } from 'node:os';
import { memoryScratchForRun } from './conformance/lib/scratch-dir.js';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Every temporary file of the run in memory when the machine has a usable tmpfs, unless TMPDIR says where: the
// servers' stores, Chromium's profiles, the packed kit's install, tsx's cache of the children's compiled TypeScript,
// in a directory of the run's own that goes when the run ends; the workers and every process they start inherit
// TMPDIR. (Node's compile cache stays where require-node.js, imported above, put it: it is worth keeping between runs.)
// On this project's 2-core machine /tmp is an ext4 without a journal, where creating a file costs more the more
// were replaced just before, and the stores replace a file per write (conformance/lib/scratch-dir.ts;
// npm run bench -- test-time 110.5 s with /dev/shm, 126.9 s without, back to back).
memoryScratchForRun();

// The tests that compare how long two answers take (rules sign-in-unknown-email-same-cost,
// domain-foreign-hostname-same-time): they run after every other file, one at a time, so no test file of ours
// runs beside them (with a second file beside it, domain-timing failed once in three runs at load 14).
const timing = ['reference/test/sign-in-timing.test.ts', 'reference/test/domain-timing.test.ts'];
// Files that replace a module (vi.mock): each runs in a fresh module graph of its own, as the timing files do. Every
// other file shares its worker's loaded modules with the files before it (isolate: false), which saves loading the reference and the
// kit again for each of ~60 files; reference/test/vitest-config.test.ts keeps this list whole.
export const moduleMocks = ['reference/test/pairing.test.ts'];

// The longest files, longest first: they start before everything else, so the run does not end with one
// of them alone on a core. Vitest orders by the last run's durations when it has them, and by file size on a fresh
// clone (CI), where these small files that run whole suites and models would start last. Only the order depends on
// this list; a file missing from it still runs.
const SLOW_FIRST = [
  'conformance/variants/variants.test.ts',
  'conformance/properties/fuzz.test.ts',
  'conformance/properties/plans-model.test.ts',
  'conformance/test/cli-first-contact.test.ts',
  'reference/test/crash.test.ts',
  'conformance/test/packed-tarball.test.ts',
  'reference/test/inspector-web-oauth.test.ts',
  'reference/test/capture.test.ts',
];
class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const i = SLOW_FIRST.findIndex((slow) => file.moduleId.endsWith(`/${slow}`));
      return i < 0 ? SLOW_FIRST.length : i;
    };
    // Within each project, in vitest's own project order (Array.prototype.sort is stable).
    const sorted = await super.sort(files);
    const project = new Map(sorted.map((file, i) => [file.project.name, i]));
    return sorted.sort((a, b) => project.get(a.project.name)! - project.get(b.project.name)! || rank(a) - rank(b));
  }
}

// Inside a network namespace with nothing but loopback (conformance/lib/run-isolated.mjs, as npm test runs this
// phase: rule kit-no-packet-off-machine) the files that install the packed kit run only from npm's cache, which
// npm run test:packed warms first (conformance/lib/warm-npm-cache.mjs) and then runs them alone (SITE_MCP_PACKED=1).
const needsRegistry = ['conformance/test/packed-tarball.test.ts', 'conformance/test/action.test.ts'];
const isolated = process.env.SITE_MCP_NET_ISOLATED === '1' && process.env.SITE_MCP_PACKED !== '1';

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    sequence: { sequencer: SlowFirst },
    // One test file more than there are cores (vitest's own default leaves one core free: a single worker on a
    // 2-core machine). Many files spend their time waiting on servers, browsers and CLIs they start as children,
    // which leaves a core idle while only one file per core runs (the goal: `npm test` under 2 minutes on 2 cores).
    // Quiet 2-core machine: the tests and module-mocks projects took 125 s with 3 workers and 125 s with 4; the whole
    // unit phase with 2 took 139 s, of which the timing project is about 5 s.
    maxWorkers: availableParallelism() + 1,
    // Against the reference (no SITE_MCP_URL) the properties also check its declared choices; against another
    // target they check the source only, unless SITE_MCP_DECLARATION names that target's declaration.
    env: { SITE_MCP_DECLARATION: process.env.SITE_MCP_DECLARATION ?? (process.env.SITE_MCP_URL ? '' : 'conformance/declarations/reference.yaml') },
    projects: [
      {
        extends: true,
        test: {
          name: 'tests',
          include: ['spec/test/**/*.test.ts', 'reference/test/**/*.test.ts', 'conformance/properties/**/*.test.ts', 'conformance/variants/**/*.test.ts', 'conformance/test/**/*.test.ts', 'bench/test/**/*.test.ts'],
          exclude: [...timing, ...moduleMocks, ...(isolated ? needsRegistry : [])],
          isolate: false,
          // Property tests are black-box: one target server for all of them (conformance/properties/global-setup.ts).
          globalSetup: ['conformance/properties/global-setup.ts'],
          sequence: { groupOrder: 0 },
        },
      },
      { extends: true, test: { name: 'module-mocks', include: moduleMocks, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'timing', include: timing, maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});
