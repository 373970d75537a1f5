// Mutation testing only: lets Stryker's per-test coverage see what a test file's hooks reach. Stryker's vitest
// runner records a mutant reached outside a test (in beforeAll, where most files start a server, build a world
// and make a connection) as "static", and runs every test of the suite for each static mutant: minutes per
// mutant. A hook only runs when a test of its file runs, so in the dry run this file records what the hooks
// reach under a placeholder test id and hands it, at the end of the file, to every test of the file: such a
// mutant is then run against the tests of the files whose hooks reach it (and those that reach it themselves).
// What runs while the file is imported (module-level code) stays static: Stryker must switch those mutants on
// before the import. Relies on the runner's global namespace (stryker-setup.js): { currentTestId, mutantCoverage }.
import { afterAll, beforeAll, beforeEach, inject } from 'vitest';

interface Coverage { static: Record<string, number>; perTest: Record<string, Record<string, number>> }
interface Namespace { currentTestId?: string; mutantCoverage?: Coverage }

const mode = (inject as (key: string) => unknown)('mode');
const namespace = (inject as (key: string) => unknown)('globalNamespace') as string | undefined;

if (mode === 'dry-run' && namespace) {
  const ns = ((globalThis as Record<string, unknown>)[namespace] ??= {}) as Namespace;
  const HOOKS = '(hooks of this file)';
  const testIds = new Set<string>();
  let current = ns.currentTestId;
  let inFile = false;
  // Outside a test but inside the file's hooks, coverage goes to the placeholder instead of "static".
  Object.defineProperty(ns, 'currentTestId', {
    configurable: true,
    enumerable: true,
    get: () => current ?? (inFile ? HOOKS : undefined),
    set: (id: string | undefined) => {
      current = id;
    },
  });
  beforeAll(() => {
    inFile = true;
  });
  // Runs after Stryker's beforeEach, which has set the test's id.
  beforeEach(() => {
    if (current) testIds.add(current);
  });
  // Runs after the file's own afterAll hooks and before Stryker's, which reads the coverage.
  afterAll(() => {
    inFile = false;
    const coverage = ns.mutantCoverage;
    const hooks = coverage?.perTest[HOOKS];
    if (!coverage || !hooks) return;
    delete coverage.perTest[HOOKS];
    for (const id of testIds) {
      const test = (coverage.perTest[id] ??= {});
      for (const [mutant, hits] of Object.entries(hooks)) test[mutant] = (test[mutant] ?? 0) + hits;
    }
    // A file whose tests all failed to start: keep the hooks' reach as static (every test runs it).
    if (testIds.size === 0) for (const [mutant, hits] of Object.entries(hooks)) coverage.static[mutant] = (coverage.static[mutant] ?? 0) + hits;
  });
}
