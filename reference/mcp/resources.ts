// Resources of §4.4: each is read through the site:read tool it mirrors (spec/resources.json "tool"), so it
// gets the same authorization, live role check and activity entry; the target is the connection's default
// site (rule resources-default-site): the site whose Developers page created it, on either reach; only a
// company-wide connection made before any site existed falls back to the creator's first site by creation.
import { ErrorCode, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { protocolError } from './protocol-error.js';
import { callTool, type CallPorts, type Principal } from './pipeline.js';

import { loadResources } from '../../spec/index.js';

const RESOURCES = loadResources();

export function listResources() {
  return { resources: RESOURCES.map(({ uri, name, title, mimeType, description }) => ({ uri, name, title, mimeType, description })) };
}

export async function defaultWebsiteId(ports: Pick<CallPorts, 'store'>, principal: Principal): Promise<string | undefined> {
  const ws = await ports.store.read(principal.workspaceId);
  const connection = ws?.connections[principal.connectionId];
  if (!ws || !connection) return undefined;
  if (connection.websiteId) return connection.websiteId;
  return Object.values(ws.sites)
    .filter((s) => s.members[connection.createdBy])
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.websiteId.localeCompare(b.websiteId))[0]?.websiteId;
}

export async function readResource(ports: CallPorts, principal: Principal, uri: string): Promise<ReadResourceResult> {
  const spec = RESOURCES.find((r) => r.uri === uri);
  // Rule mcp-2026-resource-not-found: -32602 with the uri as data in both eras (the SDK v2 reads exactly { uri } as
  // "resource not found"; -32002 is the older SDKs' code).
  if (!spec) throw protocolError(ErrorCode.InvalidParams, `Unknown resource ${uri}; see resources/list.`, { uri });
  const websiteId = await defaultWebsiteId(ports, principal);
  const envelope = await callTool(ports, principal, spec.tool, websiteId ? { websiteId } : {}, { kind: 'resource', name: uri });
  return { contents: [{ uri, mimeType: spec.mimeType, text: JSON.stringify(envelope) }] };
}
