// DNS-rebinding protection for every route: the Host header must name this server, and a browser Origin,
// when present, must be this server's own origin. A rebinding page on another origin gets 403.
import type { Context, Next } from 'koa';

/** `baseUrl`: the server's public base URL; `allowedHosts`: further Host values it answers (behind a proxy). */
export function hostCheck(baseUrl: string, allowedHosts: readonly string[]) {
  const allowed = allowedHostsOf(baseUrl, allowedHosts);
  return async (ctx: Context, next: Next): Promise<void> => {
    const host = ctx.get('host');
    const origin = ctx.get('origin');
    if (!allowed.has(host) || (origin && !allowed.has(safeHost(origin)))) {
      ctx.status = 403;
      ctx.body = { error: { code: 'forbidden_host', message: 'Host or Origin not allowed.' } };
      return;
    }
    await next();
  };
}

function allowedHostsOf(baseUrl: string, allowedHosts: readonly string[]): Set<string> {
  const base = new URL(baseUrl);
  const allowed = new Set([base.host, ...allowedHosts]);
  const port = base.port ? `:${base.port}` : '';
  for (const loop of ['localhost', '127.0.0.1', '[::1]']) allowed.add(`${loop}${port}`);
  return allowed;
}

function safeHost(origin: string): string {
  try {
    return new URL(origin).host;
  } catch {
    return '';
  }
}
