// Deliberately broken behaviour, for proving the conformance suite can fail (like the broken servers of
// modelcontextprotocol/conformance): `--break-rule <rule-id>` makes the reference server violate that one rule.
// Only honoured together with a fixtures secret (test mode); a normal start refuses the flag.
const broken = new Set<string>();

export const BREAKABLE = [
  'plan-caller-bound',
  'plan-single-use',
  'plan-pins-site-revision',
  'publish-site-fails-closed',
  'content-write-draft-only',
  'replace-section-stale-rev-rejected',
  'create-site-limit-twice',
  'generate-image-balance-never-negative',
  'plan-confirm-requires-approval',
  'migrate-crawl-bounded',
  'plan-pins-product-revision',
  'plan-pins-document-fingerprint',
  'generate-image-consent-reread',
  'grant-access-owner-only',
  'error-business-failure-rolls-back',
  'portable-site-blocks-carried',
  'import-merge-three-way',
  'connect-domain-before-dns',
  'domain-nonexistent-address',
  'company-creation-atomic',
  'generate-image-charged-after-delivery',
  'import-merge-never-touches-config',
  'import-merge-force-keys',
  'create-site-empty-draft',
  'portable-site-contents',
] as const;

export type BreakableRule = (typeof BREAKABLE)[number];

export function breakRules(rules: string[]): void {
  for (const rule of rules) {
    if (!(BREAKABLE as readonly string[]).includes(rule)) throw new Error(`--break-rule ${rule}: not breakable (one of ${BREAKABLE.join(', ')})`);
    broken.add(rule);
  }
}

export function isBroken(rule: BreakableRule): boolean {
  return broken.size > 0 && broken.has(rule);
}
