// import_site (§4.3): a PortableSiteV1 payload becomes a new unpublished draft website, or, with
// mergeIntoWebsiteId, is merged into an existing site by externalKey under the merge rules (domain/import-merge.ts).
// Unattended (no review), content:write only (no advanced grant).
import { DomainError } from '../domain/errors.js';
import { importSnapshot } from '../domain/import-merge.js';
import { validatePortablePages } from '../domain/portable-site.js';
import { editorUrl } from '../domain/site.js';
import { defineTool } from './types.js';

const import_site = defineTool('import_site', async ({ store, net, assetFiles, storageBudgets, limits, baseUrl, ws, connection, args, note, now }) => {
  const size = Buffer.byteLength(JSON.stringify(args.snapshot));
  const cap = limits.importMaxBytes.value;
  if (size > cap) throw new DomainError('over_cap', `The snapshot is ${size} bytes; imports are capped at ${cap} bytes. Split it or drop large collections.`, { limit: cap });
  validatePortablePages(args.snapshot.pages);
  const imported = await importSnapshot({ store, net, assetFiles, storageBudgets, limits }, ws, connection, args.snapshot, { mergeIntoWebsiteId: args.mergeIntoWebsiteId, forceKeys: args.forceKeys }, now);
  note(imported.summary);
  const url = editorUrl(baseUrl, imported.websiteId);
  if (imported.merged) {
    const { websiteId, restorePointId, inserted, updated, keptFields, assetsSkipped } = imported;
    return { websiteId, restorePointId, inserted, updated, keptFields, editorUrl: url, merged: true, assetsSkipped };
  }
  return { websiteId: imported.websiteId, editorUrl: url, merged: false, restorePointId: null, keptFields: [], inserted: [], updated: [], assetsSkipped: imported.assetsSkipped };
});

export const importHandlers = { import_site };
