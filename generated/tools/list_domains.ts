/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * Input and output (data of a successful result) of the list_domains tool.
 */
export interface ListDomainsTool {
  input: ListDomainsInput;
  output: ListDomainsOutput;
}
export interface ListDomainsInput {
  websiteId?: string;
}
export interface ListDomainsOutput {
  domains: {
    hostname: string;
    status: 'pending' | 'verified' | 'failed';
    primary: boolean;
    dnsRecords: {
      type: 'A' | 'CNAME' | 'TXT';
      name: string;
      value: string;
    }[];
  }[];
}
