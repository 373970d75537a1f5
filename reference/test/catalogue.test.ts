// Every tool of the spec has a handler in the reference server (no not_implemented), no handler exists for a
// tool the spec does not define, and every step of the call path names a rule of the catalogue.
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../spec/index.js';
import { handlers } from '../tools/index.js';
import { CALL_STEPS } from '../mcp/pipeline.js';
import { ruleIds } from '../../spec/index.js';

describe('reference catalogue', () => {
  it('implements exactly the tools of spec/tools', () => {
    expect(Object.keys(handlers).sort()).toEqual(loadTools().map((t) => t.name).sort());
  });

  it('names a catalogue rule at every step of the call path, each rule once', () => {
    const ids = ruleIds();
    for (const { rule } of CALL_STEPS) expect(ids.has(rule), rule).toBe(true);
    expect(new Set(CALL_STEPS.map((s) => s.rule)).size).toBe(CALL_STEPS.length);
  });
});
