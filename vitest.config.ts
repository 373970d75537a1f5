import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// The tests that compare how long two answers take (rules sign-in-unknown-email-same-cost,
// domain-foreign-hostname-same-time): they run after every other file, one at a time, so no test file of ours
// runs beside them (with a second file beside it, domain-timing failed once in three runs at load 14).
const timing = ['reference/test/sign-in-timing.test.ts', 'reference/test/domain-timing.test.ts'];
// Files that replace a module (vi.mock): each runs in a fresh module graph of its own. Every other file shares its
// worker's loaded modules with the files before it (isolate: false), which saves loading the reference and the
// kit again for each of ~60 files (issue 16); reference/test/vitest-config.test.ts keeps this list whole.
export const moduleMocks = ['reference/test/pairing.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One test file more than there are cores (vitest's own default leaves one core free: a single worker on a
    // 2-core machine). Many files spend their time waiting on servers, browsers and CLIs they start as children,
    // which leaves a core idle while only one file per core runs (issue 16: `npm test` under 2 minutes on 2 cores).
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
          include: ['spec/test/**/*.test.ts', 'reference/test/**/*.test.ts', 'conformance/properties/**/*.test.ts', 'conformance/variants/**/*.test.ts', 'conformance/test/**/*.test.ts'],
          exclude: [...timing, ...moduleMocks],
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
