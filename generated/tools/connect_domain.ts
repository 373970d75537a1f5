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
  status: 'pending' | 'verified' | 'failed';
  alreadyConnected: boolean;
  dnsRecordsNeeded: {
    type: 'A' | 'CNAME' | 'TXT';
    name: string;
    value: string;
  }[];
  nextStep: string;
}
