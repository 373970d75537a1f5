// Declared output fields (spec/schemas/declaration.schema.json outputFields; rule kit-judges-by-source): a
// declaration maps a field of our output shape to where the target's data carries it, a top-level field or one
// inside list items, or the data itself.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { outputPointer as pointerIn, readDeclaration } from '../lib/declaration.js';

const file = join(mkdtempSync(join(tmpdir(), 'site-mcp-output-fields-')), 'declaration.yaml');
writeFileSync(
  file,
  [
    'declarationVersion: 1',
    'implementation: { name: output-fields-test }',
    'outputFields:',
    '  list_sites: { sites: /entries, "sites/*/websiteId": /entries/*/site/ref }',
    '  export_site: { snapshot: "" }',
    '  "prepare_*": { planId: /plan/id, websiteId: /subject }',
    '  prepare_publish: { websiteId: /site/ref }',
  ].join('\n'),
);
const declaration = readDeclaration(file);
const outputPointer = (tool: string, path: string) => pointerIn(tool, path, declaration);

describe('outputFields', () => {
  it('maps a top-level field, and what follows it in the path', () => {
    expect(outputPointer('list_sites', '/sites')).toBe('/entries');
    expect(outputPointer('list_sites', '/sites/0/name')).toBe('/entries/0/name');
  });

  it('maps a field inside list items, the index carried over', () => {
    expect(outputPointer('list_sites', '/sites/3/websiteId')).toBe('/entries/3/site/ref');
  });

  it('maps a field to the data itself', () => {
    expect(outputPointer('export_site', '/snapshot')).toBe('');
    expect(outputPointer('export_site', '/snapshot/format')).toBe('/format');
  });

  it("takes a tool's own entry over its prefix's, and the prefix's where the tool has none", () => {
    expect(outputPointer('prepare_publish', '/websiteId')).toBe('/site/ref');
    expect(outputPointer('prepare_publish', '/planId')).toBe('/plan/id');
    expect(outputPointer('prepare_unpublish', '/websiteId')).toBe('/subject');
  });

  it('reads nothing by name that is neither declared nor named by the source', () => {
    expect(outputPointer('list_pages', '/pages')).toBeUndefined();
    expect(outputPointer('list_sites', '/*')).toBeUndefined();
  });
});
