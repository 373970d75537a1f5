// One reference server for the test files that need an ordinary one: test mode, the default limits, and nothing
// a file changes for the whole server (no fixtures call that sets the DNS resolver or the fetch allow-list, as a
// kit run's set-up does, which is why cli-first-contact keeps its own), and nobody stops or restarts it. That is
// the server global-setup.ts starts for the properties, when it starts one; each file builds its own worlds in it
// (tenants of their own), as the properties do. Each server costs CPU to start and more to warm up, paid
// once here, not once per file. Against another target (SITE_MCP_URL) the setup starts no reference, and each
// file starts its own as before: these tests are about the reference, not the target.
import { inject } from 'vitest';
import { startReferenceServer, type Target } from '../lib/target.js';

/** The shared reference when the global setup started one; otherwise a reference of this file's own. */
export async function referenceServer(): Promise<Target> {
  const url = inject('referenceUrl');
  if (url) return { url, fixturesSecret: inject('referenceFixturesSecret'), stop: async () => undefined };
  return startReferenceServer();
}
