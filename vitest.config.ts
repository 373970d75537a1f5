import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['spec/test/**/*.test.ts', 'reference/test/**/*.test.ts', 'conformance/properties/**/*.test.ts', 'conformance/variants/**/*.test.ts', 'conformance/test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Property tests are black-box: one target server for all of them (conformance/properties/global-setup.ts).
    globalSetup: ['conformance/properties/global-setup.ts'],
    // Against the reference (no SITE_MCP_URL) the properties also check its declared choices; against another
    // target they check the source only, unless SITE_MCP_DECLARATION names that target's declaration.
    env: { SITE_MCP_DECLARATION: process.env.SITE_MCP_DECLARATION ?? (process.env.SITE_MCP_URL ? '' : 'conformance/declarations/reference.yaml') },
  },
});
