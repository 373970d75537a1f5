// The fixtures protocol's optional part limits (conformance/docs/fixtures-protocol.md): GET /test-fixtures/v1/limits answers the
// values of the limits §8 leaves open as the running server enforces them, in the schema's LimitValues: ours
// (spec/limits.json) by default, and a server started with other decision limits (--decision-limits, the correct
// variant's other-limits.json) answers those. The kit checks a target that does not adopt limit-values with them.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DecisionLimits } from '../catalogue.js';
import type { LimitValues } from '../../conformance/lib/fixtures-client.js';
import { ourLimitValues } from '../../conformance/lib/limit-values.js';
import { ownerWithConnection, startTestServer, type TestServer } from './harness.js';

const otherLimits = JSON.parse(await readFile(new URL('../../conformance/variants/other-limits.json', import.meta.url), 'utf8')) as DecisionLimits;

/** create_site calls until the first refusal: how many its per-workspace throttle let through (rule throttle-create-site). */
async function createSiteThrottle(test: TestServer, limit: number): Promise<{ passed: number; refusal: unknown }> {
  const { mcp } = await ownerWithConnection(test, ['workspace:write'], { plan: 'agency' });
  for (let passed = 0; passed <= limit; passed++) {
    const { envelope } = await mcp.callTool('create_site', { businessName: `Site ${passed}` });
    if (!envelope.ok) return { passed, refusal: envelope.error?.code };
  }
  return { passed: limit + 1, refusal: undefined };
}

describe('fixtures: limits', () => {
  let test: TestServer;
  beforeAll(async () => {
    test = await startTestServer('fixtures-limits');
  });
  afterAll(async () => {
    await test?.stop();
  });

  it('the handshake lists the part; the answer is LimitValues with our values of spec/limits.json', async () => {
    expect((await test.fx.handshake()).supports).toContain('limits');
    // fx.limits() validates the answer against LimitValues and throws otherwise.
    expect(await test.fx.limits()).toEqual(ourLimitValues());
  });

  it('the create_site throttle it answers is the one it enforces', async () => {
    const { throttles } = await test.fx.limits();
    expect(await createSiteThrottle(test, throttles.create_site.limit)).toEqual({ passed: throttles.create_site.limit, refusal: 'throttled' });
  });
});

describe('fixtures: limits of a server started with other decision limits (the correct variant)', () => {
  let test: TestServer;
  beforeAll(async () => {
    test = await startTestServer('fixtures-limits-other', {}, { decisionLimits: otherLimits });
  });
  afterAll(async () => {
    await test?.stop();
  });

  it('answers its own values, not ours', async () => {
    const answer: LimitValues = await test.fx.limits();
    const { throttles, importMaxBytes, siteLimitByPlan, imageCreditCost, crawl } = otherLimits;
    const window = (name: string) => ({ limit: throttles![name]!.limit, windowSeconds: throttles![name]!.windowSeconds });
    expect(answer).toEqual({
      throttles: { connect_domain: window('connect_domain'), generate_image: window('generate_image'), create_site: window('create_site') },
      importMaxBytes,
      siteLimitByPlan,
      imageCreditCost,
      migrationSeconds: { value: crawl!.migrationSeconds },
    });
    expect(answer).not.toEqual(ourLimitValues());
  });

  it('the create_site throttle it answers is the one it enforces', async () => {
    const { throttles } = await test.fx.limits();
    expect(await createSiteThrottle(test, throttles.create_site.limit)).toEqual({ passed: throttles.create_site.limit, refusal: 'throttled' });
  });
});
