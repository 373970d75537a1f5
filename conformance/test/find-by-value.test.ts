// Finding where an answer holds a value the kit arranged (conformance/lib/find-by-value.ts; rule
// kit-judges-by-source): what a source-only run reads when the target names its fields its own way.
import { describe, expect, it } from 'vitest';
import { fieldsHolding, listsHolding, listsIn, NODE_BUDGET, pointersHolding, pointersWhere } from '../lib/find-by-value.js';

const sites = new Set(['w_1', 'w_2']);

describe('find by value', () => {
  it('finds a value at any depth, inside list items, with its pointer escaped', () => {
    const data = { result: { 'a/b': [{ id: 'w_1' }] }, other: 'w_1' };
    expect(pointersHolding(data, 'w_1')).toEqual(['/result/a~1b/0/id', '/other']);
    expect(pointersHolding(data, 'w_9')).toEqual([]);
  });

  it('finds a text framed by the target inside a longer text only when no field equals it', () => {
    expect(pointersHolding({ text: '<visitor>Hello there</visitor>' }, 'Hello there')).toEqual(['/text']);
    expect(pointersHolding({ exact: 'Hello there', framed: '«Hello there»' }, 'Hello there')).toEqual(['/exact']);
    expect(pointersHolding({ n: 3, s: '3' }, 3)).toEqual(['/n']);
  });

  it('finds the list whose items carry an arranged id, and no other', () => {
    const data = { workspace: { entries: [{ ref: 'w_1', pages: [{ id: 'p_1' }] }], tags: ['x'] } };
    expect(listsHolding(data, sites)).toEqual(['/workspace/entries']);
    expect(listsHolding({ ids: ['w_2'] }, sites)).toEqual(['/ids']);
    expect(listsHolding({ entries: [{ site: { ref: 'w_1' } }] }, sites)).toEqual(['/entries']);
    expect(listsHolding({ entries: [{ deep: { deeper: { ref: 'w_1' } } }] }, sites)).toEqual([]);
    expect(listsIn(data)).toEqual(['/workspace/entries', '/workspace/entries/0/pages', '/workspace/tags']);
  });

  it("names the item's fields that hold an arranged id, one object deep", () => {
    expect(fieldsHolding({ key: 'w_1', parent: 'w_2', name: 'x' }, sites)).toEqual(['key', 'parent']);
    expect(fieldsHolding({ site: { 'r/f': 'w_1' }, list: ['w_2'] }, sites)).toEqual(['site/r~1f']);
    expect(fieldsHolding('w_1', sites)).toEqual(['']);
  });

  it('stops searching a huge answer at its node budget', () => {
    const huge = Array.from({ length: NODE_BUDGET * 2 }, (_, i) => i);
    expect(pointersWhere(huge, (v) => v === NODE_BUDGET + 10)).toEqual([]);
    expect(pointersWhere(huge, (v) => v === 10)).toEqual(['/10']);
  });
});
