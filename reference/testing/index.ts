// Test mode: the composition reference/main.ts adds only when a fixtures secret is given (and the reference's
// own tests through reference/test/harness.ts). It mounts the fixtures protocol (conformance/README.md) and
// installs the one-shot faults it arms through the seams production has anyway (the store's commit hooks);
// production code knows nothing of it.
import type { Composition } from '../app.js';
import { fixturesRouter, type Faults } from './fixtures.js';

export function testMode(secret: string): Composition {
  const faults: Faults = { failNextWrite: new Set() };
  return {
    // fail-next-write: the workspace's next commit fails like a failed disk write (§7.3: the operation rolls back whole).
    storeHooks: {
      beforeCommit: (workspaceId) => {
        if (faults.failNextWrite.delete(workspaceId)) throw new Error('the write failed (fixtures: fail-next-write)');
      },
    },
    router: (rt) => fixturesRouter(rt, secret, faults),
  };
}
