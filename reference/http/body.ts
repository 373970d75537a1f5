// Reads a JSON request body with a size cap. Malformed or oversized input is a 4xx, never a crash.
import type { IncomingMessage } from 'node:http';
import { DomainError } from '../domain/errors.js';

export async function readRawBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > maxBytes) throw new DomainError('over_cap', `Request body over ${maxBytes} bytes.`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new DomainError('over_cap', `Request body over ${maxBytes} bytes.`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const raw = await readRawBody(req, maxBytes);
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw new DomainError('validation_failed', 'Parse error: the body is not valid JSON.');
  }
}
