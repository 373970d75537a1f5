// Shared pieces of the black-box property tests: the target, a world factory, seeded fast-check parameters
// with a one-line replay on failure.
import { inject } from 'vitest';
import fc from 'fast-check';
import { FixturesClient, fixturesSupport, type WorldRequest } from '../lib/fixtures-client.js';
import { McpConnection } from '../lib/mcp-client.js';
import { learnSectionVocabulary } from '../lib/declaration.js';

// The target's declaration (conformance/lib/declaration.ts reads it from the environment): the properties check a
// value the source leaves open only when it is declared (rule kit-judges-by-source).
if (inject('siteMcpDeclaration')) process.env.SITE_MCP_DECLARATION = inject('siteMcpDeclaration');
else delete process.env.SITE_MCP_DECLARATION;
// What the target's world answer names its section types and fields (global-setup.ts), for a target that declares none.
learnSectionVocabulary(JSON.parse(inject('siteMcpSectionVocabulary') || '{}'));
// The optional fixtures parts the target listed (fixturesSupport), unless the kit's CLI already passed them.
if (inject('siteMcpFixturesSupports') && !process.env.SITE_MCP_FIXTURES_SUPPORTS) process.env.SITE_MCP_FIXTURES_SUPPORTS = inject('siteMcpFixturesSupports');

// The target comes from global-setup.ts; mutation testing (mutation/in-process-target.ts) starts it inside the
// test worker instead and passes it through the environment.
export const url = () => inject('siteMcpUrl') ?? process.env.SITE_MCP_URL!;
export const fixtures = () => new FixturesClient(url(), inject('siteMcpFixturesSecret') ?? process.env.SITE_MCP_FIXTURES_SECRET!);

const seed = Number(process.env.SITE_MCP_SEED ?? Math.floor(Math.random() * 2 ** 31));

/** fast-check parameters: seeded, bounded runs; the failure message carries a replay command. */
export function params<T>(numRuns: number): fc.Parameters<T> {
  return {
    seed,
    numRuns,
    // Shrinking is on: a failure is reported with a minimal counterexample (each shrink step hits HTTP).
    reporter: (details) => {
      if (details.failed) {
        throw new Error(`${fc.defaultReportMessage(details)}\nreplay: SITE_MCP_SEED=${seed} npx vitest run conformance/properties`);
      }
    },
  };
}

export async function worldWithSite(options: Partial<WorldRequest> = {}) {
  const fx = fixtures();
  const world = await fx.world({
    // No property signs in, and a password is a slow hash by design (the reference's scrypt):
    // the properties' few hundred worlds ask for none where the target allows it.
    ...(fixturesSupport('passwords-on-demand') ? { passwordsOnDemand: true } : {}),
    advancedEditorGrant: true,
    users: [{ key: 'owner' }],
    sites: [{ key: 'main', members: { owner: 'owner' }, published: true, records: { leads: [{ name: 'Ann', email: 'ann@example.test' }], bookings: [{ name: 'Bo', email: 'bo@example.test', status: 'confirmed' }], contacts: [{ name: 'Cy', email: 'cy@example.test' }], products: [{ name: 'Loaf', price: { amount: 3, currency: 'EUR' }, revision: 1 }], documents: [{ kind: 'invoice', number: 'I-1', title: 'T', status: 'draft', total: { amount: 1, currency: 'EUR' } }] } }],
    ...options,
  });
  return { fx, world, site: world.sites.main!, owner: world.users.owner! };
}

export async function connect(fx: FixturesClient, userId: string, websiteId: string, scopes: string[]) {
  const created = await fx.connection({ userId, websiteId, scopes });
  return { ...created, mcp: new McpConnection(url(), created.token) };
}
