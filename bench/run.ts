// `npm run bench -- <name> [flags]`: runs bench/<name>.ts. Benchmarks print figures; they assert nothing.
import { readdirSync } from 'node:fs';

const name = process.argv[2];
const available = readdirSync(new URL('.', import.meta.url)).filter((f) => f.endsWith('.ts') && !['run.ts'].includes(f) && !f.includes('baseline'));
if (!name || !available.includes(`${name}.ts`)) {
  console.log(`usage: npm run bench -- <name> [flags]\navailable: ${available.map((f) => f.replace(/\.ts$/, '')).join(', ')}`);
  process.exit(name ? 1 : 0);
}
process.argv.splice(2, 1);
await import(`./${name}.ts`);
