// A deliberately broken server: the reference in test mode (fixtures protocol on), composed as index.ts says for
// each rule named, so the checks of those rules must fail against it. `npm run conformance -- --break <rule>` and
// prove-checks.ts start it; by hand:
//
//   npx tsx conformance/broken/serve.ts --break RULE... [--host H] [--port N] [--data-dir D] [--fixtures-secret S]
//
//   --break RULE        a rule of conformance/broken/index.ts to break, repeatable (at least one)
//   --host H            listen address (default 127.0.0.1)
//   --port N            port, 0 for any free one (default 0)
//   --data-dir D        store directory (default: a fresh temporary one)
//   --fixtures-secret S the fixtures protocol's secret (default: a random one, printed)
//   --help              this text
//
// Prints the same ready line as `npm start` ("listening on <url>"). Exit codes: 0 stopped by Ctrl-C or SIGTERM;
// 2 a wrong option or a rule that cannot be broken here.
import '../lib/require-node.js';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCommandLine, usageError } from '../lib/cli-args.js';
import { BROKEN } from './index.js';
import { startBroken } from './start.js';

const { values } = parseCommandLine({
  command: 'conformance/broken/serve.ts',
  sourceFile: fileURLToPath(import.meta.url),
  options: {
    break: { type: 'string', multiple: true },
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: '0' },
    'data-dir': { type: 'string' },
    'fixtures-secret': { type: 'string' },
    // Accepted for the command line conformance/lib/target.ts gives every server it starts; a broken server seeds nothing.
    'no-seed': { type: 'boolean' },
  },
});

const rules = values.break ?? [];
if (!rules.length) usageError('conformance/broken/serve.ts: name a rule to break with --break; run with --help for the options.');
const unknown = rules.filter((rule) => !Object.hasOwn(BROKEN, rule));
if (unknown.length) usageError(`--break ${unknown.join(', ')}: not breakable here (one of ${Object.keys(BROKEN).join(', ')})`);
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) usageError(`--port takes a port number from 0 to 65535, got ${JSON.stringify(values.port)}.`);

// The data dir is kept after the server stops (a fresh temporary one unless --data-dir names one), as before.
const dataDir = values['data-dir'] ?? (await mkdtemp(join(tmpdir(), 'site-mcp-broken-')));
const server = await startBroken(rules, { host: values.host, port, dataDir, fixturesSecret: values['fixtures-secret'] });

console.log(`site-mcp reference server DELIBERATELY BROKEN for ${rules.join(', ')} listening on ${server.url}`);
if (!values['fixtures-secret']) console.log(`  fixtures secret: ${server.fixturesSecret}`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void server.stop().then(() => process.exit(0));
  });
}
