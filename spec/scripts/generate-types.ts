// `npm run generate`: writes generated/ from spec/ and removes generated files whose schema is gone.
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateAll } from './generate-lib.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const files = await generateAll();

async function existing(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const nested = await Promise.all(entries.map((e) => (e.isDirectory() ? existing(join(dir, e.name)) : [join(dir, e.name)])));
  return nested.flat();
}

for (const file of await existing(join(root, 'generated'))) {
  if (!files.has(relative(root, file))) await rm(file);
}
for (const [path, content] of files) {
  await mkdir(dirname(join(root, path)), { recursive: true });
  await writeFile(join(root, path), content);
}
console.log(`generated ${files.size} files under generated/`);
