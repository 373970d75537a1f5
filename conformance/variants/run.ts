// Runs the conformance suite against a correct variant of the reference (variant-proxy.ts, other-limits.json)
// and exits with the suite's status: `npx tsx conformance/variants/run.ts [--declared] [cli flags…]`. Without --declared the run
// checks the source only; with it, the variant's own declaration (renamed.declaration.yaml) is passed.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startReferenceServer } from '../lib/target.js';
import { startVariantProxy } from './variant-proxy.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const args = process.argv.slice(2);
const declared = args.includes('--declared');
const rest = args.filter((a) => a !== '--declared');

// Other limit values where the source gives none, and a proxy for everything else the source leaves open.
const reference = await startReferenceServer(['--decision-limits', 'conformance/variants/other-limits.json']);
const proxy = await startVariantProxy(reference.url, { renameCodes: true, extraFields: true, dropErrorDetails: true, unknownToolAsJsonRpcError: true, renameStatuses: true, movePlanId: true });
let status = 1;
try {
  status = await new Promise<number>((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx/esm', 'conformance/cli.ts', '--url', proxy.url, '--fixtures-secret', reference.fixturesSecret, ...(declared ? ['--declaration', 'conformance/variants/renamed.declaration.yaml'] : []), ...rest],
      { cwd: repo, stdio: 'inherit' },
    );
    child.once('exit', (code) => resolve(code ?? 1));
  });
} finally {
  await proxy.stop();
  await reference.stop();
}
process.exit(status);
