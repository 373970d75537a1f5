// A DNS server on loopback that answers from zone files the scenarios write (one JSON file per scenario in
// a shared directory), so domain verification does real lookups against records the suite controls. The
// server under test is pointed at it through the fixtures protocol (POST /test-fixtures/v1/dns-resolver).
// It tells NXDOMAIN (the name does not exist) from NODATA (the name exists, without records of the asked
// type) as a real server does, so "nonexistent" keeps its meaning (rules domain-nonexistent-address,
// domain-other-site-same-as-missing): a registered domain with only NS records, and a name that exists only
// because names below it do (an empty non-terminal), answer NODATA.
import { randomBytes } from 'node:crypto';
import { createSocket, type RemoteInfo } from 'node:dgram';
import { appendFileSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import dnsPacket from 'dns-packet';

export interface ZoneRecord { name: string; type: 'A' | 'CNAME' | 'TXT' | 'NS'; value: string }

/** Adds records to the zone in one new file, written under another name and renamed, so the stub never reads half a file. */
export function writeZoneRecords(zoneDir: string, records: ZoneRecord[]): void {
  const file = join(zoneDir, `${randomBytes(8).toString('hex')}.json`);
  writeFileSync(`${file}.tmp`, JSON.stringify(records));
  renameSync(`${file}.tmp`, file);
}

const QUERY_LOG = 'queries.log';

/**
 * Every query the stub was asked, oldest first, as the target asked it (name, type): scenarios compare the lookups
 * a target made for two names (rule domain-foreign-hostname-same-time).
 */
export function dnsQueries(zoneDir: string): { name: string; type: string }[] {
  let text = '';
  try {
    text = readFileSync(join(zoneDir, QUERY_LOG), 'utf8');
  } catch {
    return [];
  }
  return text.split('\n').filter(Boolean).map((line) => {
    const [name = '', type = ''] = line.split(' ');
    return { name, type };
  });
}

/** A name exists when it holds a record or a name below it does (RFC 8020: NXDOMAIN means nothing at or below). */
function nameExists(zone: ZoneRecord[], name: string): boolean {
  return zone.some((r) => {
    const owner = r.name.toLowerCase().replace(/\.$/, '');
    return owner === name || owner.endsWith(`.${name}`);
  });
}

function loadZone(dir: string): ZoneRecord[] {
  const records: ZoneRecord[] = [];
  for (const file of readdirSync(dir)) {
    if (!file.endsWith('.json')) continue;
    try {
      records.push(...(JSON.parse(readFileSync(join(dir, file), 'utf8')) as ZoneRecord[]));
    } catch {
      // A file being written right now is read on the next query.
    }
  }
  return records;
}

/**
 * `delayMs` holds every answer back, standing in for a real resolver's round trip (timing tests: a path that
 * skips the lookup shows).
 */
export async function startDnsStub(zoneDir: string, options: { delayMs?: number } = {}): Promise<{ server: string; stop(): Promise<void> }> {
  const socket = createSocket('udp4');
  const pending = new Set<NodeJS.Timeout>();
  socket.on('message', (message: Buffer, remote: RemoteInfo) => {
    let query: dnsPacket.Packet;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    if (!question) return;
    const name = question.name.toLowerCase().replace(/\.$/, '');
    appendFileSync(join(zoneDir, QUERY_LOG), `${name} ${question.type}\n`);
    const zone = loadZone(zoneDir);
    const atName = zone.filter((r) => r.name.toLowerCase().replace(/\.$/, '') === name);
    const matching = atName.filter((r) => (question.type as string) === 'ANY' || r.type === question.type);
    const answers = matching.map((r) => ({
      type: r.type,
      name: question.name,
      ttl: 5,
      class: 'IN' as const,
      data: r.type === 'TXT' ? [r.value] : r.value,
    }));
    const response = dnsPacket.encode({
      type: 'response',
      id: query.id,
      flags: dnsPacket.AUTHORITATIVE_ANSWER | (nameExists(zone, name) ? 0 : 3), // rcode 3 = NXDOMAIN, 0 with no answer = NODATA
      questions: query.questions,
      answers: answers as dnsPacket.Answer[],
    });
    if (!options.delayMs) return void socket.send(response, remote.port, remote.address);
    const timer = setTimeout(() => {
      pending.delete(timer);
      socket.send(response, remote.port, remote.address);
    }, options.delayMs);
    pending.add(timer);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  return {
    server: `127.0.0.1:${port}`,
    stop: () => {
      for (const timer of pending) clearTimeout(timer);
      return new Promise<void>((resolve) => socket.close(() => resolve()));
    },
  };
}
