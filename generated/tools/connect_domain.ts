/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * Input and output (data of a successful result) of the connect_domain tool.
 */
export interface ConnectDomainTool {
  input: ConnectDomainInput;
  output: ConnectDomainOutput;
}
export interface ConnectDomainInput {
  websiteId?: string;
  hostname: string;
}
export interface ConnectDomainOutput {
  hostname: string;
  /**
   * pending: DNS records still missing; verified: every record found; failed: verification gave up.
   */
  status: 'pending' | 'verified' | 'failed';
  /**
   * True when this call was a re-check of a hostname already connected to this site.
   */
  alreadyConnected: boolean;
  /**
   * Records still missing at the DNS provider; empty once verified.
   */
  dnsRecordsNeeded: {
    type: 'A' | 'CNAME' | 'TXT';
    name: string;
    value: string;
  }[];
  /**
   * What to do next, in plain language for the user.
   */
  nextStep: string;
}
