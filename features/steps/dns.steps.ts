// DNS steps: scenarios write records into the run's DNS stub zone (conformance/lib/dns-stub.ts), which tells
// NXDOMAIN from NODATA (rules connect-domain-before-dns, domain-nonexistent-address).
import assert from 'node:assert/strict';
import { Given, Then } from '@cucumber/cucumber';
import { dnsQueries, writeZoneRecords, type ZoneRecord } from '../../conformance/lib/dns-stub.js';
import type { SiteWorld } from '../support/world.js';
import { NotDeclared, outputPointer } from '../../conformance/lib/declaration.js';
import { fixturesSupport } from '../../conformance/lib/fixtures-client.js';
import { pointer } from '../support/json.js';

/** The DNS stub's zone, which the target resolves through only with the fixtures part dns-resolver. */
function zoneDir(): string {
  if (!fixturesSupport('dns-resolver')) throw new NotDeclared('the fixtures part dns-resolver (the target resolves names through the kit\'s DNS stub)');
  const dir = process.env.SITE_MCP_DNS_ZONE_DIR;
  if (!dir) throw new Error('SITE_MCP_DNS_ZONE_DIR is not set: run through `npm run conformance`, which starts the DNS stub');
  return dir;
}

Given('the hostname {string} exists in DNS', function (this: SiteWorld, host: string) {
  writeZoneRecords(zoneDir(), [{ name: this.resolve(host), type: 'TXT', value: 'v=owned-by-the-business' }]);
});

/**
 * The DNS records an answer asks for, found by meaning (§4.3 "returns the DNS records still needed" names no field):
 * every object of the answer that holds a record type the stub serves (A, CNAME, TXT), a name at or below the
 * hostname's domain (or "@" for the hostname itself) and a value.
 */
export function dnsRecordsByMeaning(data: unknown, hostname: string): ZoneRecord[] {
  const domain = hostname.toLowerCase().split('.').slice(-2).join('.');
  const found: ZoneRecord[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(walk);
    if (!value || typeof value !== 'object') return;
    const strings = Object.values(value).filter((v): v is string => typeof v === 'string');
    const type = strings.find((v) => /^(A|CNAME|TXT)$/i.test(v));
    const nameOf = (v: string) => (v === '@' ? hostname : v.toLowerCase().replace(/\.$/, ''));
    const name = strings.find((v) => v !== type && (v === '@' || nameOf(v) === domain || nameOf(v).endsWith(`.${domain}`)));
    const recordValue = strings.find((v) => v !== type && v !== name);
    if (type && name && recordValue !== undefined) found.push({ name: nameOf(name), type: type.toUpperCase() as ZoneRecord['type'], value: recordValue });
    Object.values(value).forEach(walk);
  };
  walk(data);
  return found;
}

Given('the DNS zone serves the records the last call asked for', function (this: SiteWorld) {
  const declared = outputPointer(this.last.tool, '/dnsRecordsNeeded');
  const hostname = String((this.last.args as { hostname?: unknown } | undefined)?.hostname ?? '');
  const needed = (declared === undefined ? dnsRecordsByMeaning(this.last.envelope?.data, hostname) : pointer(this.last.envelope?.data, declared)) as ZoneRecord[] | undefined;
  if (!needed?.length && declared === undefined) throw new NotDeclared('the DNS records connect_domain asked for (none read by meaning: an object with a type, a name and a value; or declare outputFields connect_domain.dnsRecordsNeeded)');
  if (!needed?.length) throw new Error(`the last call asked for no DNS records: ${JSON.stringify(this.last.envelope)}`);
  writeZoneRecords(zoneDir(), needed);
});

// §4.3: the re-check "returns the DNS records still needed": as many as the answer holds by meaning, or in the
// declared field.
Then('the answer asks for {int} DNS record(s)', function (this: SiteWorld, count: number) {
  const declared = outputPointer(this.last.tool, '/dnsRecordsNeeded');
  const hostname = String((this.last.args as { hostname?: unknown } | undefined)?.hostname ?? '');
  const needed = declared === undefined ? dnsRecordsByMeaning(this.last.envelope?.data, hostname) : pointer(this.last.envelope?.data, declared);
  assert.ok(Array.isArray(needed), `no list of DNS records at ${declared}: ${JSON.stringify(this.last.envelope?.data)?.slice(0, 300)}`);
  assert.equal(needed.length, count, `the answer asks for ${needed.length} DNS records (${JSON.stringify(needed)}), expected ${count}`);
});

// What a registrar leaves after a purchase: the name exists (NS), but nothing resolves yet.
Given('the domain {string} is registered with no records yet', function (this: SiteWorld, domain: string) {
  writeZoneRecords(zoneDir(), [{ name: this.resolve(domain), type: 'NS', value: 'ns1.registrar.test' }]);
});

Given('the DNS zone has the {word} record {string} with value {string}', function (this: SiteWorld, type: string, name: string, value: string) {
  if (!['A', 'CNAME', 'TXT', 'NS'].includes(type)) throw new Error(`the DNS stub serves A, CNAME, TXT and NS records, not ${type}`);
  writeZoneRecords(zoneDir(), [{ name: this.resolve(name), type: type as ZoneRecord['type'], value: this.resolve(value) }]);
});

// ── the lookups a target made (rule domain-foreign-hostname-same-time) ─────────────────────────────────────────

Given('the DNS lookups so far are set aside', function (this: SiteWorld) {
  this.remembered.set('dns-mark', dnsQueries(zoneDir()).length);
});

/** The lookups at or below `host` (from index `from` on), each as its name relative to `host` and its type. */
function lookupsOf(host: string, from = 0): string[] {
  const relative = (name: string) => (name === host ? '@' : name.endsWith(`.${host}`) ? name.slice(0, -host.length - 1) : undefined);
  return [...new Set(dnsQueries(zoneDir()).slice(from).flatMap((q) => (relative(q.name) === undefined ? [] : [`${relative(q.name)} ${q.type}`])))].sort();
}

// Name for name and type for type, relative to each hostname: a server that answers a taken hostname from its own
// table, without the probes a nonexistent one costs, makes none for it here.
Then('the DNS lookups since then for {string} are the ones made for {string}', function (this: SiteWorld, taken: string, missing: string) {
  const mark = this.remembered.get('dns-mark') as number | undefined;
  assert.ok(mark !== undefined, 'set the DNS lookups aside first');
  const forMissing = lookupsOf(this.resolve(missing).toLowerCase());
  assert.ok(forMissing.length > 0, `the target looked up nothing for ${this.resolve(missing)}: it cannot have known the name does not exist`);
  assert.deepEqual(lookupsOf(this.resolve(taken).toLowerCase(), mark), forMissing, `lookups for ${this.resolve(taken)} (left) and ${this.resolve(missing)} (right), relative to each name`);
});
