// The protocol-level shape of the requests whose params the SDK would otherwise reject from inside its
// handler with -32603 and a raw validator dump (rule never-a-server-error: a malformed protocol message gets
// a JSON-RPC client error). Checked before the SDK sees the message; a tool's own arguments are then judged
// by callTool, which answers an envelope.
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

type ParamsCheck = (params: Record<string, unknown>) => string | undefined;

const stringField = (field: string): ParamsCheck => (params) =>
  typeof params[field] === 'string' ? undefined : `params.${field} must be a string`;
const optionalObjectField = (field: string): ParamsCheck => (params) =>
  params[field] === undefined || isPlainObject(params[field]) ? undefined : `params.${field} must be an object when present`;

const PARAMS: Record<string, ParamsCheck[]> = {
  'tools/call': [stringField('name'), optionalObjectField('arguments')],
  'prompts/get': [stringField('name'), optionalObjectField('arguments')],
  'resources/read': [stringField('uri')],
};

export interface InvalidParams {
  id: string | number | null;
  message: string;
}

/** The first request of a message (or batch) whose params are malformed, with the reason. */
export function invalidParams(body: unknown): InvalidParams | undefined {
  for (const message of Array.isArray(body) ? body : [body]) {
    if (!isPlainObject(message) || typeof message.method !== 'string') continue; // the SDK answers these
    const checks = PARAMS[message.method];
    if (!checks) continue;
    const id = typeof message.id === 'string' || typeof message.id === 'number' ? message.id : null;
    if (!isPlainObject(message.params)) return { id, message: `Invalid params: ${message.method} needs a params object.` };
    for (const check of checks) {
      const problem = check(message.params);
      if (problem) return { id, message: `Invalid params: ${problem}.` };
    }
  }
  return undefined;
}

export interface ComplexityLimits {
  maxDepth: number;
  maxNodes: number;
}

/**
 * Why `value` is too deep or too large to validate or store, or undefined. Iterative, so a hostile nesting
 * depth cannot exhaust the stack here; it stops at the first limit crossed, so its cost is bounded too
 * (rule tool-arguments-bounded).
 */
export function complexityProblem(value: unknown, limits: ComplexityLimits): string | undefined {
  const tooMany = `more than ${limits.maxNodes} values in all`;
  const stack: [unknown, number][] = [[value, 1]];
  let nodes = 1;
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth > limits.maxDepth) return `nested more than ${limits.maxDepth} levels deep`;
    // Children are counted as they are visited, so a huge object costs no more than the limit to refuse.
    if (Array.isArray(current)) {
      for (const child of current) {
        if (++nodes > limits.maxNodes) return tooMany;
        stack.push([child, depth + 1]);
      }
    } else {
      for (const key in current) {
        if (++nodes > limits.maxNodes) return tooMany;
        stack.push([(current as Record<string, unknown>)[key], depth + 1]);
      }
    }
  }
  return undefined;
}

/** A single tools/call whose arguments are over the bounds: answered by the call path before the SDK parses it. */
export function oversizedToolCall(body: unknown, limits: ComplexityLimits): { id: string | number | null; name: string; args: unknown } | undefined {
  if (!isPlainObject(body) || body.method !== 'tools/call' || !isPlainObject(body.params)) return undefined;
  const { name, arguments: args } = body.params;
  if (typeof name !== 'string' || !complexityProblem(args, limits)) return undefined;
  return { id: typeof body.id === 'string' || typeof body.id === 'number' ? body.id : null, name, args };
}

const REQUEST_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
const PLAIN_CALL_PARAMS = new Set(['name', 'arguments']);

/**
 * A single tools/call that the SDK's transport would accept as it is (JSONRPCRequestSchema is strict: these four
 * keys; the id a string or a safe integer) and hand unchanged to its tools/call handler (params: a string name and
 * an object of arguments, nothing else: no _meta progress token, no task), whose handler would see the same
 * arguments (zod copies them key by key). Only such a message takes the direct
 * path of mount.ts; anything else, however slightly different, goes through the SDK, which decides.
 */
export function plainToolCall(body: unknown): { id: string | number; name: string; args: Record<string, unknown> | undefined } | undefined {
  if (!isPlainObject(body) || body.jsonrpc !== '2.0' || body.method !== 'tools/call') return undefined;
  for (const key in body) if (!REQUEST_KEYS.has(key)) return undefined;
  const { id, params } = body;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return undefined;
  if (!isPlainObject(params) || typeof params.name !== 'string') return undefined;
  for (const key in params) if (!PLAIN_CALL_PARAMS.has(key)) return undefined;
  const args = params.arguments;
  if (args !== undefined && !isPlainObject(args)) return undefined;
  // The SDK copies arguments through zod, where an own "__proto__" key becomes the copy's prototype: its business.
  if (args !== undefined && Object.hasOwn(args, '__proto__')) return undefined;
  return { id: id as string | number, name: params.name, args: args as Record<string, unknown> | undefined };
}
