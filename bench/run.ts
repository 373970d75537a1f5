// `npm run bench -- <name> [flags]`: runs bench/<name>.ts. Benchmarks print figures; they assert nothing. Exit 2 (one
// sentence, no stack trace) for a name or flag that does not exist; `--help` after a name prints its usage.
import { readdirSync } from 'node:fs';
import { WRONG_COMMAND_LINE } from './lib/args.js';

const name = process.argv[2];
const available = readdirSync(new URL('.', import.meta.url)).filter((f) => f.endsWith('.ts') && !['run.ts'].includes(f) && !f.includes('baseline')).map((f) => f.replace(/\.ts$/, ''));
if (!name || name === '--help' || name === '-h') {
  console.log(`usage: npm run bench -- <name> [flags]   (npm run bench -- <name> --help: what it measures, its flags)\navailable: ${available.join(', ')}`);
  process.exit(0);
}
if (!available.includes(name)) {
  console.error(`bench: there is no benchmark named ${JSON.stringify(name)}; npm run bench lists them (${available.join(', ')}).`);
  process.exit(WRONG_COMMAND_LINE);
}
process.argv.splice(2, 1);
await import(`./${name}.ts`);
