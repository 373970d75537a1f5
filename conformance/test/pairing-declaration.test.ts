// The declaration's pairing block (spec/schemas/declaration.schema.json): §4.1 names no pairing field but websiteId,
// so a target maps its own names there, or adopts ours (pairing-field-names), never both; the variants' own
// declarations, which map RFC 8628-style names, read as valid.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeclarationError, readDeclaration } from '../lib/declaration.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'site-mcp-pairing-declaration-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function declaration(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

describe('the pairing names of a declaration', () => {
  it('rule:kit-judges-by-source — the renamed variant declares its pairing names instead of adopting ours', () => {
    for (const file of ['renamed', 'own-unknown-tool']) {
      const read = readDeclaration(join(repo, `conformance/variants/${file}.declaration.yaml`));
      expect(read.pairing?.fields?.token).toBe('access_token');
      expect(read.adopts ?? []).not.toContain('pairing-field-names');
    }
  });

  it('rule:kit-judges-by-source — adopting pairing-field-names and mapping names of its own is one sentence', async () => {
    const path = await declaration('both.yaml', 'declarationVersion: 1\nadopts: [pairing-field-names]\npairing: { fields: { token: access_token } }\n');
    expect(() => readDeclaration(path)).toThrow(DeclarationError);
    expect(() => readDeclaration(path)).toThrow(/both adopts pairing-field-names and maps pairing names/);
  });

  it('rule:kit-judges-by-source — websiteId, named by §4.1, cannot be mapped', async () => {
    const path = await declaration('website.yaml', 'declarationVersion: 1\npairing: { fields: { websiteId: website_id } }\n');
    expect(() => readDeclaration(path)).toThrow(DeclarationError);
  });
});
