// Domain tools (§4.3): list_domains (domain:read, also satisfied by domain:write), connect_domain and
// set_primary_domain (domain:write, owner-only). Tools take a hostname, never a domain id. A hostname of
// another site — any tenant's — answers exactly like one that does not exist (rule
// domain-other-site-same-as-missing). Buying, renewing, transferring and removing are absent.
import { randomBytes } from 'node:crypto';
import { DomainError } from '../domain/errors.js';
import { DNS_TARGET, type DnsClient } from '../infra/dns.js';
import type { Site } from '../domain/model.js';
import { defineTool } from './types.js';

type DomainRecord = { hostname: string; status: 'pending' | 'verified' | 'failed'; primary: boolean; verifyToken: string; createdAt: string; checkedAt?: string };
interface DnsRecord { type: 'A' | 'CNAME' | 'TXT'; name: string; value: string }

const isApex = (hostname: string) => hostname.split('.').length === 2;

function requiredRecords(d: Pick<DomainRecord, 'hostname' | 'verifyToken'>): DnsRecord[] {
  return [
    { type: 'TXT', name: `_site-mcp-verify.${d.hostname}`, value: `site-mcp-verify=${d.verifyToken}` },
    isApex(d.hostname) ? { type: 'A', name: d.hostname, value: DNS_TARGET.a } : { type: 'CNAME', name: d.hostname, value: DNS_TARGET.cname },
  ];
}

async function missingRecords(dns: DnsClient, d: DomainRecord): Promise<DnsRecord[]> {
  const missing: DnsRecord[] = [];
  for (const record of requiredRecords(d)) {
    const answers = record.type === 'TXT' ? await dns.txt(record.name) : record.type === 'A' ? await dns.a(record.name) : await dns.cname(record.name);
    if (!answers.map((a) => a.toLowerCase().replace(/\.$/, '')).includes(record.value.toLowerCase())) missing.push(record);
  }
  return missing;
}

function unavailable(hostname: string): DomainError {
  return new DomainError('not_found', `No domain "${hostname}" can be used here: it does not exist, or it is not connected to this website.`);
}

// cast: connect_domain writes every domain record as a DomainRecord; a fixture's free-form one outside it is refused by list_domains' output check (rule tool-output-schema).
const domainsOf = (site: Site) => site.records.domains as DomainRecord[];

const list_domains = defineTool('list_domains', ({ site }) => ({
  domains: domainsOf(site).map((d) => ({ hostname: d.hostname, status: d.status, primary: d.primary, dnsRecords: requiredRecords(d) })),
}));

const connect_domain = defineTool('connect_domain', async ({ store, dns, site, args, write, note, now }) => {
  const hostname = args.hostname.toLowerCase();
  const owner = await store.lookupDirectory('hostname', hostname);
  const foreign = Boolean(owner && owner !== site.websiteId);
  const existing = foreign ? undefined : domainsOf(site).find((d) => d.hostname === hostname);
  // Another site's hostname still pays the DNS probes a nonexistent one pays (and fails the same way if the
  // resolver does), then answers the same: otherwise the answer's speed tells that the hostname is taken
  // (rules domain-other-site-same-as-missing, domain-foreign-hostname-same-time). Only a nonexistent address
  // is refused; an owned name whose DNS is not set yet connects, pending (rules domain-nonexistent-address,
  // connect-domain-before-dns).
  if (!existing && (!(await dns.addressExists(hostname)) || foreign)) throw unavailable(hostname);
  // Probe outside the transaction (network), then write the result in one transaction.
  const candidate: DomainRecord = existing ?? { hostname, status: 'pending', primary: false, verifyToken: randomBytes(12).toString('hex'), createdAt: now.toISOString() };
  const missing = await missingRecords(dns, candidate);
  const status: DomainRecord['status'] = missing.length === 0 ? 'verified' : 'pending';
  await write((_ws, fresh, tx) => {
    const list = domainsOf(fresh);
    let record = list.find((d) => d.hostname === hostname);
    if (!record) {
      record = { ...candidate };
      list.push(record);
      tx.index('hostname', hostname, fresh.websiteId); // with the record (rule store-lookups-with-document)
    }
    record.status = status;
    record.checkedAt = now.toISOString();
  });
  note(existing ? 'domain re-checked' : 'domain connected');
  return {
    hostname,
    status,
    alreadyConnected: Boolean(existing),
    dnsRecordsNeeded: missing,
    nextStep:
      status === 'verified'
        ? `${hostname} is verified. Call set_primary_domain to make it the address the site uses.`
        : `Add the ${missing.length} DNS record${missing.length === 1 ? '' : 's'} listed at the domain's DNS provider, wait a few minutes, then call connect_domain again with the same hostname to re-check.`,
  };
});

const set_primary_domain = defineTool('set_primary_domain', async ({ args, write, note }) => {
  const hostname = args.hostname.toLowerCase();
  const result = await write((_ws, site) => {
    const list = domainsOf(site);
    const target = list.find((d) => d.hostname === hostname);
    if (!target) throw unavailable(hostname);
    if (target.status !== 'verified') throw new DomainError('validation_failed', `${hostname} is not verified yet; call connect_domain to re-check its DNS records first.`);
    for (const d of list) d.primary = d.hostname === hostname;
    return { hostname, primary: true as const, redirects: list.filter((d) => d.hostname !== hostname).map((d) => d.hostname) };
  });
  note('primary domain set');
  return result;
});

export const domainHandlers = { list_domains, connect_domain, set_primary_domain };
