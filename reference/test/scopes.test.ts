// Scope resolution as spec/scopes.json drives it (§2.1, §2.2, §9.2; reference/domain/scopes.ts): what a new
// connection is granted from ticked scopes, the defaults or a preset on a given day, the label the Developers
// page shows, and implication. The features check grants black-box through calls; these pin the dated
// boundaries and the stored order.
import { describe, expect, it } from 'vitest';
import { ALL_SCOPES, displayLabel, resolveScopes, satisfies, SCOPE_GRANTS } from '../domain/scopes.js';

const day = (d: string) => new Date(`${d}T12:00:00.000Z`);
/** The refusal `run` throws: a validation_failed with exactly this message (the app and pairing show it). */
function refused(run: () => unknown, message: string) {
  expect(run).toThrow(expect.objectContaining({ code: 'validation_failed', message }));
}
const FULL_NOW = ['site:read', 'content:write', 'publish', 'ai:generate', 'crm:read', 'crm:write', 'settings:write', 'domain:write', 'domain:read', 'access:write', 'communications:write', 'commerce:write', 'workspace:write'];

describe('resolveScopes rule:scope-site-read-always-on rule:scopes-dated', () => {
  it('ticked scopes get site:read added and are stored in the catalogue order, labelled Custom', () => {
    expect(resolveScopes({ scopes: ['crm:read', 'content:write'] }, day('2026-09-01'))).toEqual({ scopes: ['site:read', 'content:write', 'crm:read'], presetLabel: 'Custom' });
    expect(resolveScopes({ scopes: [] }, day('2026-09-01')).scopes).toEqual(['site:read']);
    expect(resolveScopes({ scopes: ['site:read', 'site:read'] }, day('2026-09-01')).scopes).toEqual(['site:read']);
  });

  it('rule:scope-defaults — without a choice: the scopes that are on by default', () => {
    expect(resolveScopes({}, day('2026-09-01'))).toEqual({ scopes: ['site:read', 'content:write'], presetLabel: 'Custom' });
  });

  it('an unknown scope is refused by name', () => {
    refused(() => resolveScopes({ scopes: ['content:write', 'admin'] }, day('2026-09-01')), 'unknown scope "admin"');
  });

  it('a scope is refused before the day it came (§9.2) and granted from that day on', () => {
    refused(() => resolveScopes({ scopes: ['ai:generate', 'crm:write'] }, day('2026-07-27')), 'ai:generate, crm:write did not exist yet on 2026-07-27 (scopes are dated, §9.2)');
    expect(resolveScopes({ scopes: ['ai:generate'] }, day('2026-07-28')).scopes).toEqual(['site:read', 'ai:generate']);
    refused(() => resolveScopes({ scopes: ['domain:read'] }, day('2026-08-14')), 'domain:read did not exist yet on 2026-08-14 (scopes are dated, §9.2)');
    expect(resolveScopes({ scopes: ['domain:read'] }, day('2026-08-15')).scopes).toEqual(['site:read', 'domain:read']);
  });

  it('a preset is read as it stood that day, holding only the scopes that existed then', () => {
    expect(resolveScopes({ preset: 'full' }, day('2026-08-15'))).toEqual({ scopes: FULL_NOW, presetLabel: 'Full access' });
    // The earlier full (until 2026-08-14) lacked ai:generate, workspace:write and domain:read.
    expect(resolveScopes({ preset: 'full' }, day('2026-08-14')).scopes).toEqual(['site:read', 'content:write', 'publish', 'crm:read', 'crm:write', 'settings:write', 'domain:write', 'access:write', 'communications:write', 'commerce:write']);
    // Before 2026-07-28 the dated scopes did not exist, so that full holds none of them.
    expect(resolveScopes({ preset: 'full' }, day('2026-07-01')).scopes).toEqual(['site:read', 'content:write', 'publish', 'crm:read', 'settings:write', 'commerce:write']);
    expect(resolveScopes({ preset: 'content' }, day('2026-09-01'))).toEqual({ scopes: ['site:read', 'content:write'], presetLabel: 'Content editing' });
    expect(resolveScopes({ preset: 'read-only' }, day('2026-09-01'))).toEqual({ scopes: ['site:read'], presetLabel: 'Read only' });
  });

  it('an unknown preset, or one before its first version, is refused', () => {
    refused(() => resolveScopes({ preset: 'admin' }, day('2026-09-01')), 'unknown preset "admin"');
    refused(() => resolveScopes({ preset: 'full' }, day('1999-12-31')), 'preset full did not exist on 1999-12-31');
  });
});

describe('displayLabel rule:preset-narrow-full-shown-custom rule:preset-change-never-widens', () => {
  it('a preset label only while the scopes equal the preset as it stands now', () => {
    const now = day('2026-09-01');
    expect(displayLabel(FULL_NOW, 'Full access', now)).toBe('Full access');
    const older = resolveScopes({ preset: 'full' }, day('2026-08-14'));
    expect(displayLabel(older.scopes, older.presetLabel, now)).toBe('Custom');
    expect(displayLabel(older.scopes, older.presetLabel, day('2026-08-14'))).toBe('Full access');
    // Same length, other scopes.
    expect(displayLabel(['site:read', 'crm:read'], 'Content editing', now)).toBe('Custom');
    // More scopes than the preset, the preset's among them.
    expect(displayLabel(['site:read', 'content:write', 'publish'], 'Content editing', now)).toBe('Custom');
    expect(displayLabel(['site:read', 'content:write'], 'Content editing', now)).toBe('Content editing');
    expect(displayLabel(['site:read'], 'Custom', now)).toBe('Custom');
    expect(displayLabel(['site:read'], 'Something else', now)).toBe('Custom');
  });
});

describe('satisfies rule:scope-domain-write-satisfies-read', () => {
  it('a scope satisfies itself and what it implies, nothing else', () => {
    expect(satisfies(['domain:write'], 'domain:write')).toBe(true);
    expect(satisfies(['domain:write'], 'domain:read')).toBe(true);
    expect(satisfies(['domain:read'], 'domain:write')).toBe(false);
    expect(satisfies(['site:read', 'crm:read'], 'crm:write')).toBe(false);
    expect(satisfies([], 'site:read')).toBe(false);
  });

  it('the catalogue: every scope of spec/scopes.json with what it grants', () => {
    expect(ALL_SCOPES).toEqual(['site:read', 'content:write', 'publish', 'ai:generate', 'crm:read', 'crm:write', 'settings:write', 'domain:write', 'domain:read', 'access:write', 'communications:write', 'commerce:write', 'workspace:write']);
    expect(SCOPE_GRANTS['domain:read']).toBe('Read domain connection and verification status; nothing else.');
  });
});
