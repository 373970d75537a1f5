// Deliberately broken behaviour, for proving the conformance suite can fail (like the broken servers of
// modelcontextprotocol/conformance): `--break-rule <rule-id>` makes the reference server violate that one rule.
// Only honoured together with a fixtures secret (test mode); a normal start refuses the flag.
const broken = new Set<string>();

export const BREAKABLE = [
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
