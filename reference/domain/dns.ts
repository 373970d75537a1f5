// DNS lookups for domain verification, through a resolver the server is configured with (env
// SITE_MCP_DNS_SERVER, flag --dns-server, or the fixtures protocol in test mode). Never an assumed answer.
import { Resolver } from 'node:dns/promises';

export const DNS_TARGET = { cname: 'sites.site-mcp.test', a: '203.0.113.10' } as const;

export class DnsClient {
  #resolver = new Resolver({ timeout: 2000, tries: 1 });

  useServer(server: string | undefined): void {
    this.#resolver = new Resolver({ timeout: 2000, tries: 1 });
    if (server) this.#resolver.setServers([server]);
  }

  /** true when the name exists in DNS (any answer or NODATA), false on NXDOMAIN. */
  async exists(hostname: string): Promise<boolean> {
    try {
      await this.#resolver.resolveAny(hostname);
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
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
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOTFOUND' || code === 'ENODATA') return [];
      throw error;
    }
  }
}
