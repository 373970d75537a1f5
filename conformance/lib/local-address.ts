// Requests from a local address of the client's choosing. All of 127.0.0.0/8 is loopback on Linux, so a client
// that sends from one of those addresses makes a target's per-address counting (the throttles of spec/limits.json)
// see a new client. Node's fetch cannot choose its local address; postFromAddress answers a fetch Response all the
// same, so callers read it as they read any other answer (mcp-client.ts readAnswer).
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** A random address of 127.0.0.0/8 other than the network and broadcast ends. */
export const randomLoopback = (): string => `127.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 250)}`;

/** Statuses whose Response may have no body (the Response constructor refuses one). */
const NULL_BODY = new Set([204, 205, 304]);

/**
 * POSTs `body` to `url` from the local address `from` (the system's choice when undefined), over https for an
 * https URL, within `timeoutMs`.
 */
export function postFromAddress(url: string, from: string | undefined, headers: Record<string, string>, body: string | Buffer, timeoutMs = 10_000): Promise<Response> {
  return sendFromAddress('POST', url, from, headers, body, timeoutMs);
}

/** GETs `url` from the local address `from` (the system's choice when undefined), as postFromAddress posts. */
export function getFromAddress(url: string, from: string | undefined, headers: Record<string, string> = {}, timeoutMs = 10_000): Promise<Response> {
  return sendFromAddress('GET', url, from, headers, undefined, timeoutMs);
}

function sendFromAddress(method: 'GET' | 'POST', url: string, from: string | undefined, headers: Record<string, string>, body: string | Buffer | undefined, timeoutMs: number): Promise<Response> {
  const target = new URL(url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      {
        host: target.hostname.replace(/^\[|\]$/g, ''),
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method,
        ...(from ? { localAddress: from } : {}),
        headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const answered = new Headers();
          for (const [name, value] of Object.entries(res.headers)) for (const one of Array.isArray(value) ? value : typeof value === 'string' ? [value] : []) answered.append(name, one);
          const status = res.statusCode ?? 502;
          resolve(new Response(NULL_BODY.has(status) ? null : Buffer.concat(chunks), { status, statusText: res.statusMessage, headers: answered }));
        });
        res.on('error', reject);
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`${method} ${url} took longer than ${timeoutMs / 1000} s`)));
    req.on('error', reject);
    req.end(body);
  });
}
