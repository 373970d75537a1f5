// The test set-up's own promise (vitest.config.ts): files share their worker's loaded modules (isolate: false),
// so a file that replaces a module with vi.mock must run in a module graph of its own, or its mock would miss the
// modules an earlier file loaded, and leak into the files after it. This keeps the list of such files whole.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import config, { moduleMocks } from '../../vitest.config.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));

function testFiles(dir: string): string[] {
  return readdirSync(join(repo, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? testFiles(join(dir, entry.name)) : entry.name.endsWith('.test.ts') ? [relative(repo, join(repo, dir, entry.name))] : [],
  );
}

describe('vitest.config.ts', () => {
  it('every test file that mocks a module runs isolated (the module-mocks or timing project), and only those', () => {
    const projects = (config as { test: { projects: { test: { name: string; include?: string[]; exclude?: string[]; isolate?: boolean } }[] } }).test.projects;
    // Isolated means only there: a listed file the shared project also includes would run there too.
    for (const shared of projects.filter((p) => p.test.isolate === false)) {
      for (const file of moduleMocks) expect(shared.test.exclude ?? [], `${file} must be excluded from the ${shared.test.name} project`).toContain(file);
    }
    const isolated = projects.filter((p) => p.test.isolate !== false).flatMap((p) => p.test.include ?? []);
    const mocking = ['spec', 'reference', 'conformance'].flatMap(testFiles).filter((file) => /\bvi\.(do)?[mM]ock\(/.test(readFileSync(join(repo, file), 'utf8')));
    expect(mocking.length, 'at least the pairing test mocks node:crypto').toBeGreaterThan(0);
    for (const file of mocking) expect(isolated, `${file} calls vi.mock: add it to moduleMocks in vitest.config.ts`).toContain(file);
    // A file listed without a mock pays a module graph of its own for nothing.
    for (const file of moduleMocks) expect(mocking, `${file} is in moduleMocks but mocks no module`).toContain(file);
  });
});
