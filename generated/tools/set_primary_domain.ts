/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * Input and output (data of a successful result) of the set_primary_domain tool.
 */
export interface SetPrimaryDomainTool {
  input: SetPrimaryDomainInput;
  output: SetPrimaryDomainOutput;
}
export interface SetPrimaryDomainInput {
  websiteId?: string;
  hostname: string;
}
export interface SetPrimaryDomainOutput {
  hostname: string;
  primary: true;
  /**
   * The other connected hostnames, which now redirect to this one.
   */
  redirects: string[];
}
