// JSON helpers of the step definitions: JSON pointers, expected values written in steps, subset matching.

/** The value at a JSON pointer (RFC 6901) in `value`, undefined when absent. */
export function pointer(value: unknown, path: string): unknown {
  if (path === '' || path === '/') return value;
  return path
    .split('/')
    .slice(1)
    .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], value);
}

/** A step's expected value: JSON when it parses (numbers, booleans, arrays, objects), else the text itself. */
export const parse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/** `actual` contains `expected`: objects by their listed keys, arrays item by item, scalars equal. */
export function subsetMismatch(actual: unknown, expected: unknown, path = ''): string | undefined {
  if (expected !== null && typeof expected === 'object') {
    if (Array.isArray(expected)) {
      if (!Array.isArray(actual)) return `${path || '/'} is not an array`;
      if (actual.length < expected.length) return `${path || '/'} has ${actual.length} items, expected at least ${expected.length}`;
      for (let i = 0; i < expected.length; i++) {
        const m = subsetMismatch(actual[i], expected[i], `${path}/${i}`);
        if (m) return m;
      }
      return undefined;
    }
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return `${path || '/'} is not an object`;
    for (const [key, value] of Object.entries(expected)) {
      const m = subsetMismatch((actual as Record<string, unknown>)[key], value, `${path}/${key}`);
      if (m) return m;
    }
    return undefined;
  }
  return Object.is(actual, expected) ? undefined : `${path || '/'} is ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`;
}

/** Every distinct string of `value`, depth first (object keys excluded), at most `limit`. */
export function stringsIn(value: unknown, limit = Infinity, found = new Set<string>()): Set<string> {
  if (found.size >= limit) return found;
  if (typeof value === 'string') found.add(value);
  else if (Array.isArray(value)) for (const item of value) stringsIn(item, limit, found);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) stringsIn(item, limit, found);
  return found;
}
