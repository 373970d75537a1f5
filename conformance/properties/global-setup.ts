// Starts the conformance target once for all property tests (or uses SITE_MCP_URL) and stops it after.
import type { TestProject } from 'vitest/node';
import { fileURLToPath } from 'node:url';
import { resolveTarget, type Target } from '../lib/target.js';
import { FixturesClient } from '../lib/fixtures-client.js';

// The reference's own declaration, used when this setup starts the reference (the properties then check its
// declared choices too, as `npm test` does for the features); a run against a given target uses the declaration
// passed with it (SITE_MCP_DECLARATION), or none.
const REFERENCE_DECLARATION = fileURLToPath(new URL('../declarations/reference.yaml', import.meta.url));

let target: Target | undefined;

export async function setup(project: TestProject) {
  const startsReference = !process.env.SITE_MCP_URL;
  target = await resolveTarget();
  project.provide('siteMcpUrl', target.url);
  project.provide('siteMcpDeclaration', process.env.SITE_MCP_DECLARATION ?? (startsReference ? REFERENCE_DECLARATION : ''));
  project.provide('siteMcpFixturesSecret', target.fixturesSecret);
  // The optional parts of the fixtures protocol the target lists (fixturesSupport reads them), as the kit's CLI
  // passes them to its runs (conformance/lib/prerequisites.ts); one handshake for every property.
  const fixtures = new FixturesClient(target.url, target.fixturesSecret);
  const supports = process.env.SITE_MCP_FIXTURES_SUPPORTS ?? (await fixtures.handshake()).supports.join(',');
  project.provide('siteMcpFixturesSupports', supports);
  // The target's names for the kit's section types and fields, as a world answer gives them (learnSectionVocabulary):
  // one small world, so the properties write sections in the target's vocabulary without a declaration.
  const probe = await fixtures.world({ users: [{ key: 'probe' }], sites: [{ key: 'probe', members: { probe: 'owner' } }], ...(supports.split(',').includes('passwords-on-demand') ? { passwordsOnDemand: true } : {}) });
  project.provide('siteMcpSectionVocabulary', JSON.stringify(probe.sectionVocabulary ?? {}));
  // The same server, for test files that need an ordinary reference (shared-reference.ts); none when
  // the target is someone else's.
  project.provide('referenceUrl', startsReference ? target.url : '');
  project.provide('referenceFixturesSecret', startsReference ? target.fixturesSecret : '');
}

export async function teardown() {
  await target?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    siteMcpUrl: string;
    siteMcpFixturesSecret: string;
    siteMcpDeclaration: string;
    siteMcpFixturesSupports: string;
    siteMcpSectionVocabulary: string;
    referenceUrl: string;
    referenceFixturesSecret: string;
  }
}
