// fast-check arbitraries from a tool's published input schema (the JSON Schema subset tools/list uses: type,
// properties, required, additionalProperties, enum, const, anyOf/oneOf, min/max length, pattern, minimum,
// maximum, items, maxItems, minProperties), plus malformed variants of them. Used by the fuzz property: the
// schema comes from the target's own tools/list, so any implementation is fuzzed with its own contract.
import fc from 'fast-check';

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  items?: JsonSchema;
  maxItems?: number;
  minItems?: number;
};

const MAX_STRING = 200; // long enough to cross small maxLengths, short enough to keep runs fast
const MAX_ITEMS = 4;

function stringFor(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? MAX_STRING, MAX_STRING);
  if (schema.format === 'date-time') return fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
  if (schema.format === 'email') return fc.emailAddress();
  if (schema.format === 'uri') return fc.webUrl();
  if (schema.pattern) {
    try {
      return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length >= minLength && s.length <= maxLength);
    } catch {
      // a pattern fast-check cannot generate from: plain strings (the target judges them)
    }
  }
  return fc.string({ minLength, maxLength, unit: 'grapheme' });
}

/** Values that satisfy `schema` (as far as this subset goes; the target is the judge). */
export function valid(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return fc.oneof(...branches.map((b) => valid(b, depth + 1)));
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : ['string', 'integer', 'boolean', 'null'];
  return fc.oneof(...types.map((type) => validOfType(type, schema, depth)));
}

function validOfType(type: string, schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string':
      return stringFor(schema);
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1_000_000, max: schema.maximum ?? 1_000_000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return depth > 6 ? fc.constant([]) : fc.array(valid(schema.items ?? {}, depth + 1), { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? MAX_ITEMS, MAX_ITEMS) });
    case 'object': {
      if (depth > 6) return fc.constant({});
      const properties = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, sub] of Object.entries(properties)) model[key] = valid(sub, depth + 1);
      return fc.record(model, { requiredKeys: Object.keys(properties).filter((k) => required.has(k)) });
    }
    default:
      return fc.constant(null);
  }
}

/** A value of another JSON type than `value`. */
const otherType = (value: unknown): fc.Arbitrary<unknown> =>
  fc.constantFrom<unknown>(42, -1, 1.5, true, null, 'text', [], {}, [1, 'x'], { nested: { x: 1 } }).filter((v) => typeof v !== typeof value || Array.isArray(v) !== Array.isArray(value));

/** Deeply nested JSON, past any sensible nesting bound. */
const deep = fc.integer({ min: 40, max: 400 }).map((depth) => {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
});

const hostileString = fc.oneof(
  fc.constantFrom('', ' ', '\u0000', '<script>alert(1)</script>', '../../etc/passwd', '%00', '${{7*7}}', '\uFFFF\uD800', 'a'.repeat(100_000), '{"$ne":null}', 'site_doesnotexist0'),
  fc.string({ maxLength: 50, unit: 'binary' }),
);

/**
 * Arguments that break `schema` in one way or another: a required property missing, one of the wrong type,
 * an unknown property, hostile strings, deep nesting, or no object at all.
 */
export function malformed(schema: JsonSchema): fc.Arbitrary<unknown> {
  const base = valid(schema) as fc.Arbitrary<Record<string, unknown>>;
  const keys = Object.keys(schema.properties ?? {});
  const pickKey = keys.length > 0 ? fc.constantFrom(...keys) : fc.constant('x');
  return fc.oneof(
    // not an object at all (the protocol layer, not the tool, should refuse these)
    fc.constantFrom<unknown>('x', 42, true, null, [], [{}]),
    // a required property dropped
    fc.tuple(base, pickKey).map(([args, key]) => {
      const copy = { ...args };
      delete copy[key];
      return copy;
    }),
    // one property of the wrong type
    fc.tuple(base, pickKey).chain(([args, key]) => otherType(args[key]).map((v) => ({ ...args, [key]: v }))),
    // a hostile string where a property goes
    fc.tuple(base, pickKey, hostileString).map(([args, key, s]) => ({ ...args, [key]: s })),
    // unknown properties, including prototype-polluting names
    // (defineProperty makes "__proto__" an own, serialized key rather than the prototype setter)
    fc.tuple(base, fc.constantFrom('__proto__', 'constructor', 'prototype', 'unknownField', '$where'), fc.jsonValue({ maxDepth: 2 })).map(([args, key, v]) =>
      Object.defineProperty({ ...args }, key, { value: v, enumerable: true, writable: true, configurable: true }),
    ),
    // deep nesting in a property
    fc.tuple(base, pickKey, deep).map(([args, key, d]) => ({ ...args, [key]: d })),
    // arbitrary JSON objects
    fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 }),
  );
}
