// generated/ is derived from spec/ and never edited by hand: a stale or hand-edited file fails here.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generateAll } from '../scripts/generate-lib.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));

function committed(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? committed(path) : [relative(repo, path)];
  });
}

describe('generated types', () => {
  it('match spec/ exactly (run `npm run generate` after changing a schema)', async () => {
    const expected = await generateAll();
    const actual = committed(join(repo, 'generated')).sort();
    expect(actual, 'files under generated/ (run `npm run generate`)').toEqual([...expected.keys()].sort());
    for (const [path, content] of expected) {
      expect(readFileSync(join(repo, path), 'utf8'), `${path} is stale: run \`npm run generate\``).toBe(content);
    }
  }, 120_000);
});
