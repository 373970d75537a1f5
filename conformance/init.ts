// Writes a starting declaration for a target, from what the kit can observe of it, and an empty expected-failures
// file: the two files a first `site-mcp conformance --declaration … --expected-failures …` run takes.
//
//   site-mcp init --url U --fixtures-secret S [--declaration FILE] [--expected-failures FILE] [--force]
//   (in a checkout of the kit: npm run init -- …)
//
// --url U, --fixtures-secret S  the target and the secret of its fixtures protocol (or SITE_MCP_URL and
//                        SITE_MCP_FIXTURES_SECRET): the target must be running in test mode.
// --declaration FILE     where the declaration goes (default site-mcp.declaration.yaml in the current folder).
// --expected-failures FILE  where the empty expected-failures file goes (default site-mcp.expected-failures.yaml).
// --force                replace files that exist (without it, an existing file stops init with exit 2).
//
// It reads the fixtures handshake, creates one world (an owner and a site) and a site:read connection through the
// fixtures protocol, and observes: the section vocabulary of the world answer (sections; rule section-types),
// the §4.3 tools tools/list does not name (notImplemented.tools; rule tool-catalogue-exact), whether the 401 of the
// MCP endpoint points at protected-resource metadata (notImplemented.parts oauth; rule protected-resource-metadata),
// how a call of a tool that does not exist is refused (unknownTool and errorCodes.unknown_tool; rule
// error-failure-shape) and whether a success and a refusal carry the envelope in both encodings (mcpEncoding; rule
// tool-result-envelope). Each entry is commented with its rule; what it cannot observe (the other error codes,
// output fields, adopted decisions) is left for you to add, as conformance/docs/declaration.md describes.
//
// Exit codes: 0 both files written; 2 nothing written (a wrong option, a file that exists without --force, an
// unreachable target, no fixtures protocol, a wrong secret), with one sentence that says what to do.
import './lib/require-node.js';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCommandLine, usageError } from './lib/cli-args.js';

const { values } = parseCommandLine({
  command: 'site-mcp init',
  sourceFile: fileURLToPath(import.meta.url),
  options: {
    url: { type: 'string' },
    'fixtures-secret': { type: 'string' },
    declaration: { type: 'string', default: 'site-mcp.declaration.yaml' },
    'expected-failures': { type: 'string', default: 'site-mcp.expected-failures.yaml' },
    force: { type: 'boolean', default: false },
  },
});
const url = (values.url ?? process.env.SITE_MCP_URL)?.replace(/\/$/, '');
const fixturesSecret = values['fixtures-secret'] ?? process.env.SITE_MCP_FIXTURES_SECRET;
if (!url || !fixturesSecret) usageError('site-mcp init needs the target: pass --url and --fixtures-secret (or SITE_MCP_URL and SITE_MCP_FIXTURES_SECRET).');
const declarationFile = resolvePath(values.declaration!);
const expectedFile = resolvePath(values['expected-failures']!);
for (const file of [declarationFile, expectedFile]) if (existsSync(file) && !values.force) usageError(`${file} exists; pass --force to replace it, or name another file.`);

// init discovers the choices: its calls are judged by the source alone, whatever declaration the environment names.
delete process.env.SITE_MCP_DECLARATION;
const { handshake, PrerequisiteError } = await import('./lib/prerequisites.js');
let supports: string[];
try {
  supports = await handshake({ url, fixturesSecret });
} catch (error) {
  if (error instanceof PrerequisiteError) usageError(error.message);
  throw error;
}
const { declarationYaml, EXPECTED_FAILURES_YAML, observeTarget } = await import('./lib/init-declaration.js');
let observed: Awaited<ReturnType<typeof observeTarget>>;
try {
  observed = await observeTarget({ url, fixturesSecret }, supports);
} catch (error) {
  usageError(`init could not observe ${url}: ${(error as Error).message.split('\n')[0]!.replace(/\.$/, '')}.`);
}
await writeFile(declarationFile, declarationYaml(observed, { url, supports }));
await writeFile(expectedFile, EXPECTED_FAILURES_YAML);
console.log(`wrote ${declarationFile} and ${expectedFile}; run: site-mcp conformance --url ${url} --fixtures-secret "$SITE_MCP_FIXTURES_SECRET" --declaration ${values.declaration} --expected-failures ${values['expected-failures']}`);
process.exit(0);
