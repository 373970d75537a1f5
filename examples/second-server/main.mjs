#!/usr/bin/env node
// node examples/second-server/main.mjs [--port N] [--base /path] [--fixtures-secret S]
// Prints one line, "listening <base url>", once it is ready; stops on SIGINT or SIGTERM.
import { parseArgs } from 'node:util';
import { startBakehouse } from './server.mjs';

let values;
try {
  ({ values } = parseArgs({ options: { port: { type: 'string', default: '0' }, base: { type: 'string', default: '/bakehouse' }, 'fixtures-secret': { type: 'string' } } }));
} catch (error) {
  console.error(`${error.message.split('\n')[0]} (options: --port N, --base /path, --fixtures-secret S)`);
  process.exit(2);
}
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535 || !/^\/[a-z0-9-]+$/.test(values.base)) {
  console.error('--port takes 0 to 65535 and --base a path such as /bakehouse.');
  process.exit(2);
}
const server = await startBakehouse({ port, base: values.base, fixturesSecret: values['fixtures-secret'] ?? process.env.BAKEHOUSE_FIXTURES_SECRET });
console.log(`listening ${server.url}`);
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => void server.close().then(() => process.exit(0)));
