// Runs the conformance suite against a correct variant of the reference (variant-proxy.ts, other-limits.json)
// and exits with the suite's status: `npx tsx conformance/variants/run.ts [--declared] [cli flags…]`. Without --declared the run
// checks the source only; with it, the variant's own declaration (renamed.declaration.yaml) is passed. Besides codes,
// extra fields and statuses, the variant numbers site revisions from 0 in steps of 3, section revs from 100, keys added sections its own
// way, names its lists and ids its own way, groups its draft changes, labels presets its own way, answers export_site with the snapshot as data and names
// the pairing bodies' fields and statuses after RFC 8628 (RENAMED_PAIRING).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startReferenceServer } from '../lib/target.js';
import { RENAMED_PAIRING, startVariantProxy } from './variant-proxy.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const args = process.argv.slice(2);
const declared = args.includes('--declared');
// --own-unknown-tool-code: the same variant, but an unknown tool is refused by an envelope with a code of its own
// (E_NO_SUCH_TOOL) instead of a JSON-RPC error; pass its declaration (own-unknown-tool.declaration.yaml) yourself.
const ownUnknownToolCode = args.includes('--own-unknown-tool-code');
// --one-code: every refusal of a tool call carries the one code E_REFUSED (run it without a declaration: the
// variant's declaration names a code per kind).
const oneCode = args.includes('--one-code');
const rest = args.filter((a) => a !== '--declared' && a !== '--own-unknown-tool-code' && a !== '--one-code');

// Other limit values where the source gives none, and a proxy for everything else the source leaves open.
const reference = await startReferenceServer(['--decision-limits', 'conformance/variants/other-limits.json']);
const proxy = await startVariantProxy(reference.url, {
  renameCodes: true,
  extraFields: true,
  dropErrorDetails: true,
  ...(ownUnknownToolCode ? { unknownToolCode: 'E_NO_SUCH_TOOL' } : { unknownToolAsJsonRpcError: true }),
  renameStatuses: true,
  movePlanId: true,
  ownListNames: true,
  revisionsFromZero: true,
  sectionRevsFrom: 100,
  otherSectionKeys: true,
  groupedDraftChanges: true,
  otherPresetLabels: true,
  snapshotAtRoot: true,
  renamePairing: RENAMED_PAIRING,
  ...(oneCode ? { oneCodeForEveryRefusal: 'E_REFUSED' } : {}),
});
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
