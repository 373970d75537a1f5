// The two halves of an OAuth 2.1 sign-in that belong to the client's machine, shared by the tests that run an
// off-the-shelf client's flow: the loopback redirect URI a desktop client listens on, and the owner's sign-in and
// consent clicked in Chromium on the reference's own pages.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { REPORTS } from './chromium.js';

export interface CallbackServer {
  server: Server;
  url: string;
  /** The next URL the browser was redirected to (waits at most 15 s). */
  next(): Promise<URL>;
  close(): Promise<void>;
}

/** The client's loopback redirect URI (as a desktop client listens for it): hands each arriving URL to the test. */
export async function callbackServer(): Promise<CallbackServer> {
  const waiting: ((url: URL) => void)[] = [];
  const arrived: URL[] = [];
  const srv = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end('<!doctype html><title>Signed in</title><h1>You can close this window</h1>');
    const w = waiting.shift();
    if (w) w(url);
    else arrived.push(url);
  });
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  return {
    server: srv,
    url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}/callback`,
    next: () => {
      const ready = arrived.shift();
      if (ready) return Promise.resolve(ready);
      return new Promise<URL>((resolve, reject) => {
        // Generous: on a busy CI machine the provider's redirect after the consent once took longer than 15 s.
        const timer = setTimeout(() => reject(new Error('no redirect reached the client within 45 s')), 45_000);
        waiting.push((url) => {
          clearTimeout(timer);
          resolve(url);
        });
      });
    },
    close: () => new Promise<void>((resolve) => srv.close(() => resolve())),
  };
}

/** The owner's side: sign in (if asked), read the consent page, untick what is not wanted, approve. */
export async function consentInBrowser(
  page: Page,
  authorizationUrl: URL,
  owner: { email: string; password: string },
  untick: string[],
  screenshot = 'oauth-consent',
): Promise<string> {
  await page.goto(authorizationUrl.href);
  if ((await page.locator('h1').textContent()) === 'Sign in') {
    await page.fill('input[name=email]', owner.email);
    await page.fill('input[name=password]', owner.password);
    await page.click('button[type=submit]');
    await page.waitForSelector('button[value=approve]');
  }
  const consentText = (await page.textContent('body')) ?? '';
  await page.screenshot({ path: `${REPORTS}${screenshot}.png`, fullPage: true });
  for (const scope of untick) await page.uncheck(`input[name=scope][value="${scope}"]`);
  await page.click('button[value=approve]');
  return consentText;
}
