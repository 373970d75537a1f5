// What one captured page may cost the server (issue 33 finding 5): a page's fetches read no more than its byte
// budget however many large images it names (rule capture-bytes-bounded; before, 99 images of 5 MB were each
// buffered whole and base64-encoded at once, about 1.4 GB). One capture browser at a time.
import { afterEach, describe, expect, it } from 'vitest';
import { chromiumCapture, type CaptureEngine } from '../domain/capture.js';
import { UnsafeUrlError } from '../domain/safe-fetch.js';
import { loadLimits } from '../../spec/index.js';
import type { Network } from '../services.js';
import { TEST_CHROMIUM } from './chromium.js';

const MB = 1024 * 1024;
let engine: CaptureEngine | undefined;
afterEach(async () => {
  await engine?.close();
  engine = undefined;
});

describe('a captured page\'s byte budget (rule capture-bytes-bounded)', () => {
  it('rule:capture-bytes-bounded — a page of twelve 2 MB images reads no more than its budget, and is still captured', async () => {
    const images = 12;
    const budget = 6 * MB;
    const page = `<html><body><h1>Gallery</h1>${Array.from({ length: images }, (_, i) => `<img src="/i${i}.png" width="40" height="40" alt="i${i}">`).join('')}</body></html>`;
    let read = 0;
    let asked = 0;
    const web: Network = {
      resolve: async (host) => (host === 'gallery.example' ? ['93.184.216.34'] : []),
      transport: async (url, _address, { maxBytes }) => {
        const body = url.pathname === '/' ? Buffer.from(page) : Buffer.alloc(2 * MB, 7);
        if (url.pathname !== '/') asked += 1;
        // As the real transport stops reading past maxBytes (safe-fetch.ts httpTransport).
        if (body.length > maxBytes) throw new UnsafeUrlError(`response over ${maxBytes} bytes`);
        read += body.length;
        return { status: 200, headers: { 'content-type': url.pathname === '/' ? 'text/html' : 'image/png' }, body };
      },
    };
    engine = chromiumCapture({ executablePath: TEST_CHROMIUM, pageBytes: budget });
    const capture = await engine.capture('https://gallery.example/', web);
    expect(capture.regions.flatMap((r) => r.boxes)).toContainEqual(expect.objectContaining({ kind: 'text', text: 'Gallery' }));
    expect(asked).toBeGreaterThan(0);
    expect(read).toBeLessThanOrEqual(budget);
  }, 60_000);

  it('rule:capture-bytes-bounded — the budget is spec/limits.json capture.pageBytes', () => {
    expect(loadLimits().capture.pageBytes).toBeGreaterThanOrEqual(5 * MB);
  });
});
