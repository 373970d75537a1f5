// robots.txt for the crawler of migrate_site_from_url (rule migrate-crawl-bounded), read and matched with work
// linear in what the source website serves (rule migrate-crawl-work-bounded).
//
// The groups, precedence and encoding are robots-parser's (the longest matching pattern wins, Allow wins a tie, a
// group named after our user agent before `*`, percent-encodings compared in upper case; reference/test/
// crawler-robots.test.ts holds the two to the same answers). Its matcher is not kept: it is Google's, which walks
// every possible match length for each character of a pattern, so one rule costs (pattern length × path length)
// on the event loop: a rule of 400,000 `*` against a 1,500-character query took 0.6 s per link, with every other
// request of the server waiting. Here a pattern is its literal runs between wildcards (a run of `*` is one `*`),
// and a match finds each run at its earliest place after the previous one, which is enough for a pattern that need
// only match a prefix (or, ending in `$`, the whole path): each run is searched once, from where the last one
// ended, so a rule costs (pattern length + path length).
//
// That is per rule: a file of 15,000 rules costs each address 15,000 of them (~0.3 s for a 2,000-character
// address), and a crawl matches up to maxPages addresses. So the rules are read once into a list without duplicates,
// highest precedence first, where the first match decides; and a crawl's matching has a budget of characters
// compared in all (spec/limits.json crawl.robotsMatchCharacters), spent in slices between which other work runs.
// Once spent, an address is neither allowed nor disallowed but `undecided`, and the crawler stops there, saying why.

/** One Allow or Disallow line: its first literal run, the runs between wildcards and after the last one. */
interface Rule {
  allow: boolean;
  /** The normalized pattern's length, wildcards included: the longest matching pattern decides (robots-parser). */
  priority: number;
  /** A pattern ending in `$` must match the whole path. */
  anchored: boolean;
  first: string;
  /** Present when the pattern has a wildcard: the non-empty runs between the first and the last `*`. */
  middle?: string[];
  last: string;
  /** Characters a path needs at least: the runs' lengths. */
  literalLength: number;
}

/** A robots.txt's answer for an address: `undecided` once the crawl's matching budget is spent. */
export type RobotsAnswer = 'allowed' | 'disallowed' | 'undecided';

export interface RobotsTxt {
  /** Whether the crawler may fetch `url`, a URL of the origin whose robots.txt this is. */
  isAllowed(url: string): Promise<RobotsAnswer>;
}

export interface MatchBudget {
  /** Characters the matching of one crawl may compare in all. */
  characters: number;
  /** Characters compared between two turns of the event loop, so other requests are answered meanwhile. */
  slice: number;
}

/** Without a budget: every rule is matched, in one go (tests comparing answers with robots-parser's). */
const UNBOUNDED: MatchBudget = { characters: Number.POSITIVE_INFINITY, slice: Number.POSITIVE_INFINITY };

/** A user agent as robots-parser compares them: lower case, without a version (`name/1.0`). */
function agentName(agent: string): string {
  const lower = agent.toLowerCase();
  const slash = lower.indexOf('/');
  return (slash === -1 ? lower : lower.slice(0, slash)).trim();
}

const upperEncodings = (path: string) => path.replace(/%[0-9a-fA-F]{2}/g, (m) => m.toUpperCase());

/** A pattern as robots-parser normalizes it: non-ASCII encoded, existing encodings kept, in upper case. */
function normalizePattern(pattern: string): string {
  try {
    return upperEncodings(encodeURI(pattern).replace(/%25/g, '%'));
  } catch {
    return pattern;
  }
}

function compile(pattern: string, allow: boolean): Rule {
  const normalized = normalizePattern(pattern);
  // Only a final `$` anchors (elsewhere it is a character), as in robots-parser and Google's matcher.
  const anchored = normalized.endsWith('$');
  const body = anchored ? normalized.slice(0, -1) : normalized;
  const firstStar = body.indexOf('*');
  if (firstStar === -1) return { allow, priority: normalized.length, anchored, first: body, last: '', literalLength: body.length };
  const lastStar = body.lastIndexOf('*');
  const first = body.slice(0, firstStar);
  const last = body.slice(lastStar + 1);
  const middle = body.slice(firstStar + 1, lastStar).split(/\*+/).filter((run) => run !== '');
  const literalLength = first.length + last.length + middle.reduce((sum, run) => sum + run.length, 0);
  return { allow, priority: normalized.length, anchored, first, middle, last, literalLength };
}

/** The characters matching `rule` against `path` may compare, at most (each run is searched once). */
function cost(rule: Rule, path: string): number {
  return 1 + (rule.middle ? path.length + rule.literalLength : Math.min(rule.first.length, path.length));
}

function matches(rule: Rule, path: string): boolean {
  if (path.length < rule.literalLength) return false;
  if (!rule.middle) return rule.anchored ? path === rule.first : path.startsWith(rule.first);
  if (!path.startsWith(rule.first)) return false;
  // Each run at its earliest place after the one before: any later place leaves less room for the runs after it.
  let at = rule.first.length;
  for (const run of rule.middle) {
    const found = path.indexOf(run, at);
    if (found === -1) return false;
    at = found + run.length;
  }
  if (rule.anchored) return path.length - rule.last.length >= at && path.endsWith(rule.last);
  return path.indexOf(rule.last, at) !== -1;
}

/**
 * The rules of `text` for `userAgent` (its own group, else `*`). The caller bounds `text` (spec/limits.json
 * crawl.robotsMaxBytes); reading it is one pass over its lines. `budget` bounds the matching of every address
 * asked of the answer together: one crawl's.
 */
export function parseRobotsTxt(text: string, userAgent: string, budget: MatchBudget = UNBOUNDED): RobotsTxt {
  const groups = new Map<string, Map<string, Rule>>();
  let agents: string[] = [];
  let afterAgentLine = false;
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const hash = raw.indexOf('#');
    const line = hash === -1 ? raw : raw.slice(0, hash);
    const colon = line.indexOf(':');
    if (colon === -1) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (!key) continue;
    if (key === 'user-agent') {
      // Consecutive User-agent lines name one group; the first after any other line starts a new one.
      if (!afterAgentLine) agents = [];
      if (value) agents.push(agentName(value));
    } else if (key === 'allow' || key === 'disallow' || key === 'crawl-delay') {
      for (const agent of agents) {
        let rules = groups.get(agent);
        if (!rules) groups.set(agent, (rules = new Map()));
        // A rule said twice is one rule.
        if (key !== 'crawl-delay' && value && !rules.has(`${key}:${value}`)) rules.set(`${key}:${value}`, compile(value, key === 'allow'));
      }
    }
    afterAgentLine = key === 'user-agent';
  }
  // The longest pattern decides, Allow a tie (robots-parser): in this order the first rule that matches decides.
  const rules = [...(groups.get(agentName(userAgent)) ?? groups.get('*') ?? new Map<string, Rule>()).values()].sort((a, b) => b.priority - a.priority || Number(b.allow) - Number(a.allow));
  let left = budget.characters;
  return {
    async isAllowed(url) {
      const parsed = new URL(url);
      const path = upperEncodings(parsed.pathname + parsed.search);
      let sinceTurn = 0;
      for (const rule of rules) {
        const characters = cost(rule, path);
        if (characters > left) return 'undecided';
        left -= characters;
        sinceTurn += characters;
        if (sinceTurn > budget.slice) {
          sinceTurn = 0;
          await new Promise((resolve) => setImmediate(resolve));
        }
        if (matches(rule, path)) return rule.allow ? 'allowed' : 'disallowed';
      }
      return 'allowed';
    },
  };
}
