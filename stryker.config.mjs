// Mutation testing of the high-stakes modules: `npm run mutation`, or one module with
// `npm run mutation -- --mutate reference/auth/tokens.ts`. Not part of `npm test`. Stryker works on a copy
// in .stryker-tmp/ and writes only its reports (reports/mutation/, gitignored) into the working tree.
// Tests: mutation/vitest.config.ts (the reference's own tests, the features and the properties, with the reference
// running inside the test worker so mutants are seen); how it works, results and surviving mutants: mutation/README.md.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  // Globs rather than one path each, so a module that moves within reference/ is still found.
  mutate: [
    'reference/**/authorize.ts',
    'reference/**/scopes.ts',
    'reference/**/plans.ts',
    'reference/**/plan-effects.ts',
    'reference/**/reviewed.ts',
    'reference/**/rate-limit.ts',
    'reference/**/import-site.ts',
    'reference/**/import-merge.ts',
    'reference/**/portable-site.ts',
    'reference/**/crm.ts',
    'reference/**/pairing.ts',
    'reference/**/tokens.ts',
    '!reference/test/**',
  ],
  testRunner: 'vitest',
  vitest: { configFile: 'mutation/vitest.config.ts', related: false },
  coverageAnalysis: 'perTest',
  concurrency: 1,
  timeoutMS: 10_000,
  timeoutFactor: 2,
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  // The sandbox needs the sources, spec/ and the tests; not the reports, data or git history.
  ignorePatterns: ['reports', 'data', '.tmp'],
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 85, low: 70, break: null },
};
