/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * One file of the rule catalogue (spec/rules/*.yaml).
 */
export interface RuleFile {
  section: string;
  title: string;
  /**
   * @minItems 1
   */
  rules: [Rule, ...Rule[]];
}
/**
 * This interface was referenced by `RuleFile`'s JSON-Schema
 * via the `definition` "Rule".
 */
export interface Rule {
  id: string;
  section: string;
  keyword: 'must' | 'must-not' | 'may';
  text: string;
  /**
   * The source says 'not shown'; this rule records our choice.
   */
  decision?: true;
  /**
   * Why no black-box check can reach it.
   */
  untestable?: string;
  /**
   * No check through the MCP endpoint, the public endpoints or the fixtures protocol can observe the rule against any --url; checkedBy names the tests that check it instead, whyNotBlackBox says why.
   */
  blackBox?: false;
  /**
   * Test files (relative to the repository) checking a rule marked blackBox: false; each exists and names the rule id.
   *
   * @minItems 1
   */
  checkedBy?: [string, ...string[]];
  /**
   * Why no black-box check can observe it (a rule about the service's observable behaviour belongs in the black-box column when any way to observe it exists).
   */
  whyNotBlackBox?: string;
}
