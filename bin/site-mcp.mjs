#!/usr/bin/env node
// The kit's one command: `site-mcp serve | init | conformance | merge-reports | prove-checks | official-suite`, each the program of this
// package with the same flags, run through tsx (a dependency of the package, so an installed tarball needs no
// build step and no dev-only path). Exit codes: 0 all passed, 1 a check failed, 2 a usage or prerequisite error.
import { fileURLToPath } from 'node:url';

const major = Number(process.versions.node.split('.')[0]);
if (major < 22) {
  console.error(`site-mcp needs Node.js 22 or newer; this is ${process.versions.node}. Install a current Node.js and run it again.`);
  process.exit(2);
}

const COMMANDS = {
  serve: { file: '../reference/main.ts', what: 'run the reference server (MCP endpoint, app pages, OAuth)' },
  init: { file: '../conformance/init.ts', what: 'write a starting declaration and expected-failures file for --url' },
  conformance: { file: '../conformance/cli.ts', what: 'run the conformance suite against --url (or a reference it starts)' },
  'merge-reports': { file: '../conformance/merge-reports.ts', what: 'join the reports of a run\'s shards (conformance --shard I/N) into one' },
  'prove-checks': { file: '../conformance/prove-checks.ts', what: 'show that each check fails against a server broken for it' },
  'official-suite': { file: '../conformance/official-suite.ts', what: 'run the official MCP conformance suite against --url with a --token (installed beside)' },
};

const HELP = `Usage: site-mcp <command> [options]

Commands:
${Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(16)}${c.what}`).join('\n')}

Run "site-mcp <command> --help" for the options of a command.

Exit codes: 0 success (every check passed), 1 a check failed, 2 a usage or prerequisite error
(unknown option, unreachable target, fixtures protocol missing, Node.js older than 22).`;

const [command, ...rest] = process.argv.slice(2);
if (!command || command === '--help' || command === '-h' || command === 'help') {
  console.log(HELP);
  process.exit(command ? 0 : 2);
}
if (command === '--version' || command === '-v') {
  const { readFileSync } = await import('node:fs');
  console.log(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version);
  process.exit(0);
}
const entry = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
if (!entry) {
  console.error(`site-mcp: unknown command "${command}"; use one of ${Object.keys(COMMANDS).join(', ')} (site-mcp --help).`);
  process.exit(2);
}

const { register } = await import('tsx/esm/api');
register();
const file = fileURLToPath(new URL(entry.file, import.meta.url));
// The program reads its flags from process.argv as if it had been started directly; the lines it prints for the
// user to run again (replay:, usage errors) name this command (conformance/lib/cli-args.ts invokedAs).
process.argv = [process.argv[0], file, ...rest];
process.env.SITE_MCP_INVOKED_AS = `npx site-mcp ${command}`;
await import(new URL(entry.file, import.meta.url).href);
