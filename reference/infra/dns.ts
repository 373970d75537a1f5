// DNS lookups for domain verification, through a resolver the server is configured with (env
// SITE_MCP_DNS_SERVER, flag --dns-server, or the fixtures protocol in test mode). Never an assumed answer.
import { Resolver } from 'node:dns/promises';

export const DNS_TARGET = { cname: 'sites.site-mcp.test', a: '203.0.113.10' } as const;

/** The hostname, then each parent domain with at least two labels: shop.bakery.example → itself, bakery.example. */
export function namesToProbe(hostname: string): string[] {
  const labels = hostname.split('.');
  return labels.slice(0, Math.max(1, labels.length - 1)).map((_, i) => labels.slice(i).join('.'));
}

export class DnsClient {
  #resolver = new Resolver({ timeout: 2000, tries: 1 });
  #server: string | undefined;

  useServer(server: string | undefined): void {
    this.#resolver = new Resolver({ timeout: 2000, tries: 1 });
    this.#server = server;
    if (server) this.#resolver.setServers([server]);
  }

  /**
   * Every IPv4 and IPv6 address of a name at the configured server, or [] when none is configured or it knows none
   * (test mode's fetch-resolver asks it before the system resolver; safe-fetch.ts checks whatever it answers).
   */
  async addresses(hostname: string): Promise<string[]> {
    if (!this.#server) return [];
    const [v4, v6] = await Promise.all([this.#quiet(() => this.#resolver.resolve4(hostname)), this.#quiet(() => this.#resolver.resolve6(hostname))]);
    return [...v4, ...v6];
  }

  /**
   * false for a nonexistent address: the hostname and each parent domain down to two labels (the registrable
   * domain, by the two-label reading the records use too) all answer NXDOMAIN (rule domain-nonexistent-address).
   * A name of a domain that exists, whose own DNS is not set yet, exists (rule connect-domain-before-dns).
   * Every name is always asked, whatever the first answers, so the time a probe takes does not depend on the
   * answer (rule domain-foreign-hostname-same-time).
   */
  async addressExists(hostname: string): Promise<boolean> {
    const answers = await Promise.all(namesToProbe(hostname).map((name) => this.exists(name)));
    return answers.some(Boolean);
  }

  /** true when the name exists in DNS (any answer or NODATA), false on NXDOMAIN. */
  async exists(hostname: string): Promise<boolean> {
    try {
      await this.#resolver.resolveAny(hostname);
      return true;
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'ENOTFOUND') return false;
      if (code === 'ENODATA') return true;
      throw error;
    }
  }

  async txt(name: string): Promise<string[]> {
    return this.#quiet(async () => (await this.#resolver.resolveTxt(name)).map((chunks) => chunks.join('')));
  }

  async a(name: string): Promise<string[]> {
    return this.#quiet(() => this.#resolver.resolve4(name));
  }

  async cname(name: string): Promise<string[]> {
    return this.#quiet(() => this.#resolver.resolveCname(name));
  }

  async #quiet(fn: () => Promise<string[]>): Promise<string[]> {
    try {
      return await fn();
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'ENOTFOUND' || code === 'ENODATA') return [];
      throw error;
    }
  }
}

/** The `code` of a resolver's error (ENOTFOUND, ENODATA, …); undefined for anything else thrown. */
function errnoCode(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}
