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
    /**
     * pending: DNS records still missing; verified: every record found; failed: verification gave up.
     */
    status: 'pending' | 'verified' | 'failed';
    /**
     * The address the site canonicalises to; the others redirect to it.
     */
    primary: boolean;
    /**
     * The records this hostname needs at its DNS provider.
     */
    dnsRecords: {
      type: 'A' | 'CNAME' | 'TXT';
      name: string;
      value: string;
    }[];
  }[];
}
