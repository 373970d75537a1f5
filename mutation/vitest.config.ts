// The vitest configuration Stryker runs (stryker.config.mjs, `npm run mutation`); not used by `npm test`.
// Two projects: the reference's own tests as they are, and the black-box properties against a reference started
// inside the test worker (in-process-target.ts), so that they see the mutant Stryker switches on.
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { fileURLToPath } from 'node:url';

const declaration = fileURLToPath(new URL('../conformance/declarations/reference.yaml', import.meta.url));
const root = fileURLToPath(new URL('..', import.meta.url));

// Cheap files first: Stryker stops a mutant's run at its first failing test, so a unit test that kills it in
// milliseconds should run before the 157 scenarios or a 60-sequence model (vitest's default runs the longest first).
const COST: [RegExp, number][] = [
  [/mutation\/features\.test\.ts$/, 4],
  [/conformance\/properties\/(plans-model|fuzz)\.test\.ts$/, 3],
  [/conformance\/properties\//, 2],
  [/reference\/test\/(crash|oauth-sdk-client|app-pages|migrate)\.test\.ts$/, 1],
];
const cost = (file: TestSpecification) => COST.find(([pattern]) => pattern.test(file.moduleId))?.[1] ?? 0;
class CheapFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    return [...files].sort((a, b) => cost(a) - cost(b));
  }
}

// SITE_MCP_MUTATION_TESTS=a.test.ts,b.test.ts (paths from the repository root) keeps only those test files, and a
// project none of them belongs to is left out (mutation/README.md, "On a busy machine"): the dry run then costs what
// those files cost. A score measured so counts only what those files kill; the README's figures say which were run.
const onlyTests = process.env.SITE_MCP_MUTATION_TESTS?.split(',').map((f) => f.trim()).filter(Boolean);
const narrowed = (include: string[], under: string) => (onlyTests ? onlyTests.filter((f) => f.startsWith(under)) : include);

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    sequence: { sequencer: CheapFirst },
    // A fixed seed: the properties draw the same cases in Stryker's dry run and in every mutant run.
    env: { SITE_MCP_SEED: process.env.SITE_MCP_SEED ?? '1', SITE_MCP_FUZZ_RUNS: process.env.SITE_MCP_FUZZ_RUNS ?? '20', SITE_MCP_MODEL_RUNS: process.env.SITE_MCP_MODEL_RUNS ?? '60' },
    projects: [
      {
        extends: true as const,
        test: {
          name: 'reference',
          root,
          include: narrowed(['reference/test/**/*.test.ts'], 'reference/test/'),
          setupFiles: ['mutation/hook-coverage.ts'],
          // Timing tests measure wall-clock differences that instrumentation distorts; they guard no mutated module.
          // The Inspector and browser tests drive external programs (Chromium, the Inspector's CLIs from outside the
          // sandbox) through flows the features and oauth tests already cover.
          exclude: ['reference/test/sign-in-timing.test.ts', 'reference/test/domain-timing.test.ts', 'reference/test/browser.test.ts', 'reference/test/inspector*.test.ts'],
        },
      },
      {
        extends: true as const,
        test: {
          name: 'features',
          root,
          include: narrowed(['mutation/features.test.ts'], 'mutation/features.test.ts'),
          setupFiles: ['mutation/hook-coverage.ts'],
        },
      },
      {
        extends: true as const,
        test: {
          name: 'properties',
          root,
          include: narrowed(['conformance/properties/**/*.test.ts'], 'conformance/properties/'),
          setupFiles: ['mutation/hook-coverage.ts', 'mutation/in-process-target.ts'],
          provide: { siteMcpDeclaration: declaration },
        },
      },
    ].filter((project) => project.test.include.length > 0),
  },
});
