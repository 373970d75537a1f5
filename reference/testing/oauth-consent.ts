// Fixtures protocol `oauth-consent` (test mode only): the owner's part of an OAuth authorization (§5.1), so that
// the kit can drive the whole flow against any target without knowing its sign-in or consent pages. It runs the
// reference's real pages over loopback as a user agent would: a signed-in session for the user, the
// authorization URL, the consent form (the site picked, the scopes ticked) and the redirects, until the user
// agent would leave for the client's redirect URI. Only URLs of this server are ever requested.
import type { Sessions } from '../web/session.js';
import { DomainError } from '../domain/errors.js';
import type { OAuthConsentRequest, OAuthConsentResponse } from '../../generated/schemas/fixtures/fixtures.js';

export type { OAuthConsentRequest };

const MAX_STEPS = 12;

/** `baseUrl`: the server's public base URL, the only origin requested; `sessions`: the user's signed-in session. */
export async function consentAsOwner(ports: { readonly baseUrl: string; readonly sessions: Sessions }, workspaceId: string, request: OAuthConsentRequest): Promise<OAuthConsentResponse> {
  const base = new URL(ports.baseUrl);
  let url: URL;
  try {
    url = new URL(request.authorizationUrl, base);
  } catch {
    throw new DomainError('validation_failed', 'authorizationUrl is not a URL.');
  }
  if (url.origin !== base.origin) throw new DomainError('validation_failed', `authorizationUrl must be an address of this server (${base.origin}).`);
  const { cookie, session } = ports.sessions.open(request.userId, workspaceId);
  const jar = new Map<string, string>();
  const cookieHeader = () => [cookie, ...[...jar].map(([k, v]) => `${k}=${v}`)].join('; ');
  let init: RequestInit = {};
  for (let step = 0; step < MAX_STEPS; step++) {
    const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), cookie: cookieHeader(), origin: base.origin }, signal: AbortSignal.timeout(10_000) });
    for (const c of res.headers.getSetCookie()) {
      const pair = c.split(';')[0]!;
      const i = pair.indexOf('=');
      if (i > 0) jar.set(pair.slice(0, i), pair.slice(i + 1));
    }
    init = {};
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      const next = new URL(location, url);
      // The user agent leaves this server: the client's redirect URI, with a code or an error.
      if (next.origin !== base.origin) return { redirectedTo: next.href };
      url = next;
      continue;
    }
    const html = await res.text();
    const action = /<form method="post" action="(\/oidc-interaction\/[^"]+\/consent)"/.exec(html)?.[1];
    if (res.status !== 200 || !action) throw new DomainError('validation_failed', `The authorization stopped at ${url.pathname} (${res.status}) before the consent page.`);
    const requested = [...html.matchAll(/name="scope" value="([^"]+)"/g)].map((m) => m[1]!);
    const granted = request.scopes ? requested.filter((s) => request.scopes!.includes(s)) : requested;
    const form = new URLSearchParams([['csrf', session.csrf], ['decision', request.decision ?? 'approve'], ['websiteId', request.websiteId], ...granted.map((s) => ['scope', s] as [string, string])]);
    url = new URL(action, base);
    init = { method: 'POST', body: form.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } };
  }
  throw new DomainError('validation_failed', `The authorization took more than ${MAX_STEPS} steps.`);
}
