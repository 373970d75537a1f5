/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * Rules an implementation knows it fails, each with the reason (`site-mcp conformance --expected-failures FILE`, YAML or JSON; the reference's own is conformance/expected-failures.yaml). A listed rule that fails is reported as xfail and does not fail the run; a listed rule whose checks all pass fails it, so the list cannot go stale.
 */
export interface ExpectedFailures {
  expected: {
    /**
     * A rule id of spec/rules.
     */
    rule: string;
    /**
     * Why the implementation fails it (and, ideally, when that will change).
     */
    reason: string;
  }[];
}
