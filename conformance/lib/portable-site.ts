// What a PortableSiteV1 snapshot contains (§2.3), for comparing two snapshots, and where a target's answers carry
// a snapshot and a new site's id: the round-trip check of rule portable-site-round-trip, shared by its scenario
// (features/steps/portable-site.steps.ts) and its property (conformance/properties/round-trip.test.ts).
import type { McpConnection } from './mcp-client.js';
import { outputPointer } from './declaration.js';
import { pointer } from '../../features/support/json.js';

type Json = Record<string, unknown>;
export type Snapshot = Json & { pages: (Json & { key: string; sections: (Json & { externalKey: string; type: string; content: Json; blocks?: Json[] })[] })[] };

const byJson = (a: unknown, b: unknown) => JSON.stringify(a).localeCompare(JSON.stringify(b));
const only = (o: unknown, keys: string[]) => Object.fromEntries(keys.filter((k) => (o as Json)?.[k] !== undefined).map((k) => [k, (o as Json)[k]]));
const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);

/**
 * What §2.3 says a snapshot contains, in a form two snapshots compare by: pages in order with their sections in
 * order (content, layout, hidden, blocks); fonts, services, collections and redirects as sets; the contact block
 * and the analytics identifiers; assets as a set of their keys and alt texts (an absent alt is an empty one). Not
 * ids, revisions or the export time, which a new site may renumber, and not the site's identity or theme, which §2.3
 * does not list; not an asset's URL either, since the site serves its own copy of what it fetched (rule
 * portable-site-assets-carried: that URL is checked by serving, features/steps/portable-site.steps.ts).
 */
export function snapshotContents(s: Snapshot) {
  return {
    pages: list(s.pages).map((p) => ({
      ...only(p, ['key', 'title', 'slug', 'kind', 'seo', 'hidden']),
      sections: list(p.sections).map((x) => ({ ...only(x, ['externalKey', 'type', 'content', 'layout', 'hidden']), blocks: list(x.blocks).map((b) => only(b, ['key', 'type', 'content'])) })),
    })),
    fonts: [...list(s.fonts)].sort(byJson),
    // A service's key names it within one snapshot; a new site may give its services new ones.
    services: list(s.services).map((x) => only(x, ['name', 'description', 'price', 'durationMinutes'])).sort(byJson),
    collections: list(s.collections).map((x) => only(x, ['name', 'items'])).sort(byJson),
    redirects: list(s.redirects).map((x) => only(x, ['from', 'to', 'permanent'])).sort(byJson),
    contact: s.contact,
    analytics: s.analytics,
    assets: list(s.assets).map((x) => ({ key: x.key, alt: x.alt ?? '' })).sort(byJson),
  };
}

/**
 * The object in `data` that names the format PortableSiteV1 (§9.1 "the exchange format ... is named PortableSiteV1"),
 * at any depth, `data` itself included: the first object (depth first) with a property whose value is that name
 * (`format` in ours, in whatever property a target names it).
 */
export function snapshotIn(data: unknown): Snapshot | undefined {
  if (!data || typeof data !== 'object') return undefined;
  if (!Array.isArray(data) && Object.values(data).includes('PortableSiteV1')) return data as Snapshot;
  for (const value of Object.values(data)) {
    const found = snapshotIn(value);
    if (found) return found;
  }
  return undefined;
}

/** The snapshot an export_site answer carries: where the declaration says, else the object naming the format. */
export function exportedSnapshot(data: unknown): Snapshot | undefined {
  const at = outputPointer('export_site', '/snapshot');
  return (at ? pointer(data, at) : snapshotIn(data)) as Snapshot | undefined;
}

/** Every string in `data`, at any depth. */
const stringsIn = (data: unknown): string[] => (typeof data === 'string' ? [data] : data && typeof data === 'object' ? Object.values(data).flatMap(stringsIn) : []);

/**
 * The new site's id in an import_site answer (§4.3 "returns new website id"): where the declaration says, else
 * the string of the answer that export_site takes as a website id (other than `except`, the site the connection
 * already had).
 */
export async function importedWebsiteId(mcp: McpConnection, data: unknown, except: string[] = []): Promise<string | undefined> {
  const at = outputPointer('import_site', '/websiteId');
  if (at) return String(pointer(data, at));
  for (const candidate of new Set(stringsIn(data))) {
    if (except.includes(candidate) || candidate.length > 200) continue;
    if ((await mcp.callTool('export_site', { websiteId: candidate })).envelope.ok) return candidate;
  }
  return undefined;
}
