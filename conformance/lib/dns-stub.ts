// A DNS server on loopback that answers from zone files the scenarios write (one JSON file per scenario in
// a shared directory), so domain verification does real lookups against records the suite controls. The
// server under test is pointed at it through the fixtures protocol (POST /test-fixtures/v1/dns-resolver).
import { createSocket, type RemoteInfo } from 'node:dgram';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import dnsPacket from 'dns-packet';

export interface ZoneRecord { name: string; type: 'A' | 'CNAME' | 'TXT'; value: string }

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
    const atName = loadZone(zoneDir).filter((r) => r.name.toLowerCase() === name);
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
      flags: dnsPacket.AUTHORITATIVE_ANSWER | (atName.length === 0 ? 3 : 0), // rcode 3 = NXDOMAIN
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
