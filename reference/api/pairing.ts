// Device-code pairing endpoints (§4.1, §5.3–5.5), the read-only delivery endpoint, and the /auth.md discovery
// document. The owner's approval screen /dashboard/connect is a page: reference/web/connect.ts.
import Router from '@koa/router';
import type { Context } from 'koa';
import { createHash } from 'node:crypto';
import { sharedAjv } from '../../spec/index.js';
import type { Limits } from '../../spec/index.js';
import type { Clock } from '../infra/clock.js';
import type { SlidingWindowLimiter } from '../domain/rate-limit.js';
import type { Store } from '../infra/store/store.js';
import type { Sessions } from '../web/session.js';
import { readJsonBody } from './body.js';
import { approvePairing, type Pairing, type Pairings } from '../domain/pairing.js';
import { DomainError } from '../domain/errors.js';
import { answerError } from './errors.js';
import { rateLimited } from '../domain/rate-limit.js';
import { clientAddress } from './client-address.js';
import { indexConnection } from '../auth/authenticate.js';
import { ALL_SCOPES, SCOPE_GRANTS } from '../domain/scopes.js';
import { toPortableSite } from '../domain/portable-site.js';
import { entryOf } from '../domain/model.js';

const SCHEMA = 'https://site-mcp.invalid/spec/schemas/pairing.schema.json';

/** What the pairing routes and the approval page (reference/web/connect.ts) use of the server. */
export interface PairingPorts {
  readonly store: Store;
  readonly clock: Clock;
  /** The pairings waiting for an owner, in memory (rule pairings-in-memory-capped). */
  readonly pairings: Pairings;
  /** The pairing routes' throttles (rules pair-start-throttled-per-address, pairing-code-guesses-throttled). */
  readonly limiter: SlidingWindowLimiter;
  readonly limits: Limits;
  readonly sessions: Sessions;
  /** The server's public base URL: the verification address a pairing names. */
  readonly baseUrl: string;
}

/** Approves a pairing as `userId` and makes its token findable: shared by the page and the fixtures protocol. */
export async function approveAs(ports: Pick<PairingPorts, 'store' | 'pairings' | 'clock'>, pairing: Pairing, input: { userId: string; websiteId: string | null; scopes: string[] }) {
  const wsId = await ports.store.lookupDirectory('user', input.userId);
  if (!wsId) throw new DomainError('not_found', 'No such user.');
  // Bound before deciding, so it counts for this company, not for the address that started it (rules
  // pairing-bound-to-first-workspace, pairings-capacity-per-owner); approvePairing refuses one bound elsewhere.
  ports.pairings.bind(pairing, wsId);
  let granted: Pairing['grant'];
  try {
    return await ports.store.transact(wsId, (ws, tx) => {
      const result = approvePairing(ws, pairing, input, ports.clock.now(ws.id));
      granted = pairing.grant;
      // Findable in the same commit as the connection or delivery token (rule store-lookups-with-document).
      if (result.connection) indexConnection(tx, result.connection, wsId);
      if (result.deliveryTokenHash) tx.index('delivery', result.deliveryTokenHash, `${wsId} ${pairing.grant!.websiteId}`);
      return result;
    });
  } catch (error) {
    // approvePairing marks the pairing approved as it decides, which keeps a second approval out; when the write
    // then fails, nothing was stored (§7.3), so the pairing is pending again and no poll hands out a token that
    // names a connection or delivery token that does not exist. A refusal (nothing granted) leaves it as it was.
    if (granted) {
      pairing.status = 'pending';
      pairing.grant = undefined;
    }
    throw error;
  }
}

export function authMd(): string {
  const scopes = ALL_SCOPES.map((s) => `- \`${s}\` — ${SCOPE_GRANTS[s]}`).join('\n');
  return `# Connecting a tool to this service

The MCP endpoint is \`/api/mcp\`; one endpoint serves every client. There are three ways in:

- **OAuth 2.1** for browser and desktop chat clients, which need nothing but the endpoint's address. An MCP request
  (a POST) without a token answers 401 with \`WWW-Authenticate: Bearer resource_metadata="…"\`, naming the protected-resource
  metadata (\`/.well-known/oauth-protected-resource/api/mcp\`, RFC 9728), which names the authorization server
  (\`/oidc\`, its metadata at \`/oidc/.well-known/openid-configuration\`). Dynamic client registration is on (with
  any of the scopes below) and PKCE is required. The owner signs in, picks the website, may untick scopes and
  approves; the client is then bound to exactly one connection for that website (approving the same client again
  replaces it). The access token is verified at the MCP edge; a caller-supplied profile or connection id is never
  honoured. A client registered for the \`refresh_token\` grant gets a refresh token; one without a client secret
  (as MCP clients register) gets a new one at each use.
- **API token** for code editors and header-capable clients: the owner creates a connection in Settings → Advanced →
  Developers, chooses its reach (this website or the whole workspace) and scopes, and copies its token (shown once,
  it starts with \`smcp_live_\`) into \`Authorization: Bearer <token>\`.
- **Device-code pairing** for the command-line tool, below. It is the whole ceremony.

## Ceremony

1. The tool calls \`POST /v1/cli/pair/start\` with JSON \`{ "scopes": ["site:read", ...] }\` (optional \`"readOnly": true\`
   for a delivery token that reads published content only, \`"admin": true\` for the admin variant, which needs a website).
   The answer carries a \`userCode\` (like \`ABCD-EF23\`), a \`deviceCode\`, a \`verificationUri\`, \`expiresIn\` and \`interval\`.
2. The tool shows the user code. The owner signs in and opens \`/dashboard/connect\`, enters the code, sees every requested
   scope and may untick any of them: the grant can only be narrower than the request. Only an owner can approve.
   The first company whose signed-in person opens the code holds the pairing: no other company can see or decide it.
3. The tool calls \`POST /v1/cli/pair/poll\` with \`{ "deviceCode": "..." }\` every \`interval\` seconds. Before approval it
   answers \`{ "status": "pending" }\`; after approval it answers once with \`{ "status": "approved", "token", "websiteId",
   "scopes", "kind" }\` (\`websiteId\` is null for a company-wide approval of an account with no website yet); later polls
   answer \`{ "status": "redeemed" }\` and never the token again.
4. The token (\`"kind": "connection"\`) is an ordinary MCP connection: send it as \`Authorization: Bearer <token>\`
   to \`/api/mcp\`. There is no command-line-specific API and no second authorization path. A read-only pairing's
   token (\`"kind": "delivery"\`, no scopes, always for one website) is not an MCP connection: it only reads the
   published site, \`GET /v1/delivery/site\` with \`Authorization: Bearer <token>\`, and writes nothing.

No pre-claim token exists: nothing is minted until a human confirms the code. No account is ever created for a human:
pairing only connects a tool to an account that already exists.

## Scopes

${scopes}

## Deliberately not implemented

These are for a person in the app only and are never available to tools:

- deleting a site or a page;
- erasing a contact for data-protection reasons;
- billing changes;
- people management beyond inviting;
- revoking access: anyone's access to a site, or a connection (the owner revokes connections in Developers settings);
- buying, renewing, transferring or removing a domain;
- custom head code;
- text generation (the caller writes copy itself and applies it with \`update_section_text\`).

Publishing, unpublishing, product publishing, access grants, document sends, company creation and search-visibility
changes are not refused but reviewed: a tool prepares a plan, the owner approves it in the app, then the tool confirms.
`;
}

export function pairingRouter(ports: PairingPorts): Router {
  const router = new Router();
  const ajv = sharedAjv();
  const validate = (def: string, body: unknown) => {
    const v = ajv.getSchema(`${SCHEMA}#/$defs/${def}`)!;
    if (!v(body)) throw new DomainError('validation_failed', `Body does not match ${def}: ${ajv.errorsText(v.errors)}`);
    return body;
  };
  const json = async (ctx: Context, fn: () => Promise<unknown> | unknown) => {
    try {
      ctx.body = await fn();
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      answerError(ctx, error);
    }
  };

  router.post('/v1/cli/pair/start', async (ctx) => {
    // Counted per client address before the body is even read (rule pair-start-throttled-per-address).
    const { perAddress } = ports.limits.pairStart;
    const refused = ports.limiter.take([{ key: `pair-start:address:${clientAddress(ctx)}`, window: perAddress }], Date.now());
    if (refused) return answerError(ctx, rateLimited('pairing starts from one address', refused));
    await json(ctx, async () => {
      const body = validate('PairStartRequest', await readJsonBody(ctx.req, 16 * 1024)) as { scopes: string[]; admin?: boolean; readOnly?: boolean };
      // At most maxPending pairings in memory (rule pairings-in-memory-capped).
      // Capacity per starting address and in all (rules pairings-capacity-per-address, pairings-in-memory-capped).
      const { pairing, deviceCode } = ports.pairings.start(body, Date.now(), clientAddress(ctx));
      return { userCode: pairing.userCode, deviceCode, verificationUri: `${ports.baseUrl}/dashboard/connect?code=${pairing.userCode}`, expiresIn: 600, interval: 2 };
    });
  });

  router.post('/v1/cli/pair/poll', (ctx) =>
    json(ctx, async () => {
      const body = validate('PairPollRequest', await readJsonBody(ctx.req, 16 * 1024)) as { deviceCode: string };
      return ports.pairings.poll(body.deviceCode);
    }),
  );

  router.get('/auth.md', (ctx) => {
    ctx.type = 'text/markdown; charset=utf-8';
    ctx.body = authMd();
  });

  // The read-only delivery token reads the published site, nothing else (rules delivery-token-*).
  router.get('/v1/delivery/site', async (ctx) => {
    const match = /^Bearer\s+(smcp_deliver_\S+)$/i.exec(ctx.get('authorization'));
    const entry = match ? await ports.store.lookupDirectory('delivery', createHash('sha256').update(match[1]!).digest('hex')) : undefined;
    const [wsId, websiteId] = entry?.split(' ') ?? [];
    const site = wsId ? entryOf((await ports.store.read(wsId))?.sites ?? {}, websiteId) : undefined;
    if (!site) {
      ctx.status = 401;
      ctx.body = { error: { code: 'unauthenticated', message: 'A delivery token from a read-only pairing is required.' } };
      return;
    }
    if (!site.published) {
      ctx.status = 404;
      ctx.body = { error: { code: 'not_found', message: 'This site is not published.' } };
      return;
    }
    // The live snapshot, never the draft.
    ctx.body = toPortableSite({ ...site, draft: site.published.content }, new Date(), ports.baseUrl);
  });

  return router;
}
