// Finding where a target's answer holds a value (rule kit-judges-by-source). §4.3 names no result fields, so a
// target's answer may call a list, an id or a text anything; the kit knows the values it arranged (the ids of its
// worlds, the texts it wrote) and received, and looks for them instead of for our names. Every function here
// answers what it found, all of it: the caller decides, and calls more than one place ambiguous, never a guess.
import { isDeepStrictEqual } from 'node:util';

const escape = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** Nodes visited at most in one answer: a larger answer is searched in part (and its search says so). */
export const NODE_BUDGET = 100_000;

/** Every pointer of `data` (arrays and objects included, depth first) whose value satisfies `test`. */
export function pointersWhere(data: unknown, test: (value: unknown) => boolean): string[] {
  const found: string[] = [];
  let budget = NODE_BUDGET;
  const walk = (value: unknown, at: string): void => {
    if (--budget < 0) return;
    if (test(value)) found.push(at);
    if (Array.isArray(value)) value.forEach((item, i) => walk(item, `${at}/${i}`));
    else if (value !== null && typeof value === 'object') for (const [key, item] of Object.entries(value)) walk(item, `${at}/${escape(key)}`);
  };
  walk(data, '');
  return found;
}

/** Where `data` holds `expected`: equal values; for a text, also a longer text that contains it (a target may frame it). */
export function pointersHolding(data: unknown, expected: unknown): string[] {
  const equal = pointersWhere(data, (value) => isDeepStrictEqual(value, expected));
  if (equal.length > 0 || typeof expected !== 'string' || expected === '') return equal;
  return pointersWhere(data, (value) => typeof value === 'string' && value.includes(expected));
}

/**
 * The pointers, relative to `item`, of its own fields and of the fields of the objects directly in it that hold one
 * of `ids` (an item may nest its id: `{ "site": { "ref": "w_1" } }`); "" when the item is one of them.
 */
export function fieldsHolding(item: unknown, ids: ReadonlySet<string>): string[] {
  if (typeof item === 'string') return ids.has(item) ? [''] : [];
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return [];
  const found: string[] = [];
  for (const [key, value] of Object.entries(item)) {
    if (typeof value === 'string' && ids.has(value)) found.push(escape(key));
    else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const [inner, nested] of Object.entries(value)) if (typeof nested === 'string' && ids.has(nested)) found.push(`${escape(key)}/${escape(inner)}`);
    }
  }
  return found;
}

/** Pointers to the arrays of `data` some item of which is, or has a field that is, one of `ids`. */
export function listsHolding(data: unknown, ids: ReadonlySet<string>): string[] {
  return pointersWhere(data, (value) => Array.isArray(value) && value.some((item) => fieldsHolding(item, ids).length > 0));
}

/** Pointers to every array of `data`. */
export function listsIn(data: unknown): string[] {
  return pointersWhere(data, Array.isArray);
}
