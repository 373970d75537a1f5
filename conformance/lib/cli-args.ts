// Command-line arguments for the kit's commands. A user's mistake (an unknown option, a missing value) is one
// sentence and exit 2, never a stack trace; --help prints the usage from the command's header comment and exits 0.
import { readFileSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** The exit code of every kit command for a run that could not start (documented in conformance/README.md and conformance/docs/running.md). */
export const EXIT_CANNOT_START = 2;

/**
 * The command line a user types to run the kit's `command` again, as they ran it: `npx site-mcp <command>` when the
 * kit's bin started it (bin/site-mcp.mjs sets SITE_MCP_INVOKED_AS, from an installed package or a checkout alike),
 * else this checkout's `npm run <command> --`. Replay lines and usage errors name it, so they run as printed.
 */
export function invokedAs(command: string): string {
  const viaBin = process.env.SITE_MCP_INVOKED_AS;
  return viaBin && viaBin.endsWith(` ${command}`) ? viaBin : `npm run ${command} --`;
}

/** Prints one sentence and exits 2: the user can fix what it names. */
export function usageError(message: string): never {
  console.error(message);
  process.exit(EXIT_CANNOT_START);
}

/** The leading `//` comment block of a command's source file: its usage text. */
export function usageOf(sourceFile: string): string {
  const lines = readFileSync(sourceFile, 'utf8').split('\n');
  const header = lines.slice(0, lines.findIndex((l) => !l.startsWith('//')));
  return header.map((l) => l.replace(/^\/\/ ?/, '')).join('\n');
}

export function parseCommandLine<T extends ParseArgsConfig>(config: T & { sourceFile: string; command: string }) {
  const { sourceFile, command, ...parseConfig } = config;
  if (process.argv.slice(2).some((a) => a === '--help' || a === '-h')) {
    console.log(usageOf(sourceFile));
    process.exit(0);
  }
  try {
    return parseArgs(parseConfig as unknown as T);
  } catch (error) {
    // node's messages name the option; the rest of the text is advice about positionals we do not need.
    const reason = (error as Error).message.split('. ')[0]!.replace(/^TypeError \[\w+\]: /, '');
    usageError(`${command}: ${reason}; run with --help for the options.`);
  }
}
