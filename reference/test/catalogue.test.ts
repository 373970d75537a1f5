// Every tool of the spec has a handler in the reference server (no not_implemented), and no handler exists
// for a tool the spec does not define.
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../spec/index.js';
import { handlers } from '../tools/index.js';
import { BREAKABLE } from '../domain/breaks.js';
import { ruleIds } from '../../spec/index.js';

describe('reference catalogue', () => {
  it('implements exactly the tools of spec/tools', () => {
    expect(Object.keys(handlers).sort()).toEqual(loadTools().map((t) => t.name).sort());
  });

  it('can deliberately break only catalogue rules', () => {
    const ids = ruleIds();
    for (const rule of BREAKABLE) expect(ids.has(rule), rule).toBe(true);
  });
});
