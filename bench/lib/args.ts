// A benchmark's command line: node's parseArgs, plus --help (the usage in the benchmark's opening comment) and one
// sentence instead of a stack trace for an option it does not take (exit 2), as the kit's own commands answer.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Exit code of a benchmark whose command line is wrong (README "Benchmarks"). */
export const WRONG_COMMAND_LINE = 2;

/** The opening `//` comment of `file`: what the benchmark measures and its options. */
function usage(file: string): string {
  const lines = readFileSync(file, 'utf8').split('\n');
  const end = lines.findIndex((line) => !line.startsWith('//'));
  return lines.slice(0, end < 0 ? lines.length : end).map((line) => line.replace(/^\/\/ ?/, '')).join('\n');
}

/** parseArgs over this process's arguments for the benchmark at `moduleUrl` (its import.meta.url). */
export function benchArgs<T extends ParseArgsConfig>(moduleUrl: string, config: T): ReturnType<typeof parseArgs<T>> {
  const file = fileURLToPath(moduleUrl);
  const name = basename(file, '.ts');
  // parseArgs reads process.argv past the script (bench/run.ts takes the benchmark's name out first).
  const args = process.argv.slice(2);
  const ownArgs = args.includes('--') ? args.slice(0, args.indexOf('--')) : args;
  if (ownArgs.includes('--help') || ownArgs.includes('-h')) {
    console.log(usage(file));
    process.exit(0);
  }
  try {
    return parseArgs(config);
  } catch (error) {
    // Node's own message, without its advice about positionals, which a benchmark's user never needs.
    const said = (error as Error).message.split('. To specify a positional argument')[0]!.replace(/\.$/, '');
    console.error(`bench ${name}: ${said}; npm run bench -- ${name} --help lists its options.`);
    process.exit(WRONG_COMMAND_LINE);
  }
}
