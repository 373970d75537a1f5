// One reference server for the test files that need an ordinary one: test mode, the default limits, nothing of
// their own in its configuration, and nobody stops or restarts it. That is the server
// conformance/properties/global-setup.ts starts for the properties, when it starts one; each file then builds its
// own worlds in it (tenants of their own), as the properties do. Each server costs about 1 s of CPU to start and
// more to warm up, and these files started seven (issue 16). Against another target (SITE_MCP_URL) the setup starts
// no reference, and each file starts its own as before: these tests are about the reference, not the target.
import { inject } from 'vitest';
import { startReferenceServer, type Target } from '../../conformance/lib/target.js';

/** The shared reference when the global setup started one; otherwise a reference of this file's own. */
export async function referenceServer(): Promise<Target> {
  const url = inject('referenceUrl');
  if (url) return { url, fixturesSecret: inject('referenceFixturesSecret'), stop: async () => undefined };
  return startReferenceServer();
}
