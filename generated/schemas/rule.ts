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
}
