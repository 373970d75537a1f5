// Runs inside a page being captured (reference/infra/capture.ts reads this file as text and evaluates it with the
// page's own JavaScript off): reads the laid-out DOM as positioned boxes of text runs, links and images, grouped in
// vertical bands, the page's top-level regions. Scripts, styles, frames, embeds and forms are skipped (rule
// migrate-no-source-scripts); plain JavaScript, no build step.
function readLayout(limits) {
  const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'IFRAME', 'FRAME', 'OBJECT', 'EMBED', 'SVG', 'CANVAS', 'VIDEO', 'AUDIO', 'FORM', 'HEAD', 'SELECT', 'TEXTAREA', 'INPUT', 'BUTTON']);
  const round = (n) => Math.round(n);
  const hex = (rgb) => {
    const m = /^rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(rgb);
    return m ? `#${[m[1], m[2], m[3]].map((v) => Number(v).toString(16).padStart(2, '0')).join('')}` : undefined;
  };
  const visible = (el) => {
    const style = getComputedStyle(el);
    return style.display !== 'none' && style.visibility !== 'hidden' && Number(style.opacity) > 0;
  };
  const boxes = [];
  const rectOf = (r) => ({ x: round(r.left + scrollX), y: round(r.top + scrollY), w: round(r.width), h: round(r.height) });
  // Text gets its width rounded up and a pixel to spare, so a run that fit on its lines in the source wraps the
  // same way when drawn again in the same font.
  const textRectOf = (r) => ({ ...rectOf(r), w: Math.ceil(r.width) + 1 });
  const styleOf = (el) => {
    const style = getComputedStyle(el);
    const lineHeight = parseFloat(style.lineHeight);
    return {
      fontSize: Math.min(200, Math.max(6, round(parseFloat(style.fontSize) || 16))),
      ...(Number.isFinite(lineHeight) ? { lineHeight: Math.min(400, Math.max(6, round(lineHeight))) } : {}),
      fontFamily: style.fontFamily.replace(/["']/g, '').slice(0, 120),
      bold: Number(style.fontWeight) >= 600,
      color: hex(style.color),
    };
  };
  // A page with a huge DOM costs at most this many elements' styles (a bound in count, next to capture.ts's in time).
  let visits = 0;
  const walk = (el) => {
    if (++visits > limits.maxElements || boxes.length >= limits.maxBoxes || SKIP.has(el.tagName.toUpperCase()) || !visible(el)) return;
    if (el instanceof HTMLImageElement) {
      const r = el.getBoundingClientRect();
      if (r.width >= 1 && r.height >= 1 && el.currentSrc) boxes.push({ kind: 'image', ...rectOf(r), src: el.currentSrc, alt: el.alt });
      return;
    }
    if (el instanceof HTMLAnchorElement && el.href) {
      const r = el.getBoundingClientRect();
      const text = el.innerText.replace(/\s+/g, ' ').trim();
      if (r.width >= 1 && r.height >= 1) boxes.push({ kind: 'link', ...textRectOf(r), href: el.href, ...(text ? { text } : {}), ...styleOf(el) });
      // Images inside a link keep their own box under the link's.
      el.querySelectorAll('img').forEach((img) => walk(img));
      return;
    }
    for (const child of Array.from(el.childNodes)) {
      if (child.nodeType === Node.TEXT_NODE) {
        const text = (child.textContent ?? '').replace(/\s+/g, ' ').trim();
        if (!text) continue;
        const range = document.createRange();
        range.selectNodeContents(child);
        const r = range.getBoundingClientRect();
        if (r.width >= 1 && r.height >= 1 && boxes.length < limits.maxBoxes) boxes.push({ kind: 'text', ...textRectOf(r), text, ...styleOf(el) });
      } else if (child.nodeType === Node.ELEMENT_NODE) walk(child);
    }
  };
  walk(document.body);
  const width = Math.min(limits.maxWidth, Math.max(1, document.documentElement.scrollWidth));
  const height = Math.min(limits.maxHeight, Math.max(1, document.documentElement.scrollHeight));
  // Regions: the page's top-level blocks (through wrappers that hold a single block), as vertical bands.
  let root = document.body;
  for (let depth = 0; depth < 5; depth++) {
    const kids = Array.from(root.children).slice(0, 2000).filter((c) => !SKIP.has(c.tagName.toUpperCase()) && c.getBoundingClientRect().height > 0);
    if (kids.length !== 1) break;
    root = kids[0];
  }
  const spans = Array.from(root.children)
    .slice(0, 2000)
    .filter((c) => !SKIP.has(c.tagName.toUpperCase()) && visible(c))
    .map((c) => c.getBoundingClientRect())
    .filter((r) => r.height > 0)
    .map((r) => [round(r.top + scrollY), round(r.bottom + scrollY)])
    .sort((a, b) => a[0] - b[0]);
  const bands = [];
  for (const span of spans) {
    const last = bands[bands.length - 1];
    if (last && span[0] < last[1]) last[1] = Math.max(last[1], span[1]);
    else bands.push([...span]);
  }
  while (bands.length > limits.maxRegions) {
    // Join the two neighbours with the smallest combined height until the region cap holds.
    let best = 0;
    for (let i = 1; i < bands.length - 1; i++) if (bands[i][1] - bands[i][0] + bands[i + 1][1] - bands[i + 1][0] < bands[best][1] - bands[best][0] + bands[best + 1][1] - bands[best + 1][0]) best = i;
    bands.splice(best, 2, [bands[best][0], bands[best + 1][1]]);
  }
  if (bands.length === 0) bands.push([0, height]);
  // Every band reaches to the next one, the first from the page top and the last to the page bottom, so no box falls between.
  bands[0][0] = 0;
  bands.forEach((band, i) => (band[1] = i + 1 < bands.length ? bands[i + 1][0] : Math.max(band[1], height)));
  const regions = bands.map(([top, bottom]) => ({ top, height: Math.max(1, bottom - top), boxes: [] }));
  for (const box of boxes) {
    const y = box.y;
    if (y < 0 || box.x < 0 || y >= limits.maxHeight || box.x >= limits.maxWidth) continue;
    const region = regions.find((r) => y >= r.top && y < r.top + r.height) ?? regions[regions.length - 1];
    region.boxes.push(box);
  }
  return { width, regions: regions.filter((r) => r.boxes.length > 0) };
}
