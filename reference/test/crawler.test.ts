// The migration converter keeps text, headings, links and images and drops everything executable
// (rule migrate-no-source-scripts), producing content that passes the section schemas.
import { describe, expect, it } from 'vitest';
import { extractPage } from '../infra/crawler.js';
import { toTypedPage } from '../tools/migrate-site.js';
import { validateSectionContent } from '../domain/section-content.js';

const html = `<!doctype html><html><head><title>Rosa's Bakery</title><script>alert(1)</script><style>body{}</style></head>
<body><h1>Fresh bread daily</h1><p>We bake <b>every</b> morning.</p><iframe src="https://widgets.example/booking"></iframe>
<form action="/x"><p>Inside a form</p></form><h2>Our story</h2><p>Since 1990 &amp; counting.</p>
<img src="https://cdn.example/loaf.jpg" alt="A loaf"><a href="/about">About</a><script src="https://evil.example/x.js"></script></body></html>`;

describe('extractPage', () => {
  const page = extractPage('https://rosa.example/', html);

  it('rule:migrate-no-source-scripts — drops scripts, styles, iframes and forms, and counts the embeds it dropped', () => {
    const all = JSON.stringify(page);
    expect(all).not.toContain('alert');
    expect(all).not.toContain('evil.example');
    expect(all).not.toContain('widgets.example');
    expect(all).not.toContain('Inside a form');
    expect(page.droppedEmbeds).toBe(4);
  });

  it('keeps title, headings, paragraphs, images and links', () => {
    expect(page.title).toBe("Rosa's Bakery");
    expect(page.headings).toEqual(['Fresh bread daily', 'Our story']);
    expect(page.paragraphs).toEqual(['We bake every morning.', 'Since 1990 & counting.']);
    expect(page.images).toEqual([{ url: 'https://cdn.example/loaf.jpg', alt: 'A loaf' }]);
    expect(page.links).toEqual(['/about']);
  });

  it('converts to typed sections that pass the section schemas', () => {
    const typed = toTypedPage(page, 0);
    expect(typed.key).toBe('home');
    expect(typed.sections.map((s) => s.externalKey)).toEqual(['home/hero', 'home/text', 'home/gallery']);
    for (const s of typed.sections) expect(() => validateSectionContent(s.type, s.content)).not.toThrow();
  });
});
