// The scenario world: the target, a fixtures client, every named user, site, page, section, record and
// connection the scenario made, the last answer, and a PRNG seeded from the run's seed and the scenario name
// (so a replay with --seed reproduces the same random data). Placeholders in step arguments and docstrings
// resolve against it, so feature files stay readable and never hard-code ids:
//   {{site:main}} {{page:main/home}} {{section:main/home/hero}} {{record:main/leads/0}} {{user:olive}}
//   {{workspace:olive}} {{email:olive}} {{plan}} {{base}} (the target's base address) {{host:shop}} {{remembered:key}} {{random:label}} {{repeat:x:1000}}
//   {{public:main}}: the live address of a published site (the declared publicSiteUrl)
//   {{type:hero}} {{field:heading}}: the target's name for one of the kit's section types or text fields (the
//   declared `sections` mapping, or ours when it adopts section-types), else the step is not checked (NotDeclared)
//   {{canary:<vector>}}: a URL of one of the kit's SSRF canaries (conformance/lib/canary.ts), spelled as <vector>
//   says, with a token of this scenario's own; {{canary-path:<vector>}}: its path, which a target's report of a
//   skipped URL keeps however it re-spells the host
//   {{non-public:<address>}}: a real non-public address, only where a broken target's fetch of it cannot leave this
//   machine (conformance/lib/network.ts), else the step is not checked
//   {{decision:<rule-id>:<value>}}: a value of one of our decision rules (the source does not give it); it
//   resolves only when the target's declaration adopts that rule, else the step is not checked (NotDeclared)
//   {{limit:<path>}}: one of the target's values of the limits §8 leaves open (LimitValues of the fixtures schema:
//   throttles.create_site.limit, importMaxBytes.value, siteLimitByPlan.starter, imageCreditCost.value, …), known
//   after the step `Given the target's limit values are known`; `+`, `-` and `*` join such paths and integers
//   ({{limit:siteLimitByPlan.starter-2}}, {{limit:imageCreditCost.value*2}}; `*` before `+` and `-`)
import { After, Before, defineParameterType, setDefaultTimeout, setWorldConstructor, World, type IWorldOptions } from '@cucumber/cucumber';
import { FixturesClient, fixturesSupport, type LimitValues, type WorldResponse } from '../../conformance/lib/fixtures-client.js';
import { activeEra, type Envelope, type HttpAnswer, type McpConnection } from '../../conformance/lib/mcp-client.js';
import { activeDeclaration, adopts, CHOICE_NOT_DECLARED_MEDIA_TYPE, NOT_CHECKED_MEDIA_TYPE, NotDeclared, outputPointer, sectionVocabulary } from '../../conformance/lib/declaration.js';
import { canaryFromEnvironment, canaryListens, canaryPath, canaryUrl, CANARY_VECTORS, type CanaryVector } from '../../conformance/lib/canary.js';
import { nonPublicAddressesRefused } from '../../conformance/lib/network.js';
import ipaddr from 'ipaddr.js';
import { ExchangeLog } from '../../conformance/lib/transcript.js';
import { HOOK } from './hook.js';

setDefaultTimeout(60_000);

export interface NamedConnection { connectionId: string; token: string; userKey: string; mcp: McpConnection }
export interface LastCall { tool?: string; connection?: string; args?: Record<string, unknown>; envelope?: Envelope }

/** mulberry32: a small, good-enough PRNG for test data. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

export class SiteWorld extends World {
  readonly url: string;
  readonly fixtures: FixturesClient;
  readonly seed: number;
  readonly worlds: WorldResponse[] = [];
  readonly connections = new Map<string, NamedConnection>();
  readonly remembered = new Map<string, unknown>();
  /** The error code the target answered for each kind of refusal, the first time this scenario saw it alone. */
  readonly codesSeen = new Map<string, string>();
  last: LastCall = {};
  /** Set when a step needed an undeclared value: the rest of the scenario is not checked (support/declared.ts). */
  notDeclared: string | undefined;
  /** The envelopes of the last repeated call ("calls X N times"), in completion order. */
  lastBatch: Envelope[] = [];
  lastHttp: HttpAnswer | undefined;
  lastPlanId: string | undefined;
  random: () => number = Math.random;
  /** When the scenario began (ms since the epoch): canary hits from then on are its own (steps/ssrf.steps.ts). */
  readonly startedAt = Date.now();
  /** Every HTTP exchange of this scenario's steps, for the transcript of a failed step (support/transcript.ts). */
  readonly exchanges = new ExchangeLog();
  /** The limit values {{limit:…}} reads: ours or the target's (`Given the target's limit values are known`). */
  limitValues: LimitValues | undefined;

  constructor(options: IWorldOptions) {
    super(options);
    const url = process.env.SITE_MCP_URL;
    const secret = process.env.SITE_MCP_FIXTURES_SECRET;
    if (!url || !secret) throw new Error('SITE_MCP_URL and SITE_MCP_FIXTURES_SECRET must be set (run through `npm run conformance`).');
    this.url = url;
    this.fixtures = new FixturesClient(url, secret);
    this.seed = Number(process.env.SITE_MCP_SEED ?? 0);
  }

  user(key: string) {
    for (const w of this.worlds) if (w.users[key]) return { ...w.users[key]!, workspaceId: w.workspaceId };
    throw new Error(`no user "${key}" in this scenario`);
  }

  /**
   * A world user with their password for the app sign-in page, for the steps that sign in as them (right or wrong
   * password: an account that has a password is what a sign-in check is about). A world built with passwords on
   * demand (optional part passwords-on-demand) answered none, so the first such step asks the target for one
   * (POST /users/{userId}/password) and the scenario keeps it.
   */
  async signInUser(key: string) {
    const found = this.user(key);
    if (found.password !== undefined) return { ...found, password: found.password };
    const { password } = await this.fixtures.userPassword(found.userId);
    for (const w of this.worlds) if (w.users[key]) w.users[key]!.password = password;
    return { ...found, password };
  }

  site(key: string) {
    for (const w of this.worlds) if (w.sites[key]) return { ...w.sites[key]!, workspaceId: w.workspaceId };
    throw new Error(`no site "${key}" in this scenario`);
  }

  connection(name: string): NamedConnection {
    const c = this.connections.get(name);
    if (!c) throw new Error(`no connection "${name}" in this scenario`);
    return c;
  }

  /**
   * Records a check this scenario could not make because the target did not declare the value it needs
   * (rule kit-judges-by-source): reported as "not checked", never a failure.
   */
  notChecked(what: string): void {
    void this.attach(what, NOT_CHECKED_MEDIA_TYPE);
  }

  /**
   * Records a choice of the target's the scenario could not compare because it was not declared (an error code, the
   * error object's details): the source's own check in the step ran, so this is listed apart, never a skipped check.
   */
  choiceNotDeclared(what: string): void {
    void this.attach(what, CHOICE_NOT_DECLARED_MEDIA_TYPE);
  }

  /** What a transcript must never show: the fixtures secret and every token this scenario holds. */
  secrets(): string[] {
    return [process.env.SITE_MCP_FIXTURES_SECRET ?? '', ...[...this.connections.values()].map((c) => c.token)];
  }

  /** A random token of lower-case letters and digits from the scenario's seeded PRNG. */
  randomWord(length = 8): string {
    return Array.from({ length }, () => 'abcdefghijklmnopqrstuvwxyz0123456789'[Math.floor(this.random() * 36)]).join('');
  }

  /** A count a step was given: an integer, or a {{limit:…}} placeholder that resolves to one. */
  count(text: string): number {
    const value = Number(this.resolve(text));
    if (!Number.isInteger(value)) throw new Error(`${text} is not a whole number (${value})`);
    return value;
  }

  /** {{limit:<expression>}}: paths into the limit values and integers joined by +, - and * (rule limit-values). */
  limitValue(expression: string): number {
    const values = this.limitValues;
    if (!values) throw new Error(`{{limit:${expression}}} needs the step "Given the target's limit values are known" before it`);
    const operand = (text: string): number => {
      const word = text.trim();
      if (/^\d+$/.test(word)) return Number(word);
      const found = word.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], values);
      if (typeof found !== 'number') throw new Error(`{{limit:${expression}}}: ${word} names no number of the limit values (${JSON.stringify(values)})`);
      return found;
    };
    const product = (term: string) => term.split('*').map(operand).reduce((a, b) => a * b, 1);
    const [first, ...rest] = expression.split(/([+-])/);
    let total = product(first!);
    for (let i = 0; i < rest.length; i += 2) total += (rest[i] === '+' ? 1 : -1) * product(rest[i + 1]!);
    return total;
  }

  resolve(text: string): string {
    return text.replace(/\{\{([\w-]+)(?::([^}]+))?\}\}/g, (_, kind: string, ref: string | undefined) => {
      const parts = (ref ?? '').split('/');
      const need = <T>(value: T | undefined, what: string): T => {
        if (value === undefined) throw new Error(`{{${kind}:${ref}}}: no ${what} in this scenario`);
        return value;
      };
      switch (kind) {
        case 'site':
          return this.site(parts[0]!).websiteId;
        case 'page':
          return need(this.site(parts[0]!).pages[parts[1]!], `page ${parts[1]}`).pageId;
        case 'section':
          return need(need(this.site(parts[0]!).pages[parts[1]!], `page ${parts[1]}`).sections[parts[2]!], `section ${parts[2]}`);
        case 'record':
          return need(need(this.site(parts[0]!).records[parts[1]!], `records ${parts[1]}`)[Number(parts[2])], `record ${ref}`);
        case 'user':
          return this.user(parts[0]!).userId;
        case 'email':
          return this.user(parts[0]!).email;
        case 'workspace':
          return this.user(parts[0]!).workspaceId;
        case 'plan':
          // Where a prepare_* answer carries the plan id is our shape (planId), read only when declared
          // (outputSchemas, or a pointer in outputFields), else learned from the fixtures (steps/mcp.steps.ts).
          if (this.lastPlanId === undefined && outputPointer('prepare_publish_site', '/planId') === undefined) throw new NotDeclared('the plan id in a prepare_* answer (outputSchemas or outputFields, or the fixtures part connection-plans)');
          return need(this.lastPlanId, 'prepared plan');
        case 'base':
          return this.url;
        case 'host':
        case 'random': {
          // Unique to this scenario, stable within it, reproducible from the seed:
          // {{host:shop}} → shop-<random>.test, {{random:name}} → <random>. Each host is a registrable domain
          // of its own: under a shared parent, one scenario's records would make every other host exist
          // (rule domain-nonexistent-address).
          const key = `${kind}:${parts[0]}`;
          if (!this.remembered.has(key)) this.remembered.set(key, kind === 'host' ? `${parts[0]}-${this.randomWord()}.test` : this.randomWord());
          return String(this.remembered.get(key));
        }
        case 'repeat': {
          // {{repeat:x:1000}} → 1000 times "x" (for oversized arguments)
          const [chars, times] = (ref ?? '').split(':');
          return need(chars, 'text').repeat(Number(times));
        }
        case 'website':
          // {{website}} → the kit's loopback website (conformance/lib/test-website.ts), when the target may fetch it
          if (!process.env.SITE_MCP_TEST_WEBSITE_URL) throw new NotDeclared('the kit website: the target\'s fixtures do not support fetch-allowlist');
          return process.env.SITE_MCP_TEST_WEBSITE_URL;
        case 'public': {
          // {{public:main}} → the live address of site main, from the declared publicSiteUrl template
          // Declared, or else said by the world answer (publicUrl): the source names a public address, not where.
          const template = activeDeclaration()?.publicSiteUrl;
          const site = this.site(need(parts[0], 'site'));
          if (template) return template.replaceAll('{base}', this.url).replaceAll('{websiteId}', site.websiteId);
          if (site.publicUrl) return site.publicUrl;
          throw new NotDeclared('where a published site is served (publicSiteUrl, or publicUrl in the world answer)');
        }
        case 'canary':
        case 'canary-path': {
          const vector = need(ref, 'vector') as CanaryVector;
          if (!(vector in CANARY_VECTORS)) throw new Error(`{{${kind}:${ref}}}: no such canary vector; known: ${Object.keys(CANARY_VECTORS).join(', ')}`);
          const address = canaryFromEnvironment();
          if (!address) throw new Error('SITE_MCP_CANARY is not set: run through `npm run conformance`, which starts the canaries');
          if (!this.remembered.has('canary-token')) this.remembered.set('canary-token', this.randomWord());
          const token = String(this.remembered.get('canary-token'));
          if (kind === 'canary-path') return canaryPath(vector, token);
          // A name is sent only to a target that resolves it at the kit's stub: another would ask a real resolver.
          if (vector === 'dns-name' && !fixturesSupport('fetch-resolver')) throw new NotDeclared('the fixtures part fetch-resolver (the target resolves the names it fetches through the kit\'s DNS stub)');
          if (!canaryListens(address, vector)) this.notChecked(`canary hits for ${vector}: the kit could not listen on ports 80 and 443 there (run as root or in a network namespace, as npm test does); the answer is still checked`);
          return canaryUrl(address, vector, token);
        }
        case 'non-public': {
          const refused = nonPublicAddressesRefused(this.url);
          if (refused) throw new NotDeclared(`the non-public address ${ref} (${refused})`);
          // An address of the same class a canary listens on, where the kit listens on one (conformance/lib/canary.ts).
          const written = need(ref, 'address');
          const range = ipaddr.isValid(written) ? ipaddr.process(written).range() : undefined;
          return (range && canaryFromEnvironment()?.nonPublic?.[range]) || written;
        }
        case 'decision': {
          // {{decision:limit-values:120}} → "120" when the target adopts limit-values
          const [rule, ...value] = (ref ?? '').split(':');
          if (!adopts(rule!)) throw new NotDeclared(`${rule} (adopts)`);
          return value.join(':');
        }
        case 'limit':
          return String(this.limitValue(need(ref, 'expression')));
        case 'type':
          return sectionVocabulary('types', ref!);
        case 'field':
          return sectionVocabulary('fields', ref!);
        case 'remembered':
          return String(need(this.remembered.get(ref!), `remembered value ${ref}`));
        default:
          throw new Error(`unknown placeholder {{${kind}}}`);
      }
    });
  }
}

setWorldConstructor(SiteWorld);

// A count in a step's text: an integer, or {{limit:…}} for one that comes from the target's limit values. The step
// resolves it (world.count), so a value the target did not make known stops the scenario as not checked.
defineParameterType({ name: 'count', regexp: /\d+|\{\{limit:[^}]+\}\}/, transformer: (text: string) => text });

// The same scenario in another protocol era of the run draws other random data (its hosts, tokens and names would
// otherwise meet the first era's in the target and the kit's DNS zone and website); the 2025-11-25 era draws what
// runs before there were eras drew.
const seedRandom = Object.assign(function (this: SiteWorld, { pickle }: { pickle: { name: string } }) {
  const era = activeEra();
  this.random = prng(hash(`${this.seed}:${pickle.name}${era === '2025-11-25' ? '' : `:${era}`}`));
}, { [HOOK]: true as const });
Before(seedRandom);

const closeConnections = Object.assign(async function (this: SiteWorld) {
  await Promise.all([...this.connections.values()].map((c) => c.mcp.close()));
}, { [HOOK]: true as const });
After(closeConnections);
