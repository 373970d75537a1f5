// Scope resolution (§2.1, §2.2, §9.2), driven entirely by spec/scopes.json.
import { DomainError } from './errors.js';

import { loadScopes, type ScopesFile } from '../../spec/index.js';

type Preset = ScopesFile['presets'][number];

const file = loadScopes();

export const ALL_SCOPES: readonly string[] = file.scopes.map((s) => s.name);
export const SCOPE_GRANTS: Readonly<Record<string, string>> = Object.fromEntries(file.scopes.map((s) => [s.name, s.grants]));
const ALWAYS = file.scopes.filter((s) => s.default === 'always').map((s) => s.name);
const DEFAULTS = file.scopes.filter((s) => s.default !== 'off').map((s) => s.name);
const IMPLIES = new Map(file.scopes.map((s) => [s.name, s.implies]));
const SINCE = new Map(file.scopes.map((s) => [s.name, s.since ?? '0000-00-00']));

/** Whether a scope existed on `day` (YYYY-MM-DD): §9.2 dates domain:read and the 2026-07-28 scopes. */
const existedOn = (scope: string, day: string) => (SINCE.get(scope) ?? '9999-99-99') <= day;


/** Orders scopes as the catalogue does, so stored lists and displays are stable. */
function canonical(scopes: Iterable<string>): string[] {
  const set = new Set(scopes);
  return ALL_SCOPES.filter((s) => set.has(s));
}

function presetScopesAt(preset: Preset, at: Date): string[] {
  const day = at.toISOString().slice(0, 10);
  const version = [...preset.versions].sort((a, b) => b.from.localeCompare(a.from)).find((v) => v.from <= day);
  if (!version) throw new DomainError('validation_failed', `preset ${preset.name} did not exist on ${day}`);
  return version.scopes;
}

/**
 * Resolves what a new connection is granted: the ticked scopes or a preset as it stands at `at`, plus the
 * always-on scopes. The result is stored on the connection; presets are never read again (rule
 * preset-change-never-widens). A scope that did not exist yet at `at` is refused, and a preset or the defaults
 * hold only the scopes that existed then (rule scopes-dated).
 */
export function resolveScopes(input: { scopes?: string[]; preset?: string }, at: Date): { scopes: string[]; presetLabel: string } {
  const day = at.toISOString().slice(0, 10);
  let chosen: string[];
  let presetLabel = file.customLabel;
  if (input.preset !== undefined) {
    const preset = file.presets.find((p) => p.name === input.preset);
    if (!preset) throw new DomainError('validation_failed', `unknown preset "${input.preset}"`);
    // A preset holds only the scopes that existed when the connection was made (rule scopes-dated).
    chosen = presetScopesAt(preset, at).filter((s) => existedOn(s, day));
    presetLabel = preset.label;
  } else {
    chosen = input.scopes ?? DEFAULTS.filter((s) => existedOn(s, day));
    for (const s of chosen) if (!ALL_SCOPES.includes(s)) throw new DomainError('validation_failed', `unknown scope "${s}"`);
    const notYet = chosen.filter((s) => !existedOn(s, day));
    if (notYet.length) throw new DomainError('validation_failed', `${notYet.join(', ')} did not exist yet on ${day} (scopes are dated, §9.2)`);
  }
  return { scopes: canonical([...ALWAYS, ...chosen]), presetLabel };
}

/**
 * The label the Developers page shows: a preset's label only while the connection's scopes equal that
 * preset's current contents; a connection made under an older, narrower version shows as Custom
 * (rule preset-narrow-full-shown-custom).
 */
export function displayLabel(scopes: string[], storedLabel: string, now: Date): string {
  const preset = file.presets.find((p) => p.label === storedLabel);
  if (!preset) return file.customLabel;
  const current = canonical([...ALWAYS, ...presetScopesAt(preset, now)]);
  return current.length === scopes.length && current.every((s, i) => s === scopes[i]) ? preset.label : file.customLabel;
}

/** Whether granted scopes satisfy a required one, honouring implications (domain:write ⊇ domain:read). */
export function satisfies(granted: readonly string[], required: string): boolean {
  return granted.some((g) => g === required || (IMPLIES.get(g) ?? []).includes(required));
}
