// Where a V8 CPU profile's time went (`node --cpu-prof`, e.g. `npm run bench -- mcp-throughput --cpu-prof DIR`):
// self time grouped by where the code lives (a package under node_modules, a folder of this repository, node's
// own internals, GC, idle), then the heaviest functions, then the total time under a few named functions
// (inclusive, each stack counted once).
//
//   npx tsx bench/cpu-profile-summary.ts <file.cpuprofile> [--top 25] [--under name1,name2] [--skip 0]
//
// --skip S leaves out the first S seconds (start-up and warm-up: module loading and compiling are not per call).
import { readFileSync } from 'node:fs';
import { benchArgs } from './lib/args.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const { values, positionals } = benchArgs(import.meta.url, { options: { top: { type: 'string', default: '25' }, under: { type: 'string' }, skip: { type: 'string', default: '0' } }, allowPositionals: true });
if (positionals.length !== 1) {
  console.error('usage: npx tsx bench/cpu-profile-summary.ts <file.cpuprofile> [--top 25] [--under name1,name2]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(positionals[0]!, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

/** Where a frame's code lives: a package, a folder of this repository, node internals, or a V8 pseudo-frame. */
function area(frame: ProfileNode['callFrame']): string {
  const { url, functionName } = frame;
  if (!url) return `(${functionName || 'native'})`.replace(/^\(\((.*)\)\)$/, '($1)');
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return 'node internals';
  const own = /\/(reference|conformance|spec|generated|bench)\/(?:([^/]+)\/)?/.exec(url);
  if (own) return own[2] && !own[2].includes('.') ? `${own[1]}/${own[2]}` : own[1]!;
  return url;
}

const self = new Map<number, number>();
let total = 0;
let elapsed = 0;
const skipMicros = Number(values.skip) * 1e6;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  elapsed += dt;
  if (elapsed < skipMicros) return;
  self.set(id, (self.get(id) ?? 0) + dt);
  total += dt;
});
const idle = [...self].filter(([id]) => byId.get(id)!.callFrame.functionName === '(idle)').reduce((s, [, t]) => s + t, 0);
const busy = total - idle;
const pct = (t: number) => `${((t / busy) * 100).toFixed(1).padStart(5)}%`;

const areas = new Map<string, number>();
const functions = new Map<string, number>();
for (const [id, t] of self) {
  const { callFrame } = byId.get(id)!;
  if (callFrame.functionName === '(idle)') continue;
  areas.set(area(callFrame), (areas.get(area(callFrame)) ?? 0) + t);
  const key = `${callFrame.functionName || '(anonymous)'} ${callFrame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(reference|conformance|spec|bench)\//, '$1/')}:${callFrame.lineNumber + 1}`;
  functions.set(key, (functions.get(key) ?? 0) + t);
}
console.log(`${positionals[0]}: ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy (percentages of busy time)\n\nself time by area:`);
for (const [name, t] of [...areas].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`  ${pct(t)}  ${name}`);
console.log(`\nheaviest functions (self):`);
for (const [name, t] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) console.log(`  ${pct(t)}  ${name}`);

if (values.under) {
  console.log(`\ntotal time under (inclusive):`);
  for (const name of values.under.split(',')) {
    let t = 0;
    for (const [id, dt] of self) {
      for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
        if (byId.get(n)!.callFrame.functionName === name) {
          t += dt;
          break;
        }
      }
    }
    console.log(`  ${pct(t)}  ${name}`);
  }
}
