// The one path every tool call takes: rate limits → tool lookup → scope ceiling → input validation → target
// website → live role → workspace gates → per-tool throttle → handler → output check, then exactly one
// activity entry (rule activity-entry-every-call). Every outcome is an envelope; nothing escapes as a crash.
import { ToolError } from '../domain/errors.js';
import { checkRole, checkScopes, checkWorkspaceGates, resolveTarget } from '../domain/authorize.js';
import { workspaceNow } from '../domain/clock.js';
import { rateLimited } from '../domain/rate-limit.js';
import type { Site } from '../domain/model.js';
import type { ActivityEntry } from '../store/activity.js';
import type { CatalogueEntry, Runtime } from '../runtime.js';
import { handlerFor } from '../tools/index.js';
import type { ToolContext } from '../tools/types.js';
import { isBroken } from '../domain/breaks.js';
import type { Envelope } from './envelope.js';
import { complexityProblem } from './message-shape.js';

export interface Principal {
  workspaceId: string;
  connectionId: string;
}

const OUTCOME: Partial<Record<string, ActivityEntry['outcome']>> = {
  scope_denied: 'denied',
  access_denied: 'denied',
  owner_only: 'denied',
  advanced_grant_missing: 'denied',
  area_disabled: 'denied',
  validation_failed: 'invalid',
  not_found: 'not_found',
  internal_error: 'error',
};

/** Turns ajv errors into the issues list of validation_failed. */
function issuesOf(errors: { instancePath: string; message?: string; params?: Record<string, unknown> }[] | null | undefined) {
  return (errors ?? []).slice(0, 20).map((e) => ({
    path: e.instancePath || '/',
    message: e.params && 'additionalProperty' in e.params ? `unknown property "${String(e.params.additionalProperty)}"` : (e.message ?? 'invalid'),
  }));
}

/** A handler's answer outside its own output schema is a bug in this server, reported as such. */
function checkAnswer(tool: CatalogueEntry, name: string, data: unknown): void {
  if (tool.validateOutput(data)) return;
  console.error(`[site-mcp] ${name} output violates its schema:`, JSON.stringify(tool.validateOutput.errors));
  throw new ToolError('internal_error', `${name} produced a result that does not match its output schema; no change was kept. This is a server bug.`);
}

/** Test mode: the fixtures' invalid-next-answer turns the answer into one no output schema accepts, as a bug would. */
function answerUnderTest(rt: Runtime, workspaceId: string, data: unknown): unknown {
  return rt.invalidNextAnswer.delete(workspaceId) ? 'an answer outside the output schema (fixtures: invalid-next-answer)' : data;
}

export function checkRateLimits(rt: Runtime, principal: Principal, nowMs: number): void {
  const { perConnection, perWorkspace } = rt.limits.rateLimits;
  const refused = rt.limiter.take(
    [
      { key: `conn:${principal.connectionId}`, window: perConnection },
      { key: `ws:${principal.workspaceId}`, window: perWorkspace },
    ],
    nowMs,
  );
  if (refused && !isBroken('rate-limit-per-connection')) throw rateLimited(refused.refusedKey.startsWith('conn:') ? 'this connection' : 'this workspace', refused);
}

/**
 * Runs tool `name`. `loggedAs` lets a resource read reuse the path of its tool (same authorization) while
 * its activity entry names the resource.
 */
export async function callTool(
  rt: Runtime,
  principal: Principal,
  name: string,
  rawArgs: unknown,
  loggedAs: { kind: ActivityEntry['kind']; name: string } = { kind: 'tool', name },
): Promise<Envelope> {
  const ws = await rt.store.read(principal.workspaceId);
  const connection = ws?.connections[principal.connectionId];
  if (!ws || !connection) {
    return { ok: false, error: new ToolError('access_denied', 'This connection no longer exists.').toJSON() };
  }
  const now = workspaceNow(ws);
  const entry: ActivityEntry = {
    at: now.toISOString(),
    connectionId: connection.connectionId,
    workspaceId: ws.id,
    websiteId: null,
    kind: loggedAs.kind,
    name: loggedAs.name,
    outcome: 'ok',
  };
  try {
    checkRateLimits(rt, principal, now.getTime());
    const tool = rt.catalogue.get(name);
    if (!tool) throw new ToolError('not_found', `There is no tool named "${name}". Call tools/list for the catalogue.`);
    if (!isBroken('scope-ceiling')) checkScopes(connection, tool.gate, name);
    const args = rawArgs ?? {};
    // Bounded before the schema validator walks it, and so before anything could store it (rule tool-arguments-bounded).
    const tooComplex = complexityProblem(args, rt.limits.toolArguments);
    if (tooComplex) {
      throw new ToolError('validation_failed', `The arguments of ${name} are ${tooComplex}; send a smaller document.`, { issues: [{ path: '/', message: tooComplex }] });
    }
    if (!tool.validateInput(args)) {
      throw new ToolError('validation_failed', `The arguments of ${name} do not match its input schema.`, { issues: issuesOf(tool.validateInput.errors) });
    }
    const typedArgs = args as Record<string, unknown>;
    let site: Site | undefined;
    if (tool.gate.targetsSite) {
      site = resolveTarget(ws, connection, typedArgs.websiteId as string | undefined);
      entry.websiteId = site.websiteId;
      if (!isBroken('connection-live-role-recheck')) checkRole(ws, connection, site, tool.gate, name);
    }
    checkWorkspaceGates(ws, tool.gate, name);
    const throttle = rt.limits.throttles[name];
    if (throttle) {
      const refused = rt.limiter.take([{ key: `throttle:${name}:${ws.id}`, window: throttle }], now.getTime());
      if (refused) throw rateLimited(`${name} in this workspace`, refused, 'throttled');
    }
    const handler = handlerFor(name);
    if (!handler) {
      throw new ToolError('not_implemented', `${name} is in the catalogue but the reference server does not implement it yet.`, { tool: name });
    }
    const ctx: ToolContext = {
      rt,
      args: typedArgs,
      connection,
      ws,
      site,
      now,
      write: (operation) =>
        rt.store.transact(ws.id, (fresh, tx) => {
          const freshSite = site ? fresh.sites[site.websiteId] : undefined;
          if (site && !freshSite) throw new ToolError('not_found', 'The website was removed while the call ran.');
          return operation(fresh, freshSite as Site, tx);
        }),
      note: (summary, extra) => {
        entry.summary = summary;
        if (extra?.creditsSpent !== undefined) entry.creditsSpent = extra.creditsSpent;
      },
    };
    const answer = async () => answerUnderTest(rt, ws.id, await handler(ctx));
    const check = (data: unknown) => checkAnswer(tool, name, data);
    // The handler's writes are held until its answer passed the check, so a failed check keeps nothing (rule
    // tool-answer-checked-before-commit). The broken server commits first and checks after, as this path once did.
    const data = isBroken('tool-answer-checked-before-commit') ? await answer().then((d) => (check(d), d)) : await rt.store.holdCommits(answer, check);
    return { ok: true, data };
  } catch (error) {
    const toolError =
      error instanceof ToolError
        ? error
        : (console.error(`[site-mcp] ${name} failed:`, error), new ToolError('internal_error', `${name} failed unexpectedly; no change was kept. Try again, or report it if it persists.`));
    entry.outcome = OUTCOME[toolError.code] ?? 'refused';
    if (isBroken('activity-pii-free')) entry.summary = JSON.stringify(rawArgs);
    entry.code = toolError.code;
    return { ok: false, error: toolError.toJSON() };
  } finally {
    // Awaited: the answer leaves only once its entry is on disk (rule activity-entry-every-call).
    await rt.activity.append(entry).catch((error) => console.error('[site-mcp] activity append failed:', error));
  }
}
