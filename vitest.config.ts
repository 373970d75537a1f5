import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['spec/test/**/*.test.ts', 'reference/test/**/*.test.ts', 'conformance/properties/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Property tests are black-box: one target server for all of them (conformance/properties/global-setup.ts).
    globalSetup: ['conformance/properties/global-setup.ts'],
  },
});
