// Section content rules shared by every writer (MCP tools, the app editor, imports): content must match its
// section type's schema in spec/schemas/section-content.schema.json, which admits plain text only, so raw
// HTML or CSS can never enter (rule replace-section-no-raw-markup).
import { sharedAjv } from '../../spec/index.js';
import { DomainError } from './errors.js';
import type { Section, SectionType } from './model.js';

const ajv = sharedAjv();
const BASE = 'https://site-mcp.invalid/spec/schemas/section-content.schema.json';

/**
 * A node of section content that fields are read from and written to: an object by field name, or an array by
 * position ("items/0/title"), which JavaScript indexes by the same string keys.
 */
export function isContentNode(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** The schema of `#/$defs/<name>` in the section-content schema, as ajv holds it. */
function definition(name: string): object | undefined {
  const schema = ajv.getSchema(`${BASE}#/$defs/${name}`)?.schema;
  return typeof schema === 'object' && schema !== null ? schema : undefined;
}

export function sectionTypes(): string[] {
  const schema = definition('SectionType');
  return schema && 'enum' in schema && Array.isArray(schema.enum) ? schema.enum.filter((v): v is string => typeof v === 'string') : [];
}

/** Every field name a section type's content has at its top level (heading, body, …), in schema order. */
export function sectionFieldNames(): string[] {
  const names = new Set<string>();
  for (const type of sectionTypes()) {
    const schema = definition(type);
    const properties = schema && 'properties' in schema ? schema.properties : undefined;
    for (const name of isContentNode(properties) ? Object.keys(properties) : []) names.add(name);
  }
  return [...names];
}

/** Whether `type` is a section type of spec/schemas/section-content.schema.json. */
export function isSectionType(type: string): type is SectionType {
  return sectionTypes().includes(type);
}

export function validateSectionContent(type: string, content: unknown): void {
  const validate = ajv.getSchema(`${BASE}#/$defs/${type}`);
  if (!validate || !sectionTypes().includes(type)) {
    throw new DomainError('validation_failed', `Unknown section type "${type}".`, { issues: [{ path: '/type', message: `one of ${sectionTypes().join(', ')}` }] });
  }
  if (!validate(content)) {
    throw new DomainError('validation_failed', `The content does not match the "${type}" section schema.`, {
      issues: (validate.errors ?? []).slice(0, 20).map((e) => ({
        path: `/content${e.instancePath}`,
        message: e.params && 'additionalProperty' in e.params ? `unknown field "${String(e.params.additionalProperty)}"` : (e.message ?? 'invalid'),
      })),
    });
  }
}

/** Reads a text field addressed as "heading" or "items/0/title". */
function locate(content: Record<string, unknown>, field: string): { holder: Record<string, unknown>; key: string } | undefined {
  const parts = field.split('/');
  const key = parts.pop();
  let holder: unknown = content;
  for (const part of parts) {
    if (!isContentNode(holder)) return undefined;
    holder = holder[part];
  }
  return key !== undefined && isContentNode(holder) ? { holder, key } : undefined;
}

/**
 * Sets one plain-text field of a section (used by update_section_text and by the app editor), validates
 * the result against the type's schema, and bumps the section's rev. Mutates `section` only on success.
 */
export function setSectionText(section: Section, field: string, text: string): void {
  const next = structuredClone(section.content);
  const at = locate(next, field);
  if (!at || (at.key in at.holder && typeof at.holder[at.key] !== 'string')) {
    throw new DomainError('validation_failed', `Section ${section.sectionId} (${section.type}) has no text field "${field}".`, { issues: [{ path: '/field', message: 'not a text field of this section' }] });
  }
  at.holder[at.key] = text;
  validateSectionContent(section.type, next);
  section.content = next;
  section.rev += 1;
}
