// DNS-rebinding protection for every route: the Host header must name this server, and a browser Origin,
// when present, must be this server's own origin. A rebinding page on another origin gets 403.
import type { Context, Next } from 'koa';
import type { Runtime } from '../runtime.js';

export function hostCheck(rt: Runtime) {
  const allowed = allowedHosts(rt);
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

function allowedHosts(rt: Runtime): Set<string> {
  const base = new URL(rt.baseUrl);
  const allowed = new Set([base.host, ...rt.config.allowedHosts]);
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
