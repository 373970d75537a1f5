// Every schema compiles under Ajv strict mode, every tool's input and output schema compiles, and the
// state-machine data names only real rules.
import { describe, expect, it } from 'vitest';
import { createAjv, loadJson, loadSchemas, loadTools, ruleIds, toolValidator } from '../index.js';

describe('schemas', () => {
  it('compile under Ajv strict mode', () => {
    const ajv = createAjv();
    for (const id of loadSchemas().keys()) expect(() => ajv.getSchema(id), id).not.toThrow();
    expect(loadSchemas().size).toBeGreaterThanOrEqual(4);
  });

  it('compile every $defs entry on its own (a strict-mode error inside a definition is not hidden)', () => {
    const ajv = createAjv();
    let count = 0;
    for (const [id, schema] of loadSchemas()) {
      for (const name of Object.keys((schema.$defs ?? {}) as Record<string, unknown>)) {
        expect(() => ajv.getSchema(`${id}#/$defs/${name}`), `${id}#/$defs/${name}`).not.toThrow();
        count++;
      }
    }
    expect(count).toBeGreaterThan(20);
  });

  it('compile every tool input and output schema', () => {
    // The reference compiles each on its tool's first call (reference/runtime.ts): a schema Ajv refuses shows here.
    const tools = loadTools();
    expect(tools.length).toBeGreaterThan(0);
    for (const { name } of tools) {
      expect(typeof toolValidator(name, 'input'), name).toBe('function');
      expect(typeof toolValidator(name, 'output'), name).toBe('function');
    }
  });

  it('make every tool input an object schema that refuses unknown properties', () => {
    for (const tool of loadTools()) {
      const input = tool.inputSchema as { type?: string; additionalProperties?: unknown; oneOf?: { additionalProperties?: unknown }[] };
      expect(input.type, tool.name).toBe('object');
      const closed = input.additionalProperties === false || (input.oneOf ?? []).every((b) => b.additionalProperties === false);
      expect(closed, `${tool.name} must refuse unknown arguments`).toBe(true);
    }
  });

  it('rule:state-names — plan-states.json transitions name only catalogue rules', () => {
    const ids = ruleIds();
    const machines = loadJson<{ machines: Record<string, { transitions: { rules: string[] }[] }> }>('plan-states.json').machines;
    for (const [name, machine] of Object.entries(machines)) {
      for (const t of machine.transitions) for (const r of t.rules) expect(ids.has(r), `${name}: ${r}`).toBe(true);
    }
  });
});
