// The bounded, robots-respecting crawler of migrate_site_from_url. It reads text, headings, links and image
// URLs only; scripts, styles, iframes, forms and embeds are dropped, so nothing executable is carried over
// (rule migrate-no-source-scripts). Every fetch goes through safeFetch (rule migrate-ssrf-hardened). What a source
// website serves costs bounded event-loop time (rule migrate-crawl-work-bounded): robots.txt is read up to a cap and
// matched in linear time per rule, within one budget for the whole crawl (robots-txt.ts; past it the crawl stops),
// and an over-long address is neither matched nor fetched.
import { Parser } from 'htmlparser2';
import type { Limits } from '../../spec/index.js';
import { parseRobotsTxt, type RobotsTxt } from './robots-txt.js';
import { safeFetch, timeWithin, type SafeFetchOptions } from './safe-fetch.js';

export interface CrawledPage {
  url: string;
  path: string;
  title: string;
  headings: string[];
  paragraphs: string[];
  images: { url: string; alt: string }[];
  droppedEmbeds: number;
}

export interface CrawlResult {
  pages: CrawledPage[];
  failed: { url: string; reason: string }[];
  truncated: boolean;
  /** The crawl stopped because matching robots.txt spent its budget (rule migrate-crawl-work-bounded). */
  robotsBudgetSpent: boolean;
}

const DROP = new Set(['script', 'style', 'noscript', 'iframe', 'object', 'embed', 'form', 'template', 'svg', 'canvas']);
const USER_AGENT = 'site-mcp-migrate';

export function extractPage(url: string, html: string): CrawledPage & { links: string[] } {
  const page: CrawledPage & { links: string[] } = { url, path: new URL(url).pathname, title: '', headings: [], paragraphs: [], images: [], droppedEmbeds: 0, links: [] };
  const stack: string[] = [];
  let dropping = 0;
  let text = '';
  const flush = (into: string[] | null) => {
    const clean = text.replace(/\s+/g, ' ').replace(/[<>]/g, '').trim();
    if (into && clean) into.push(clean.slice(0, 2000));
    text = '';
  };
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        stack.push(name);
        if (DROP.has(name)) {
          dropping++;
          if (name !== 'style' && name !== 'noscript' && name !== 'template') page.droppedEmbeds++;
          return;
        }
        if (dropping) return;
        if (name === 'a' && attrs.href) page.links.push(attrs.href);
        if (name === 'img' && attrs.src) page.images.push({ url: attrs.src, alt: (attrs.alt ?? '').replace(/[<>]/g, '').slice(0, 200) });
      },
      ontext(data) {
        if (!dropping) text += data;
      },
      onclosetag(name) {
        stack.pop();
        if (DROP.has(name)) {
          dropping = Math.max(0, dropping - 1);
          return;
        }
        if (dropping) return;
        if (name === 'title') {
          page.title = text.replace(/\s+/g, ' ').trim().slice(0, 200);
          text = '';
        } else if (/^h[1-3]$/.test(name)) flush(page.headings);
        else if (name === 'p' || name === 'li') flush(page.paragraphs);
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  return page;
}

export async function crawl(start: string, options: { maxPages: number; limits: Limits['crawl']; fetch?: Partial<SafeFetchOptions>; until?: number }): Promise<CrawlResult> {
  const { robotsMaxBytes, robotsMatchCharacters, robotsMatchSlice, urlMaxCharacters, fetchSeconds, deadlineSeconds } = options.limits;
  const origin = new URL(start).origin;
  // Its own deadline, or the migration's when that comes first (rule migrate-crawl-time-bounded).
  const deadline = Math.min(Date.now() + deadlineSeconds * 1000, options.until ?? Infinity);
  // Each fetch has fetchSeconds, and none outlives the crawl's deadline (rule migrate-crawl-work-bounded).
  const fetchOptions = (): SafeFetchOptions => ({ maxBytes: 2 * 1024 * 1024, maxRedirects: 3, ...options.fetch, timeoutMs: timeWithin(fetchSeconds * 1000, deadline) });
  let robots: RobotsTxt | undefined;
  try {
    const res = await safeFetch(`${origin}/robots.txt`, fetchOptions());
    // Only the first robotsMaxBytes count (RFC 9309 2.5): a rule cut in two at the end is read as it stands.
    if (res.status === 200) robots = parseRobotsTxt(res.body.subarray(0, robotsMaxBytes).toString('utf8'), USER_AGENT, { characters: robotsMatchCharacters, slice: robotsMatchSlice });
  } catch {
    // No robots.txt reachable: nothing is disallowed.
  }
  const queue = [new URL(start).href];
  const seen = new Set(queue);
  const result: CrawlResult = { pages: [], failed: [], truncated: false, robotsBudgetSpent: false };
  for (let url = queue.shift(); url !== undefined; url = queue.shift()) {
    if (result.pages.length + result.failed.length >= options.maxPages || Date.now() > deadline) {
      result.truncated = true;
      break;
    }
    if (url.length > urlMaxCharacters) {
      result.failed.push({ url: `${url.slice(0, 200)}…`, reason: `address longer than ${urlMaxCharacters} characters` });
      continue;
    }
    const answer = robots ? await robots.isAllowed(url) : 'allowed';
    if (answer === 'undecided') {
      result.truncated = result.robotsBudgetSpent = true;
      break;
    }
    if (answer === 'disallowed') {
      result.failed.push({ url, reason: 'disallowed by robots.txt' });
      continue;
    }
    try {
      const res = await safeFetch(url, fetchOptions());
      if (res.status !== 200 || !res.contentType.includes('text/html')) throw new Error(`HTTP ${res.status} ${res.contentType}`);
      const page = extractPage(res.url, res.body.toString('utf8'));
      result.pages.push(page);
      for (const href of page.links) {
        let next: URL;
        try {
          next = new URL(href, res.url);
        } catch {
          continue;
        }
        next.hash = '';
        if (next.origin === origin && !seen.has(next.href)) {
          seen.add(next.href);
          queue.push(next.href);
        }
      }
    } catch (error) {
      result.failed.push({ url, reason: error instanceof Error ? error.message : 'fetch failed' });
    }
  }
  return result;
}
