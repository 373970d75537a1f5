// Whether a packet can leave this machine from here (rule kit-no-packet-off-machine, AGENTS.md): the kit hands a
// target a real non-public address to fetch (a private or the cloud metadata address) only where a broken target's fetch of it
// cannot leave, that is, when the kit runs in a network namespace with nothing but loopback (npm test and
// prove-checks do, through conformance/lib/run-isolated.mjs) and the target is on its loopback too, or when the user
// asked for it (--send-non-public-addresses). Elsewhere those rows are reported as not checked, and the loopback
// canaries (canary.ts) check the same rules.
import { readFileSync } from 'node:fs';

/** Interfaces other than loopback that carry a route, read from /proc (Linux); undefined where /proc has no answer. */
export function routedInterfaces(): string[] | undefined {
  const devices = new Set<string>();
  try {
    // IPv4 main table: the first column is the interface; a namespace with only `lo` has no line but the header.
    for (const line of readFileSync('/proc/net/route', 'utf8').split('\n').slice(1)) {
      const device = line.split(/\s+/)[0];
      if (device && device !== 'lo') devices.add(device);
    }
  } catch {
    return undefined;
  }
  try {
    // IPv6: the last column is the interface; loopback's own routes name `lo`.
    for (const line of readFileSync('/proc/net/ipv6_route', 'utf8').split('\n')) {
      const device = line.trim().split(/\s+/).at(-1);
      if (device && device !== 'lo') devices.add(device);
    }
  } catch {
    // No IPv6 on this machine: the IPv4 answer stands.
  }
  return [...devices];
}

/** Whether this process runs where only loopback is routed (a network namespace of run-isolated.mjs). */
export function onlyLoopbackRouted(): boolean {
  const devices = routedInterfaces();
  return devices !== undefined && devices.length === 0;
}

/** Whether `url` names this machine's loopback (so a target there shares this process's network). */
export function onLoopback(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Why a real non-public address may not be sent to this target, or undefined when it may: the user opted in
 * (SITE_MCP_SEND_NON_PUBLIC=1, from --send-non-public-addresses), or the kit and the target share a namespace that
 * routes nothing but loopback.
 */
export function nonPublicAddressesRefused(targetUrl: string): string | undefined {
  if (process.env.SITE_MCP_SEND_NON_PUBLIC === '1') return undefined;
  if (onLoopback(targetUrl) && onlyLoopbackRouted()) return undefined;
  return 'a real non-public address is sent to a target only where its fetch cannot leave this machine (kit and target in a network namespace with only loopback) or with --send-non-public-addresses; the loopback canaries check this rule here';
}
