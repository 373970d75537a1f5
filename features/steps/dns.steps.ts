// DNS steps: scenarios write records into the run's DNS stub zone (conformance/lib/dns-stub.ts).
import { randomBytes } from 'node:crypto';
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Given } from '@cucumber/cucumber';
import type { ZoneRecord } from '../../conformance/lib/dns-stub.js';
import type { SiteWorld } from '../support/world.js';
import { requireOutput } from '../support/declared.js';
import { pointer } from '../support/json.js';

function addRecords(world: SiteWorld, records: ZoneRecord[]) {
  const dir = process.env.SITE_MCP_DNS_ZONE_DIR;
  if (!dir) throw new Error('SITE_MCP_DNS_ZONE_DIR is not set: run through `npm run conformance`, which starts the DNS stub');
  const file = join(dir, `${randomBytes(8).toString('hex')}.json`);
  // Written under another name, then renamed, so the stub never reads half a file.
  writeFileSync(`${file}.tmp`, JSON.stringify(records));
  renameSync(`${file}.tmp`, file);
}

Given('the hostname {string} exists in DNS', function (this: SiteWorld, host: string) {
  addRecords(this, [{ name: this.resolve(host), type: 'TXT', value: 'v=owned-by-the-business' }]);
});

Given('the DNS zone serves the records the last call asked for', function (this: SiteWorld) {
  const needed = pointer(this.last.envelope?.data, requireOutput(this, '/dnsRecordsNeeded')) as ZoneRecord[] | undefined;
  if (!needed?.length) throw new Error(`the last call asked for no DNS records: ${JSON.stringify(this.last.envelope)}`);
  addRecords(this, needed);
});
