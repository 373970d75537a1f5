// Device-code pairing endpoints (§4.1, §5.3–5.5): a tool starts a pairing and polls for its token. The owner's
// approval screen /dashboard/connect is a page (reference/web/connect.ts); what a read-only pairing's token reads is
// reference/api/delivery.ts; the /auth.md document that describes the ceremony is reference/api/auth-md.ts.
import Router from '@koa/router';
import type { Context } from 'koa';
import { sharedAjv } from '../../spec/index.js';
import type { Limits } from '../../spec/index.js';
import type { Clock } from '../infra/clock.js';
import type { SlidingWindowLimiter } from '../domain/rate-limit.js';
import type { Store } from '../infra/store/store.js';
import type { Sessions } from '../web/session.js';
import { readJsonBody } from './body.js';
import { approvePairing, networkOf, type Pairing, type Pairings } from '../domain/pairing.js';
import { DomainError } from '../domain/errors.js';
import { answerError } from './errors.js';
import { rateLimited } from '../domain/rate-limit.js';
import { clientAddress } from './client-address.js';
import { indexConnection } from '../auth/authenticate.js';

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
    const result = await ports.store.transact(wsId, (ws, tx) => {
      const result = approvePairing(ws, pairing, input, ports.clock.now(ws.id));
      granted = pairing.grant;
      // Findable in the same commit as the connection or delivery token (rule store-lookups-with-document).
      if (result.connection) indexConnection(tx, result.connection, wsId);
      if (result.deliveryTokenHash) tx.index('delivery', result.deliveryTokenHash, `${wsId} ${granted!.websiteId}`);
      // No poll hands out the token before the connection it names is stored: until the commit is done the
      // pairing reads as pending (Pairings.poll).
      pairing.grant = undefined;
      return result;
    });
    pairing.grant = granted;
    return result;
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
    // Counted per client address, and per network (an IPv6 /48 holds 65,536 /64 addresses), before the body is even
    // read (rule pair-start-throttled-per-address).
    const { perAddress, perNetwork } = ports.limits.pairStart;
    const address = clientAddress(ctx);
    const keys = [{ key: `pair-start:address:${address}`, window: perAddress }, ...(perNetwork ? [{ key: `pair-start:network:${networkOf(address)}`, window: perNetwork }] : [])];
    const refused = ports.limiter.take(keys, Date.now());
    if (refused) return answerError(ctx, rateLimited(refused.refusedKey.startsWith('pair-start:network:') ? 'pairing starts from one network' : 'pairing starts from one address', refused));
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

  return router;
}
