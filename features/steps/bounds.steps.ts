// Tool arguments past the bounds of spec/limits.json toolArguments (rule tool-arguments-bounded, our decision):
// an import whose free-form collection item nests the arguments past the depth bound, or holds more values
// than the node bound, is a validation failure; one within the bounds is accepted. Collection items are the
// one place of an import the schema leaves free, so a server without the bounds would accept them.
import { When } from '@cucumber/cucumber';
import { loadJson } from '../../spec/index.js';
import type { SiteWorld } from '../support/world.js';

const BOUNDS = loadJson<{ toolArguments: { maxDepth: number; maxNodes: number } }>('limits.json').toolArguments;

/** Objects nested `levels` deep ({ a: { a: … "leaf" } }). */
function nested(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

function snapshotWithItem(world: SiteWorld, item: unknown) {
  return {
    snapshot: {
      format: 'PortableSiteV1',
      site: { name: `Bounds ${Math.random().toString(36).slice(2, 8)}` },
      pages: [{ key: 'home', title: 'Home', sections: [{ externalKey: 'home/hero', type: world.resolve('{{type:hero}}'), content: { [world.resolve('{{field:heading}}')]: 'Bounded' } }] }],
      collections: [{ key: 'c', name: 'C', items: [item] }],
    },
  };
}

async function importWith(world: SiteWorld, name: string, item: unknown) {
  const args = snapshotWithItem(world, item);
  const { envelope } = await world.connection(name).mcp.callTool('import_site', args);
  world.last = { tool: 'import_site', connection: name, args, envelope };
}

// The arguments object is level 1, snapshot 2, collections 3, the collection 4, items 5: an item of n nested
// objects takes the arguments to 5 + n levels.
When('{string} imports a site whose collection item nests the arguments {int} level(s) past the depth bound', async function (this: SiteWorld, name: string, past: number) {
  await importWith(this, name, nested(BOUNDS.maxDepth + past - 5));
});

When('{string} imports a site whose collection item nests the arguments {int} level(s) within the depth bound', async function (this: SiteWorld, name: string, within: number) {
  await importWith(this, name, nested(BOUNDS.maxDepth - within - 5));
});

When('{string} imports a site whose collection item holds more values than the argument bound', async function (this: SiteWorld, name: string) {
  await importWith(this, name, Object.fromEntries(Array.from({ length: BOUNDS.maxNodes + 10 }, (_, i) => [`k${i}`, 1])));
});
