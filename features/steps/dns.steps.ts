// DNS steps: scenarios write records into the run's DNS stub zone (conformance/lib/dns-stub.ts), which tells
// NXDOMAIN from NODATA (rules connect-domain-before-dns, domain-nonexistent-address).
import { Given } from '@cucumber/cucumber';
import { writeZoneRecords, type ZoneRecord } from '../../conformance/lib/dns-stub.js';
import type { SiteWorld } from '../support/world.js';
import { requireOutput } from '../support/declared.js';
import { pointer } from '../support/json.js';

function zoneDir(): string {
  const dir = process.env.SITE_MCP_DNS_ZONE_DIR;
  if (!dir) throw new Error('SITE_MCP_DNS_ZONE_DIR is not set: run through `npm run conformance`, which starts the DNS stub');
  return dir;
}

Given('the hostname {string} exists in DNS', function (this: SiteWorld, host: string) {
  writeZoneRecords(zoneDir(), [{ name: this.resolve(host), type: 'TXT', value: 'v=owned-by-the-business' }]);
});

Given('the DNS zone serves the records the last call asked for', function (this: SiteWorld) {
  const needed = pointer(this.last.envelope?.data, requireOutput(this, '/dnsRecordsNeeded')) as ZoneRecord[] | undefined;
  if (!needed?.length) throw new Error(`the last call asked for no DNS records: ${JSON.stringify(this.last.envelope)}`);
  writeZoneRecords(zoneDir(), needed);
});

// What a registrar leaves after a purchase: the name exists (NS), but nothing resolves yet.
Given('the domain {string} is registered with no records yet', function (this: SiteWorld, domain: string) {
  writeZoneRecords(zoneDir(), [{ name: this.resolve(domain), type: 'NS', value: 'ns1.registrar.test' }]);
});

Given('the DNS zone has the {word} record {string} with value {string}', function (this: SiteWorld, type: string, name: string, value: string) {
  if (!['A', 'CNAME', 'TXT', 'NS'].includes(type)) throw new Error(`the DNS stub serves A, CNAME, TXT and NS records, not ${type}`);
  writeZoneRecords(zoneDir(), [{ name: this.resolve(name), type: type as ZoneRecord['type'], value: this.resolve(value) }]);
});
