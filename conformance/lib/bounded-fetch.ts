// The one way the kit sends a request to a target and reads its answer: the fixtures protocol, the MCP transport's
// POSTs and the raw HTTP steps all go through boundedFetch, so no target can hold a run. Each exchange has a deadline
// (callTimeoutMs: the answer's headers and its whole body), and an answer over MAX_ANSWER_BYTES stops being read.
// A request that meets a connection the target had already closed (a kept-alive socket it dropped while idle: a
// short keep-alive timeout, a busy machine) is sent again, as browsers do for a reused connection that fails before
// any answer. Node's fetch keeps several idle connections and may pick another stale one, so up to
// STALE_CONNECTION_TRIES in all, each failing at once; past them the failure is the target's to explain.
import { AsyncLocalStorage } from 'node:async_hooks';

const longerWait = new AsyncLocalStorage<number>();

/**
 * How long the kit waits for one answer of a target (--call-timeout, SITE_MCP_CALL_TIMEOUT_MS; 30 s): under
 * Cucumber's 60 s step timeout, so a target that never answers fails its step with a sentence that names the call.
 * Inside withCallTimeout, that call's own wait.
 */
export const callTimeoutMs = () => longerWait.getStore() ?? (Number(process.env.SITE_MCP_CALL_TIMEOUT_MS) || 30_000);

/**
 * Runs `work` with the kit waiting up to `ms` for each answer: for a call the source lets take a target's own time
 * (a migration from a source that never finishes, rule migrate-crawl-time-bounded). Its step sets a step timeout
 * above it.
 */
export const withCallTimeout = <T>(ms: number, work: () => Promise<T>): Promise<T> => longerWait.run(ms, work);

/** The most of one answer the kit reads (10 MiB): a target that answers more fails its step, the kit's memory stays bounded. */
export const MAX_ANSWER_BYTES = 10 * 1024 * 1024;

export class AnswerTooLarge extends Error {
  constructor() {
    super(`the answer is larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB; the kit stopped reading`);
    this.name = 'AnswerTooLarge';
  }
}

/** How many times one request is sent while each meets a connection closed before any answer. */
export const STALE_CONNECTION_TRIES = 5;

/** Error codes of a connection that closed before any answer (undici's and the socket's). */
const CLOSED_BEFORE_ANSWER = /^(ECONNRESET|EPIPE|UND_ERR_SOCKET|UND_ERR_CLOSED)$/;

/** Whether `error` (or a cause) says the connection closed before any answer came. */
export function closedBeforeAnswer(error: unknown): boolean {
  const seen = new Set<unknown>();
  for (let e: unknown = error; e && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e);
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && CLOSED_BEFORE_ANSWER.test(code)) return true;
  }
  return false;
}

/** `response` whose body errors with AnswerTooLarge past MAX_ANSWER_BYTES. */
function capped(response: Response): Response {
  if (!response.body) return response;
  let read = 0;
  const body = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        read += chunk.byteLength;
        if (read > MAX_ANSWER_BYTES) controller.error(new AnswerTooLarge());
        else controller.enqueue(chunk);
      },
    }),
  );
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/**
 * fetch, bounded: the whole exchange within callTimeoutMs (a TimeoutError otherwise, also while the body is read),
 * the body cut at MAX_ANSWER_BYTES, and a request that met a connection closed before any answer sent again.
 * A caller's own signal still applies.
 */
export async function boundedFetch(input: string | URL, init?: RequestInit): Promise<Response> {
  const timeout = AbortSignal.timeout(callTimeoutMs());
  const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
  for (let tries = 1; ; tries++) {
    try {
      return capped(await fetch(input, { ...init, signal }));
    } catch (error) {
      // A body that is a stream was read by the first try and cannot be sent again.
      if (signal.aborted || !closedBeforeAnswer(error) || tries >= STALE_CONNECTION_TRIES || init?.body instanceof ReadableStream) throw error;
    }
  }
}
