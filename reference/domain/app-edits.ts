// An edit made by a signed-in person in the app's editor (§1.1: the same draft MCP edits). Remembers which
// fields were edited in the app, so an import merge keeps them where the push left the field at its base and
// reports both versions where the push changed it too (rules import-merge-field-by-field, import-merge-three-way).
import type { WorkspaceDoc } from './model.js';
import { DomainError } from './errors.js';
import { findSection, recordChange } from './site.js';
import { setSectionText } from './section-content.js';
import { checkAppEditor } from './authorize.js';

export function appEditSectionText(ws: WorkspaceDoc, edit: { userId: string; websiteId: string; sectionId: string; field: string; text: string }, now: Date) {
  const site = checkAppEditor(ws, edit.userId, edit.websiteId);
  const { section } = findSection(site, edit.sectionId);
  setSectionText(section, edit.field, edit.text);
  const edited = new Set(site.appEdits[section.sectionId] ?? []);
  edited.add(edit.field);
  site.appEdits[section.sectionId] = [...edited];
  const siteRevision = recordChange(site, now, 'app-edit', `Section text edited in the app`);
  return { rev: section.rev, siteRevision };
}

/**
 * A product's name or a document's title edited in the app: a product's revision moves on and a document's
 * stored content changes, so a plan pinned to either is voided (rules plan-pins-product-revision,
 * plan-pins-document-fingerprint).
 */
export function appEditRecord(ws: WorkspaceDoc, edit: { userId: string; websiteId: string; kind: 'product' | 'document'; recordId: string; text: string }, now: Date) {
  const site = checkAppEditor(ws, edit.userId, edit.websiteId);
  const [list, idField, textField] = edit.kind === 'product' ? [site.records.products, 'productId', 'name'] as const : [site.records.documents, 'documentId', 'title'] as const;
  const record = list.find((r) => r[idField] === edit.recordId);
  if (!record) throw new DomainError('not_found', `No ${edit.kind} "${edit.recordId}" on this website.`);
  record[textField] = edit.text;
  if (edit.kind === 'product') record.revision = Number(record.revision ?? 0) + 1;
  record.updatedAt = now.toISOString();
  return {};
}
