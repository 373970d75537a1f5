// The kit against a target that hangs, answers garbage, answers 50 MB or closes the socket: each
// such call fails its own scenario with one sentence that names the call, the log carries none of the raw bytes,
// and the run ends within its budget. The target is the reference behind a proxy that misbehaves for one tool each.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchDir } from '../lib/scratch-dir.js';
import type { Target } from '../lib/target.js';
import { referenceServer } from '../properties/shared-reference.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
// Bytes no log may carry: an escape sequence that would recolour a terminal, and NUL.
const GARBAGE = '\u001b[31mGARBAGE-FROM-TARGET\u0000\u0001 not json';

type Misbehaviour = 'hang' | 'garbage' | 'huge' | 'close';
const MISBEHAVES: Record<string, Misbehaviour> = { list_sites: 'hang', get_site_overview: 'garbage', list_pages: 'huge', get_brand: 'close' };

/** The reference, except that a tools/call of one of MISBEHAVES' tools gets that misbehaviour. */
function hostileProxy(target: string): Server {
  const upstream = new URL(target);
  return createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      let tool: string | undefined;
      try {
        const message = JSON.parse(body.toString('utf8')) as { method?: string; params?: { name?: string } };
        if (message.method === 'tools/call') tool = message.params?.name;
      } catch {
        // not JSON: forwarded as it is
      }
      const misbehaviour = tool ? MISBEHAVES[tool] : undefined;
      if (misbehaviour === 'hang') return; // no answer, ever: the proxy closes the socket when the test ends
      if (misbehaviour === 'close') return void req.socket.destroy();
      if (misbehaviour === 'garbage') return void res.writeHead(200, { 'content-type': 'application/json' }).end(GARBAGE);
      if (misbehaviour === 'huge') {
        res.writeHead(200, { 'content-type': 'application/json' });
        const block = Buffer.alloc(1024 * 1024, 0x20);
        let sent = 0;
        const more = () => {
          while (sent < 50) {
            sent++;
            if (!res.write(block)) return void res.once('drain', more);
          }
          res.end();
        };
        res.on('error', () => undefined);
        return more();
      }
      const forward = request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: { ...req.headers, host: upstream.host } }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      forward.on('error', () => res.destroy());
      forward.end(body);
    });
  });
}

const FEATURE = `Feature: A hostile target
  Background:
    Given a workspace with an owner "olive" and a site "main"
    And "olive" has a connection "agent" to "main" with scopes "site:read"
${Object.keys(MISBEHAVES).map((tool) => `
  Scenario: ${tool} of a target that ${MISBEHAVES[tool]}s
    When "agent" calls "${tool}"
    Then the call succeeds
`).join('')}
  Scenario: A call the target answers
    When "agent" calls "list_draft_changes"
    Then the call succeeds
`;

describe('a hostile target', () => {
  let reference: Target;
  let proxy: Server;
  let dir: string;
  beforeAll(async () => {
    reference = await referenceServer();
    proxy = hostileProxy(reference.url);
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    dir = await mkdtemp(join(scratchDir(), 'site-mcp-hostile-'));
    await writeFile(join(dir, 'hostile.feature'), FEATURE);
  });
  afterAll(async () => {
    proxy?.closeAllConnections();
    await new Promise((resolve) => proxy?.close(resolve));
    await reference?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('fails each misbehaving call with one sentence naming it, prints no raw bytes, and ends within its budget', async () => {
    const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const started = Date.now();
    const run = spawn(process.execPath, ['--import', 'tsx/esm', 'conformance/cli.ts', '--call-timeout', '3', '--parallel', '2', '--report-dir', join(dir, 'reports'), join(dir, 'hostile.feature')], {
      cwd: repo,
      env: { ...process.env, SITE_MCP_URL: url, SITE_MCP_FIXTURES_SECRET: reference.fixturesSecret },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    run.stdout.on('data', (d: Buffer) => (out += d));
    run.stderr.on('data', (d: Buffer) => (out += d));
    const code = await new Promise<number | null>((resolve) => run.on('exit', resolve));
    const seconds = (Date.now() - started) / 1000;
    expect(code, out).toBe(1);
    // Four scenarios fail, each at its own call with one sentence; the answered one passes.
    expect(out).toContain('`tools/call list_sites` got no answer within 3 s');
    expect(out).toContain('`tools/call get_site_overview` answered bytes that are not JSON-RPC');
    expect(out).toContain('`tools/call list_pages` answered more than 10 MiB; the kit stopped reading');
    expect(out).toMatch(/`tools\/call get_brand`: the target closed the connection before answering/);
    const junit = await readFile(join(dir, 'reports', 'junit.xml'), 'utf8');
    for (const text of [out, junit]) {
      expect(text).not.toContain('\u001b[31mGARBAGE');
      expect(text).not.toContain('\u0000');
    }
    // The hang costs its call timeout, not Cucumber's 60 s step timeout.
    expect(seconds).toBeLessThan(45);
  }, 90_000);
});
