// The scenario world: the target, a fixtures client, every named user, site, page, section, record and
// connection the scenario made, and the last answer. Placeholders {{site:main}}, {{page:main/home}},
// {{section:main/home/hero}}, {{user:olive}}, {{record:main/leads/0}}, {{plan}}, {{workspace:olive}} resolve
// against it, so feature files stay readable and never hard-code ids.
import { After, setDefaultTimeout, setWorldConstructor, World, type IWorldOptions } from '@cucumber/cucumber';
import { FixturesClient, type WorldResponse } from '../../conformance/lib/fixtures-client.js';
import { McpConnection, type Envelope } from '../../conformance/lib/mcp-client.js';

setDefaultTimeout(60_000);

export interface NamedConnection { connectionId: string; token: string; userKey: string; mcp: McpConnection }

export class SiteWorld extends World {
  readonly url: string;
  readonly fixtures: FixturesClient;
  readonly worlds: WorldResponse[] = [];
  readonly connections = new Map<string, NamedConnection>();
  readonly remembered = new Map<string, unknown>();
  last: { tool?: string; connection?: string; envelope?: Envelope } = {};
  lastHttp: { status: number; headers: Headers; text: string; json: unknown } | undefined;
  lastPlanId: string | undefined;

  constructor(options: IWorldOptions) {
    super(options);
    const url = process.env.SITE_MCP_URL;
    const secret = process.env.SITE_MCP_FIXTURES_SECRET;
    if (!url || !secret) throw new Error('SITE_MCP_URL and SITE_MCP_FIXTURES_SECRET must be set (run through `npm run conformance`).');
    this.url = url;
    this.fixtures = new FixturesClient(url, secret);
  }

  user(key: string) {
    for (const w of this.worlds) if (w.users[key]) return { ...w.users[key]!, workspaceId: w.workspaceId };
    throw new Error(`no user "${key}" in this scenario`);
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

  resolve(text: string): string {
    return text.replace(/\{\{(\w+)(?::([^}]+))?\}\}/g, (_, kind: string, ref: string | undefined) => {
      const parts = (ref ?? '').split('/');
      switch (kind) {
        case 'site':
          return this.site(parts[0]!).websiteId;
        case 'page':
          return this.site(parts[0]!).pages[parts[1]!]!.pageId;
        case 'section':
          return this.site(parts[0]!).pages[parts[1]!]!.sections[parts[2]!]!;
        case 'record':
          return this.site(parts[0]!).records[parts[1]!]![Number(parts[2])]!;
        case 'user':
          return this.user(parts[0]!).userId;
        case 'workspace':
          return this.user(parts[0]!).workspaceId;
        case 'plan':
          if (!this.lastPlanId) throw new Error('no plan was prepared in this scenario');
          return this.lastPlanId;
        case 'host': {
          // A hostname unique to this scenario, stable within it: {{host:shop}} → shop-<random>.example.test
          const key = `host:${parts[0]}`;
          if (!this.remembered.has(key)) this.remembered.set(key, `${parts[0]}-${Math.random().toString(36).slice(2, 10)}.example.test`);
          return String(this.remembered.get(key));
        }
        case 'remembered':
          return String(this.remembered.get(parts[0]!));
        default:
          throw new Error(`unknown placeholder {{${kind}}}`);
      }
    });
  }
}

setWorldConstructor(SiteWorld);

After(async function (this: SiteWorld) {
  await Promise.all([...this.connections.values()].map((c) => c.mcp.close()));
});
