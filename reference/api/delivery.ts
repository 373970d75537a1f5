// The read-only delivery endpoint (§2.7, §5.5; rules delivery-token-read-published-only, delivery-token-cannot-write,
// delivery-token-not-a-connection): a read-only pairing's token reads its website's published content, nothing else.
import Router from '@koa/router';
import { createHash } from 'node:crypto';
import type { Store } from '../infra/store/store.js';
import { toPortableSite } from '../domain/portable-site.js';
import { entryOf } from '../domain/model.js';

/** What the delivery endpoint uses of the server. */
export interface DeliveryPorts {
  readonly store: Store;
  /** The server's public base URL: the published site's assets are named against it. */
  readonly baseUrl: string;
}

/** Where a delivery token reads the published site (ours: rule pairing-field-names; the source shows no address). */
export const DELIVERY_PATH = '/v1/delivery/site';

export function deliveryRouter(ports: DeliveryPorts): Router {
  const router = new Router();

  // The read-only delivery token reads the published site, nothing else (rules delivery-token-*).
  router.get(DELIVERY_PATH, async (ctx) => {
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
