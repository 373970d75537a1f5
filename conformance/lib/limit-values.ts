// The values of the limits §8 leaves open ("not shown": the extra throttles, the site count per plan, the import size
// cap, what one image costs) and of migrate_site_from_url's time budget (§4.3 "bounded"), in the shape of the fixtures protocol's LimitValues: ours from spec/limits.json
// (rule limit-values, a decision), or a target's own, read through its fixtures (optional part limits).
import { loadLimits } from '../../spec/index.js';
import { fixturesSupport, type FixturesClient, type LimitValues } from './fixtures-client.js';
import { adopts, NotDeclared } from './declaration.js';

const THROTTLED = ['connect_domain', 'generate_image', 'create_site'] as const;
const PLANS = ['free', 'starter', 'business', 'agency'] as const;

/** Our values (spec/limits.json), for a target whose declaration adopts limit-values. */
export function ourLimitValues(): LimitValues {
  const limits = loadLimits();
  const throttle = (name: (typeof THROTTLED)[number]) => ({ limit: limits.throttles[name]!.limit, windowSeconds: limits.throttles[name]!.windowSeconds });
  return {
    throttles: { connect_domain: throttle('connect_domain'), generate_image: throttle('generate_image'), create_site: throttle('create_site') },
    importMaxBytes: { value: limits.importMaxBytes.value },
    siteLimitByPlan: Object.fromEntries(PLANS.map((plan) => [plan, limits.siteLimitByPlan[plan]!])) as LimitValues['siteLimitByPlan'],
    imageCreditCost: { value: limits.imageCreditCost.value },
    migrationSeconds: { value: limits.crawl.migrationSeconds },
  };
}

/**
 * The limit values a scenario checks the target with: ours when it adopts limit-values (so that decision is still
 * checked), else its own from the fixtures when its handshake lists the part limits; else the scenario cannot go on
 * and is reported as not checked, naming both ways.
 */
export async function targetLimitValues(fixtures: FixturesClient): Promise<LimitValues> {
  if (adopts('limit-values')) return ourLimitValues();
  if (fixturesSupport('limits')) return fixtures.limits();
  throw new NotDeclared('the target\'s limit values, which §8 does not show (adopt limit-values in the declaration, or serve the fixtures part limits)');
}
