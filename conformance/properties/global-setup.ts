// Starts the conformance target once for all property tests (or uses SITE_MCP_URL) and stops it after.
import type { TestProject } from 'vitest/node';
import { resolveTarget, type Target } from '../lib/target.js';

let target: Target | undefined;

export async function setup(project: TestProject) {
  target = await resolveTarget();
  project.provide('siteMcpUrl', target.url);
  project.provide('siteMcpFixturesSecret', target.fixturesSecret);
}

export async function teardown() {
  await target?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    siteMcpUrl: string;
    siteMcpFixturesSecret: string;
  }
}
