// What a failure shows. A failed step carries what the kit sent and got (method, tool,
// arguments, HTTP status, headers, body) and a curl line that sends it again, with every token and the fixtures
// secret redacted (conformance/lib/transcript.ts), in junit.xml's <system-out> and in the kit's own report.html
// (conformance/lib/report-html.ts: the verdict per source section and rule, source rules and declared decisions
// apart), beside Cucumber's page, cucumber.html. A real failing run: the server broken for scope-ceiling lets a
// reader edit. The page is opened in Chromium and screenshotted into reports/ for a person to look at.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, REPORTS } from '../../reference/test/chromium.js';
import { ExchangeLog, recordedFetch, recordingInto, redactor } from '../lib/transcript.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
/** A bearer token of the reference's form (§2.1): none may appear in a report. */
const TOKEN = /smcp_live_[A-Za-z0-9_-]{16,}/;
/** "Bearer" followed by anything but the redaction or the curl line's variable. */
const BEARER_SHOWN = /Bearer (?!\[redacted\]|\$SITE_MCP_TOKEN)\S/;

let dir: string;
let run: { code: number; stdout: string };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'site-mcp-failure-report-'));
  run = await new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx/esm', 'conformance/cli.ts', '--break', 'scope-ceiling', '--rules', 'scope-ceiling', '--report-dir', dir], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stdout += d.toString()));
    child.once('exit', (code) => resolve({ code: code ?? 1, stdout }));
  });
}, 120_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** XML's and HTML's escapes undone (junit.xml, report.html), to read the text as a console shows it. */
const unescaped = (text: string) => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');

/** What every place that shows a failure must carry: the call, the request, the answer, the curl line; no token. */
function expectTranscript(escaped: string) {
  const text = unescaped(escaped);
  expect(text).toMatch(/tools\/call update_section_text \{"sectionId":"sec_[^"]+","field":"heading","text":"Hi"\}/);
  expect(text).toMatch(/^ *> POST http:\/\/127\.0\.0\.1:\d+\/api\/mcp$/m);
  expect(text).toMatch(/authorization: Bearer \[redacted\]/);
  expect(text).toMatch(/< HTTP 200 OK/);
  expect(text).toMatch(/"siteRevision": \d+/); // the answer's body: the edit went through
  expect(text).toMatch(/\$ curl -sS -i -X POST '[^']+\/api\/mcp' .*-H "authorization: Bearer \$SITE_MCP_TOKEN".* --data-binary '\{.*"method":"tools\/call"/);
  expect(text).not.toMatch(TOKEN);
  expect(text).not.toMatch(BEARER_SHOWN);
}

describe('a failed step shows what the kit sent and got', () => {
  it('in the console, and junit.xml carries it in <system-out> of the failed testcase', async () => {
    expect(run.code, run.stdout.slice(-3000)).toBe(1);
    expect(run.stdout).toMatch(/what the kit sent and got in each failed step/);
    expectTranscript(run.stdout);
    const junit = await readFile(join(dir, 'junit.xml'), 'utf8');
    const failed = /<testcase [^>]*>\s*<failure [\s\S]*?<\/testcase>/.exec(junit)?.[0] ?? '';
    expect(failed).toMatch(/<system-out>Failed step \(line \d+\): Then the call fails with &quot;scope_denied&quot;/);
    expectTranscript(failed);
    expect(junit).not.toMatch(TOKEN);
  });

  it('report.html is the kit\'s page: the verdict per section and rule, source and decisions apart, the failure with its transcript', async () => {
    const html = await readFile(join(dir, 'report.html'), 'utf8');
    // The failure reads as the kit's sentence, without node:assert's value diff after it.
    expect(html).toMatch(/<pre class="message">AssertionError \[ERR_ASSERTION\]: reader → update_section_text succeeded but must be refused/);
    expect(html).not.toMatch(/\+ expected - actual|true !== false/);
    // A curl line that sends a bearer token says where one comes from.
    expect(html).toContain('# $SITE_MCP_TOKEN: a connection&#39;s token, e.g. the &quot;token&quot; of POST /test-fixtures/v1/connections');
    // The verdict line heads the page: failures first, then what was verified of the source rules reached.
    expect(html).toMatch(/<h1>site-mcp conformance: <span class="verdict">\d+ problems? \(\d+ source rules failed\): \d+ of \d+ source rules verified, \d+ partly checked, \d+ not checked<\/span><\/h1>/);
    expectTranscript(html);
    expect(html).toMatch(/<tr class="r-failed" id="rule-scope-ceiling">/);
    expect(html).toMatch(/<h2>Source rules<\/h2>[\s\S]*<h2>Declared decisions<\/h2>/);
    expect(html).toMatch(/<h3>§5 Authentication<\/h3>/);
    expect(html).toMatch(/replay[\s\S]*npm run conformance -- --seed \d+ --break scope-ceiling --name/i);
    // Self-contained: nothing to fetch, no script.
    expect(html).not.toMatch(/<script|<link |src="http|url\(http/i);
    expect(html).toMatch(/<a href="cucumber\.html">/);
    expect(await readFile(join(dir, 'cucumber.html'), 'utf8')).toMatch(/<html/i);
  });

  it('report.html as a person sees it (screenshot reports/conformance-report.png)', async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      // Nothing but the file itself may load: any request to another address fails the test.
      const elsewhere: string[] = [];
      page.on('request', (r) => void (r.url().startsWith('file:') || elsewhere.push(r.url())));
      await page.goto(pathToFileURL(join(dir, 'report.html')).href);
      expect(elsewhere).toEqual([]);
      expect(await page.locator('h1').textContent()).toMatch(/^site-mcp conformance: \d+ problems? \(\d+ source rules failed\): \d+ of \d+ source rules verified/);
      const failure = page.locator('article.failure').first();
      expect(await failure.locator('pre.transcript').textContent()).toMatch(/< HTTP 200 OK/);
      await page.screenshot({ path: `${REPORTS}conformance-report.png` });
      await failure.screenshot({ path: `${REPORTS}conformance-report-failure.png` });
      await page.locator('#rule-scope-ceiling').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${REPORTS}conformance-report-rules.png` });
    } finally {
      await browser.close();
    }
  }, 60_000);
});

describe('transcript redaction and selection', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.setHeader('set-cookie', 'session=abcdefgh123');
      res.setHeader('www-authenticate', 'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/api/mcp"');
      if (req.method === 'GET' && req.url === '/mcp') {
        res.statusCode = 405;
        res.end('{"jsonrpc":"2.0","error":{"code":-32000,"message":"Method not allowed"},"id":null}');
      } else if (req.url === '/sse') {
        res.setHeader('content-type', 'text/event-stream');
        res.end('event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{"ok":true}}\n\n');
      } else if (req.url === '/garbage') res.end('\u001b[2J\u001b]0;pwned\u0007 not JSON');
      else res.end(JSON.stringify({ token: 'smcp_live_ANSWERANSWERANSWER1234', path: req.url }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('redacts the fixtures secret, bearer tokens, cookies and token fields; the curl line reads them from the environment', async () => {
    const log = new ExchangeLog();
    log.beginStep('a workspace with an owner "olive" and a site "main"');
    await recordingInto(log, async () => {
      const answer = await recordedFetch(`${url}/test-fixtures/v1/connections`, {
        method: 'POST',
        headers: { 'x-fixtures-secret': 'fixtures-secret-1234', 'content-type': 'application/json', authorization: 'Bearer smcp_live_REQUESTREQUEST12345' },
        body: JSON.stringify({ note: 'fixtures-secret-1234', password: 'hunter22' }),
      });
      await answer.text();
    });
    log.beginStep('the call succeeds');
    const text = (await log.failureTranscript(['fixtures-secret-1234']))!;
    expect(text).toMatch(/^Sent and got in the last step that sent anything \(1 of 1 request\): a workspace with an owner "olive" and a site "main"/);
    expect(text).toMatch(/> x-fixtures-secret: \[redacted\]/);
    expect(text).toMatch(/< set-cookie: \[redacted\]/);
    expect(text).toMatch(/"token": "\[redacted\]"/);
    expect(text).toMatch(/-H "x-fixtures-secret: \$SITE_MCP_FIXTURES_SECRET"/);
    expect(text).toMatch(/> authorization: Bearer \[redacted\]/);
    // A challenge's parameters are no credential: an implementer needs to read them.
    expect(text).toMatch(/< www-authenticate: Bearer resource_metadata="http:\/\/127\.0\.0\.1\/\.well-known\/oauth-protected-resource\/api\/mcp"/);
    for (const secret of ['fixtures-secret-1234', 'smcp_live_', 'hunter22', 'abcdefgh123']) expect(text).not.toContain(secret);
  });

  it('keeps prose after "bearer" readable and still redacts a credential there', () => {
    const redact = redactor([]);
    expect(redact('Send the bearer token in the Authorization header.')).toBe('Send the bearer token in the Authorization header.');
    expect(redact('authorization: Bearer smcp_live_Abc123Def456Ghi789')).toBe('authorization: Bearer [redacted]');
    expect(redact('authorization: Basic dXNlcjpwYXNz')).toBe('authorization: Basic [redacted]');
  });

  it('shows a hostile answer\'s control bytes escaped, never as terminal sequences', async () => {
    const log = new ExchangeLog();
    log.beginStep('a client GETs "/garbage"');
    await recordingInto(log, async () => (await recordedFetch(`${url}/garbage`)).text());
    const text = (await log.failureTranscript())!;
    expect(text).toContain('< \\u001b[2J\\u001b]0;pwned\\u0007 not JSON');
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });

  it('pretty-prints the JSON of an answer in SSE mode, event by event', async () => {
    const log = new ExchangeLog();
    log.beginStep('"agent" calls "list_sites"');
    await recordingInto(log, async () => (await recordedFetch(`${url}/sse`, { method: 'POST', body: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_sites"}}' })).text());
    const text = (await log.failureTranscript())!;
    expect(text).toMatch(/^1\. tools\/call list_sites$/m);
    expect(text).toContain('< event: message\n< data: {\n<   "jsonrpc": "2.0",\n<   "id": 1,');
  });

  it("leaves out the client's GET for an event stream that the server declined with 405, as the handshake", async () => {
    const log = new ExchangeLog();
    log.beginStep('"agent" calls "list_sites"');
    await recordingInto(log, async () => {
      await (await recordedFetch(`${url}/mcp`, { headers: { accept: 'text/event-stream' } })).text();
      await (await recordedFetch(`${url}/mcp`, { method: 'POST', body: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_sites"}}' })).text();
    });
    const text = (await log.failureTranscript())!;
    expect(text).toMatch(/^Sent and got in this step \(1 of 2 requests, the MCP handshake left out\)/);
    expect(text).toMatch(/^1\. tools\/call list_sites$/m);
    expect(text).not.toMatch(/> GET /);
  });

  it('outside a step nothing is kept', async () => {
    const log = new ExchangeLog();
    await (await recordedFetch(`${url}/x`)).text();
    expect(log.exchanges).toHaveLength(0);
    expect(await log.failureTranscript()).toBeUndefined();
  });
});
