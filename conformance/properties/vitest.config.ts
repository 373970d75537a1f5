// The vitest configuration `site-mcp conformance --properties` runs the fast-check properties with
// (conformance/cli.ts). It ships in the package, so it also works where the kit is installed from a tarball: there
// the package root sits inside node_modules/, which vitest leaves out of its test files and hands to Node unprocessed
// (Node does not strip TypeScript types under node_modules/), so both are undone here for this package's own files.
// The target comes from SITE_MCP_URL / SITE_MCP_FIXTURES_SECRET (global-setup.ts), the declaration from
// SITE_MCP_DECLARATION, the seed from SITE_MCP_SEED; `npm test` runs the same files through the root vitest.config.ts.
import { defineConfig } from 'vitest/config';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const escaped = root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// This package's files, not its dependencies (which in a checkout live in <root>/node_modules/).
const ownFiles = new RegExp(`^${escaped}(?!node_modules/)`);

export default defineConfig({
  root,
  // An installed package may not be writable by the user running the kit.
  cacheDir: join(tmpdir(), 'site-mcp-vitest-cache'),
  test: {
    include: ['conformance/properties/**/*.test.ts'],
    exclude: [],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['conformance/properties/global-setup.ts'],
    server: { deps: { inline: [ownFiles] } },
  },
});
