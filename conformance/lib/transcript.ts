// What the kit sent and what it got, for a step that failed: an implementer's first question is "which
// request, and what did my server answer". Every HTTP exchange a scenario's steps make through the kit's clients
// (the MCP connections' SDK transport, rawPost/rawMcpPost, the fixtures client, the raw HTTP steps' recordedFetch)
// is kept in the scenario's ExchangeLog: the last KEPT of them, each body cut at BODY_LIMIT characters. A step runs
// inside `recordingInto(log, …)` (features/support/declared.ts wraps every step), so the clients need no log passed
// to them, and outside a scenario (properties, prove-checks' own calls, the reference's tests) nothing is kept.
//
// When a step fails, features/support/transcript.ts attaches `log.failureTranscript(secrets)`: the exchanges of that
// step, or, for an outcome step that made none (`Then the call succeeds`), those of the last step that made some.
// Each shows the JSON-RPC method, tool and arguments, the request (method, URL, headers, body), the answer (HTTP
// status, headers, body) and a curl line that sends the same request again. Secrets never reach a report: bearer
// and basic credentials, the fixtures secret, cookies, every token the scenario holds and every JSON field named
// like a token or password are replaced by [redacted], and the curl line reads them from the environment instead
// ($SITE_MCP_TOKEN, $SITE_MCP_FIXTURES_SECRET). conformance/lib/report.ts carries the attachment (media type
// TRANSCRIPT_MEDIA_TYPE) to the console, junit.xml's <system-out>, conformance.json and report.html.
import { AsyncLocalStorage } from 'node:async_hooks';
import { boundedFetch } from './bounded-fetch.js';

/** Media type of the transcript a failed step carries (Cucumber's report.html shows text/* attachments as text). */
export const TRANSCRIPT_MEDIA_TYPE = 'text/x.site-mcp.transcript';
/** The most characters of one body a transcript shows (and keeps). */
export const BODY_LIMIT = 4000;
/** The most exchanges a scenario keeps (the oldest go first): "calls X 100 times" must not fill the memory. */
const KEPT = 60;
/** The most exchanges one failure shows: the last ones of its step. */
const SHOWN = 3;
/** The most characters of a request body a curl line repeats. */
const CURL_BODY_LIMIT = 16_000;

export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;
type Headers2 = [string, string][];

export interface Exchange {
  /** The step (ExchangeLog.step) during which it was sent. */
  step: number;
  request: { method: string; url: string; headers: Headers2; body?: string };
  response?: { status: number; statusText: string; headers: Headers2; body?: string; cut?: boolean };
  /** What happened instead of an answer (a timeout, a closed connection). */
  error?: string;
  ms?: number;
}

const current = new AsyncLocalStorage<ExchangeLog>();

/** Runs `fn` with every exchange the kit's clients make inside it kept in `log`. */
export function recordingInto<T>(log: ExchangeLog, fn: () => T): T {
  return current.run(log, fn);
}

/** `inner` (the global fetch by default), keeping each exchange in the log of the step it runs in, if any. */
export function recorded(inner: FetchLike = (input, init) => fetch(input, init)): FetchLike {
  return (input, init) => {
    const log = current.getStore();
    return log ? log.send(inner, input, init) : inner(input, init);
  };
}

/** boundedFetch (a deadline, a byte cap, one more try on a closed connection), recorded: for the fixtures client and the steps that make raw HTTP requests. */
export const recordedFetch = recorded(boundedFetch);

/** At most `limit` characters of a response's body (a clone's: the caller reads the original); the rest is left unread. */
async function readSome(response: Response, limit: number): Promise<{ text: string; cut: boolean }> {
  if (!response.body) return { text: '', cut: false };
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text: text + decoder.decode(), cut: false };
      text += decoder.decode(value, { stream: true });
      if (text.length > limit) return { text: text.slice(0, limit), cut: true };
    }
  } finally {
    void reader.cancel().catch(() => undefined);
  }
}

/** The most texts a scenario keeps of what it sent. */
const WRITTEN_KEPT = 20_000;

function collectTexts(body: string, into: Set<string>, byKey: Map<string, Set<string>>): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return;
  }
  const walk = (value: unknown, key?: string): void => {
    if (into.size >= WRITTEN_KEPT) return;
    if (typeof value === 'string') {
      into.add(value);
      if (key !== undefined) byKey.set(key, (byKey.get(key) ?? new Set()).add(value));
    } else if (Array.isArray(value)) value.forEach((item) => walk(item, key));
    else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, k);
  };
  walk(parsed);
}

function bodyText(body: RequestInit['body']): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) return body.toString();
  return `[a ${(body as object).constructor?.name ?? 'binary'} body]`;
}

/** A scenario's exchanges, newest last, each with the step it belongs to. */
export class ExchangeLog {
  #kept: Exchange[] = [];
  #reading = new Set<Promise<void>>();
  #labels = new Map<number, string>();
  #written = new Set<string>();
  #writtenByKey = new Map<string, Set<string>>();
  /** The step running now; exchanges sent meanwhile belong to it. */
  step = 0;

  /** A new step begins (features/support/transcript.ts, BeforeStep): `label` names it in a transcript. */
  beginStep(label: string): void {
    this.step++;
    this.#labels.set(this.step, label);
    for (const old of this.#labels.keys()) if (old < this.step - KEPT) this.#labels.delete(old);
  }

  get exchanges(): readonly Exchange[] {
    return this.#kept;
  }

  /**
   * Every text of the JSON bodies the kit sent in this scenario (tool arguments, worlds, app edits), whole: the
   * values a step may look for by value in an answer (features/support/located.ts), since the kit wrote them.
   */
  get written(): ReadonlySet<string> {
    return this.#written;
  }

  /** The texts the kit sent under the field name `key` in this scenario (an `email` it invited, a `hostname`). */
  writtenAs(key: string): ReadonlySet<string> {
    return this.#writtenByKey.get(key) ?? new Set();
  }

  async send(inner: FetchLike, input: string | URL, init?: RequestInit): Promise<Response> {
    const url = String(input);
    const method = (init?.method ?? 'GET').toUpperCase();
    const body = bodyText(init?.body);
    if (body !== undefined && this.#written.size < WRITTEN_KEPT) collectTexts(body, this.#written, this.#writtenByKey);
    const exchange: Exchange = {
      step: this.step,
      request: { method, url, headers: [...new Headers(init?.headers)], ...(body === undefined ? {} : { body: body.length > CURL_BODY_LIMIT ? body.slice(0, CURL_BODY_LIMIT) : body }) },
    };
    this.#kept.push(exchange);
    if (this.#kept.length > KEPT) this.#kept.shift();
    const started = performance.now();
    try {
      const response = await inner(input, init);
      exchange.ms = Math.round(performance.now() - started);
      exchange.response = { status: response.status, statusText: response.statusText, headers: [...response.headers] };
      // A GET event stream stays open (the SDK's standalone stream): its status and headers are the exchange.
      const stream = method === 'GET' && /text\/event-stream/.test(response.headers.get('content-type') ?? '');
      if (!stream && response.body) {
        const reading = readSome(response.clone(), BODY_LIMIT).then(
          ({ text, cut }) => void Object.assign(exchange.response!, { body: text, ...(cut ? { cut } : {}) }),
          (error: Error) => void (exchange.error = `the answer's body could not be read: ${error.message}`),
        );
        this.#reading.add(reading);
        void reading.finally(() => this.#reading.delete(reading));
      }
      return response;
    } catch (error) {
      exchange.ms = Math.round(performance.now() - started);
      exchange.error = describeError(error);
      throw error;
    }
  }

  /** Waits (at most `ms`) for the bodies still being read. */
  async settled(ms = 1000): Promise<void> {
    if (!this.#reading.size) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...this.#reading]), new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
  }

  /**
   * The transcript of the step running now, which failed: its exchanges, or those of the last step that made some
   * (an outcome step checks the answer an earlier step got). Undefined when no step so far made any.
   */
  async failureTranscript(secrets: string[] = []): Promise<string | undefined> {
    await this.settled();
    let step = this.step;
    let mine = this.#kept.filter((e) => e.step === step);
    if (!mine.length) {
      step = Math.max(-1, ...this.#kept.filter((e) => e.step < this.step).map((e) => e.step));
      if (step < 0) return undefined;
      mine = this.#kept.filter((e) => e.step === step);
    }
    // The MCP handshake of a connection's first call, its notifications and its event stream say nothing about the
    // failure, unless they are all there is or one of them went wrong.
    const relevant = mine.filter((e, i) => i === mine.length - 1 || e.error || ((e.response?.status ?? 0) >= 400 && !streamDeclined(e)) || !housekeeping(e));
    const shown = relevant.slice(-SHOWN);
    const left = relevant.length - shown.length;
    const counts = `${shown.length} of ${mine.length} request${mine.length === 1 ? '' : 's'}${left ? `, ${left} earlier left out` : ''}${mine.length > relevant.length ? ', the MCP handshake left out' : ''}`;
    const head = step === this.step ? `Sent and got in this step (${counts}):` : `Sent and got in the last step that sent anything (${counts}): ${this.#labels.get(step) ?? '?'}`;
    return [head, ...shown.map((e, i) => formatExchange(e, redactor(secrets), `${i + 1}.`))].join('\n\n');
  }
}

function describeError(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error, n = 0; e && n < 4; e = (e as { cause?: unknown }).cause, n++) {
    const { name, message, code } = e as { name?: string; message?: string; code?: unknown };
    parts.push(`${name ?? 'Error'}${typeof code === 'string' ? ` ${code}` : ''}: ${message ?? String(e)}`);
  }
  return `no answer: ${parts.join(' ← ')}`;
}

/** The JSON-RPC request a body carries, if it is one. */
function jsonRpc(body: string | undefined): { method?: string; params?: { name?: string; arguments?: unknown; uri?: string } } | undefined {
  if (!body) return undefined;
  try {
    const parsed = JSON.parse(body) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) && 'jsonrpc' in parsed ? (parsed as ReturnType<typeof jsonRpc>) : undefined;
  } catch {
    return undefined;
  }
}

/** The client's GET for a standalone event stream, answered 405: MCP's Streamable HTTP lets a server offer none. */
function streamDeclined(e: Exchange): boolean {
  return e.request.method === 'GET' && e.response?.status === 405 && /text\/event-stream/.test(e.request.headers.find(([k]) => k === 'accept')?.[1] ?? '');
}

function housekeeping(e: Exchange): boolean {
  if (e.request.method === 'DELETE' || streamDeclined(e)) return true;
  if (e.request.method === 'GET' && /text\/event-stream/.test(e.response?.headers.find(([k]) => k === 'content-type')?.[1] ?? '')) return true;
  const method = jsonRpc(e.request.body)?.method;
  // server/discover is the 2026-07-28 era's handshake, as initialize is the 2025 era's.
  return method === 'initialize' || method === 'server/discover' || Boolean(method?.startsWith('notifications/'));
}

const SECRET_HEADERS = new Set(['x-fixtures-secret', 'cookie', 'set-cookie', 'proxy-authorization']);
const NOISE_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host', 'user-agent', 'accept-encoding']);
// A JSON field whose value is a credential, also inside JSON text carried in a JSON string (a tool result's text).
const SECRET_FIELD = /(\\?"(?:token|access_token|refresh_token|id_token|client_secret|password|secret|code_verifier|registration_access_token)\\?"\s*:\s*\\?")[^"\\]*(\\?")/gi;

// A credential after an auth scheme (RFC 9110 token68), and the character after it.
const CREDENTIAL = /\b(Bearer|Basic)\s+(?!\[redacted\])([A-Za-z0-9._~+/=-]+)(.?)/gi;
/** A word of prose after "bearer" ("a bearer token"), not a credential: lower-case letters alone, as no token is. */
const isProse = (credential: string) => /^[a-z]+$/.test(credential);
/** `resource_metadata="…"` in a WWW-Authenticate challenge is a parameter, not a credential: it stays readable. */
const isAuthParam = (credential: string, next: string) => /^[A-Za-z0-9_-]+=$/.test(credential) && (next === '"' || next === '\\');

/** Replaces every secret the text may hold: the ones given, credentials after an auth scheme, credential-named JSON fields. */
export function redactor(secrets: string[]): (text: string) => string {
  const known = [...new Set(secrets.filter((s) => s && s.length >= 6))].sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const s of known) out = out.split(s).join('[redacted]');
    return out.replace(CREDENTIAL, (whole, scheme: string, credential: string, next: string) => (isAuthParam(credential, next) || isProse(credential) ? whole : `${scheme} [redacted]${next}`)).replace(SECRET_FIELD, '$1[redacted]$2');
  };
}

function headerValue(name: string, value: string, redact: (t: string) => string): string {
  if (SECRET_HEADERS.has(name)) return '[redacted]';
  if (name === 'authorization') return `${printable(value.split(/\s+/)[0]!)} [redacted]`;
  return redact(printable(value));
}

function prettyJson(text: string): string | undefined {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return undefined;
  }
}

/** An event stream (an MCP answer in SSE mode) with each `data:` line's JSON pretty-printed; undefined for anything else. */
function prettyEvents(text: string): string | undefined {
  if (!/^(event|data|id):/m.test(text)) return undefined;
  return text.replace(/^data: ?(.*)$/gm, (line, data: string) => {
    const pretty = prettyJson(data);
    return pretty === undefined ? line : `data: ${pretty}`;
  });
}

/** A body for reading: JSON pretty-printed when `pretty` (and it is whole), cut at BODY_LIMIT, every line after `prefix`. */
function showBody(body: string, pretty: boolean, prefix: string, redact: (t: string) => string, cut = false): string[] {
  let text = body;
  if (pretty && !cut) text = prettyJson(body) ?? prettyEvents(body) ?? body;
  const clipped = text.length > BODY_LIMIT ? text.slice(0, BODY_LIMIT) : text;
  const lines = redact(printable(clipped)).split('\n').map((l) => `${prefix}${l}`);
  if (cut || text.length > BODY_LIMIT) lines.push(`${prefix}… (cut at ${BODY_LIMIT} characters)`);
  return lines;
}

/** A target's bytes, safe for a terminal and a report: control characters but newline and tab escaped (no terminal sequences). */
const printable = (text: string) => text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** A curl command that sends the request again; credentials come from the environment, never from the report. */
export function curlLine(e: Exchange, redact: (t: string) => string = redactor([])): string {
  const parts = ['curl -sS -i'];
  if (e.request.method !== 'GET' || e.request.body !== undefined) parts.push(`-X ${e.request.method}`);
  parts.push(shellQuote(redact(e.request.url)));
  for (const [name, value] of e.request.headers) {
    if (NOISE_HEADERS.has(name)) continue;
    if (name === 'authorization') parts.push(`-H "authorization: ${value.split(/\s+/)[0]} $SITE_MCP_TOKEN"`);
    else if (name === 'x-fixtures-secret') parts.push(`-H "x-fixtures-secret: $SITE_MCP_FIXTURES_SECRET"`);
    else if (SECRET_HEADERS.has(name)) parts.push(`-H "${name}: $SITE_MCP_${name.toUpperCase().replace(/-/g, '_')}"`);
    else parts.push(`-H ${shellQuote(`${name}: ${redact(value)}`)}`);
  }
  if (e.request.body !== undefined) parts.push(`--data-binary ${shellQuote(redact(e.request.body))}`);
  return parts.join(' ');
}

/** One exchange for reading: what it called, the request, the answer, and the curl line. */
export function formatExchange(e: Exchange, redact: (t: string) => string = redactor([]), label = ''): string {
  const rpc = jsonRpc(e.request.body);
  const path = (() => {
    try {
      return new URL(e.request.url).pathname;
    } catch {
      return e.request.url;
    }
  })();
  const args = rpc?.params?.arguments === undefined ? '' : ` ${JSON.stringify(rpc.params.arguments)}`;
  const what = rpc?.method
    ? `${rpc.method}${rpc.params?.name ? ` ${rpc.params.name}` : rpc.params?.uri ? ` ${rpc.params.uri}` : ''}${args.length > 300 ? `${args.slice(0, 300)}…` : args}`
    : `${e.request.method} ${path}`;
  const lines = [`${label ? `${label} ` : ''}${redact(what)}`, `> ${e.request.method} ${redact(e.request.url)}`];
  for (const [name, value] of e.request.headers) if (!NOISE_HEADERS.has(name)) lines.push(`> ${name}: ${headerValue(name, value, redact)}`);
  // The request as sent (it is short, and the curl line repeats it); the answer pretty-printed when it is JSON.
  if (e.request.body !== undefined) lines.push('>', ...showBody(e.request.body, false, '> ', redact));
  const r = e.response;
  if (r) {
    lines.push(`< HTTP ${r.status}${r.statusText ? ` ${r.statusText}` : ''}${e.ms === undefined ? '' : ` (${e.ms} ms)`}`);
    for (const [name, value] of r.headers) if (!NOISE_HEADERS.has(name)) lines.push(`< ${name}: ${headerValue(name, value, redact)}`);
    if (r.body !== undefined && r.body !== '') lines.push('<', ...showBody(r.body, true, '< ', redact, r.cut));
  }
  if (e.error) lines.push(`< ${redact(printable(e.error))}${e.ms === undefined ? '' : ` (after ${e.ms} ms)`}`);
  lines.push(`$ ${curlLine(e, redact)}`);
  // The token was the scenario's own, made through the fixtures protocol and gone with it: say where one comes from.
  if (e.request.headers.some(([name]) => name === 'authorization')) lines.push(TOKEN_HINT);
  return lines.join('\n');
}

/** Where $SITE_MCP_TOKEN of a curl line comes from (conformance/docs/fixtures-protocol.md, the fixtures protocol's connections). */
export const TOKEN_HINT = "# $SITE_MCP_TOKEN: a connection's token, e.g. the \"token\" of POST /test-fixtures/v1/connections (header x-fixtures-secret; body { userId, websiteId, reach, scopes }); the replay line makes the scenario's own again";
