// Broken servers of migration's visual capture (rules migrate-capture-then-typed, migrate-fidelity-values,
// migrate-capture-status-listed): the reference's handlers wrapped so that fidelity or the listed capture status no
// longer says what happened. (migrate-capture-queue-counted is broken through spec/limits.json instead: index.ts.)
import { handlers } from '../../reference/tools/index.js';
import type { HandlerOf } from '../../reference/tools/types.js';

/**
 * migrate-capture-then-typed: a new draft made of typed sections is reported as captured (run on a server without
 * a browser, so every page is typed); a re-sync still says typed.
 */
export const typedDraftCalledCaptured: HandlerOf<'migrate_site_from_url'> = async (ctx) => {
  const result = await handlers.migrate_site_from_url(ctx);
  return ctx.args.mergeIntoWebsiteId === undefined && result.fidelity === 'typed' ? { ...result, fidelity: 'visual' as const } : result;
};

/** migrate-capture-allowance-setting: a migration takes the default allowance whatever the workspace's setting. */
export const workspaceAllowanceIgnored: HandlerOf<'migrate_site_from_url'> = (ctx) => handlers.migrate_site_from_url({ ...ctx, ws: { ...ctx.ws, captureAllowancePages: undefined } });

/** migrate-fidelity-values: a re-sync with mergeIntoWebsiteId, which takes the typed path, says visual. */
export const resyncCalledCaptured: HandlerOf<'migrate_site_from_url'> = async (ctx) => {
  const result = await handlers.migrate_site_from_url(ctx);
  return ctx.args.mergeIntoWebsiteId === undefined ? result : { ...result, fidelity: 'visual' as const };
};

/** migrate-capture-status-listed: list_pages calls every page a migration made captured, queued ones included. */
export const queuedPagesListedCaptured: HandlerOf<'list_pages'> = async (ctx) => {
  const result = await handlers.list_pages(ctx);
  return { pages: result.pages.map((page) => (page.capture === 'queued' ? { ...page, capture: 'captured' as const } : page)) };
};
