// The one path every tool call takes, as a table of named steps (after panva/node-oidc-provider's actions: one
// check per step, each naming the rule it enforces). callTool runs the table in order; a step refuses the call by
// throwing a DomainError, which the envelope step turns into { ok: false, error }, so every outcome is an envelope
// and nothing escapes as a crash. A step that wraps the ones after it (activity, envelope, held commits) is an
// `around` step; every other step is a `run` step.
import { DomainError } from '../domain/errors.js';
import { checkRole, checkScopes, checkWorkspaceGates, resolveTarget } from '../domain/authorize.js';
import { rateLimited, type SlidingWindowLimiter } from '../domain/rate-limit.js';
import type { Clock } from '../infra/clock.js';
import type { Connection, Site, WorkspaceDoc } from '../domain/model.js';
import type { ActivityEntry, ActivityLog } from '../infra/store/activity.js';
import { DocumentTooLargeError, type Store } from '../infra/store/store.js';
import type { Catalogue, CatalogueEntry, Limits } from '../catalogue.js';
import { handlerFor } from '../tools/index.js';
import type { HandlerTable, ToolContext, ToolPorts } from '../tools/types.js';
import type { Envelope } from './envelope.js';
import { complexityProblem } from './message-shape.js';

export interface Principal {
  workspaceId: string;
  connectionId: string;
}

/**
 * What the call path uses of the server, handed over by the composition root (reference/app.ts): these and nothing
 * else, so what a step can reach is what this interface says.
 */
export interface CallPorts {
  readonly store: Store;
  /** Rule activity-entry-every-call. */
  readonly activity: ActivityLog;
  /** Every rate limit and throttle of the server (rules rate-limit-per-connection, throttle-*). */
  readonly limiter: SlidingWindowLimiter;
  readonly clock: Clock;
  /** spec/limits.json as composed. */
  readonly limits: Limits;
  readonly catalogue: Catalogue;
  /** The steps of every call (CALL_STEPS below, as the compositions left them). */
  readonly callSteps: readonly CallStep[];
  /** The handler of each tool (tools/index.ts, as the compositions left them). */
  readonly handlers: HandlerTable;
  /** What a handler may use of the server (tools/types.ts), the same for every call. */
  readonly tools: ToolPorts;
}

/** One tool call as it goes down the table: what the steps read, and what they find out on the way. */
export interface Call {
  readonly ports: CallPorts;
  readonly principal: Principal;
  /** The tool the client named (a resource read names its resource's tool). */
  readonly name: string;
  /** The arguments as sent, undefined when none were. */
  readonly rawArgs: unknown;
  /** The workspace as read before the call. */
  readonly ws: WorkspaceDoc;
  readonly connection: Connection;
  readonly now: Date;
  /** The call's one activity entry: steps fill in its website and summary, the activity step its outcome. */
  readonly entry: ActivityEntry;
  /** The arguments, {} when none were sent. */
  readonly args: unknown;
  /** The catalogue entry of the tool, found by the tool-catalogue-exact step. */
  tool?: CatalogueEntry;
  /** The target website, resolved by the authz-cross-tenant-not-found step for a tool that takes one. */
  site?: Site;
  /** The handler's answer. */
  data?: unknown;
  /** What the client gets back, set by the envelope step. */
  answer?: Envelope;
}

export type CallStep =
  | { rule: string; run: (call: Call) => void | Promise<void> }
  | { rule: string; around: (call: Call, rest: () => Promise<void>) => Promise<void> };

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

/** The tool a step after tool-catalogue-exact works on. */
function toolOf(call: Call): CatalogueEntry {
  if (!call.tool) throw new Error(`the call path has no tool for ${call.name}: a step that needs it runs before the tool is looked up`);
  return call.tool;
}

/** Turns ajv errors into the issues list of validation_failed. */
function issuesOf(errors: { instancePath: string; message?: string; params?: Record<string, unknown> }[] | null | undefined) {
  return (errors ?? []).slice(0, 20).map((e) => ({
    path: e.instancePath || '/',
    message: e.params && 'additionalProperty' in e.params ? `unknown property "${String(e.params.additionalProperty)}"` : (e.message ?? 'invalid'),
  }));
}

/** Rules rate-limit-per-connection and rate-limit-per-workspace; prompts take the same limits. */
export function checkRateLimits(ports: Pick<CallPorts, 'limits' | 'limiter'>, principal: Principal, nowMs: number): void {
  const { perConnection, perWorkspace } = ports.limits.rateLimits;
  const refused = ports.limiter.take(
    [
      { key: `conn:${principal.connectionId}`, window: perConnection },
      { key: `ws:${principal.workspaceId}`, window: perWorkspace },
    ],
    nowMs,
  );
  if (refused) throw rateLimited(refused.refusedKey.startsWith('conn:') ? 'this connection' : 'this workspace', refused);
}

/** A name as a caller sent it, cut to `max` characters with a marker of its length (rule activity-name-bounded). */
export function boundedName(name: string, max: number): string {
  return name.length <= max ? name : `${name.slice(0, max)}…(${name.length} characters)`;
}

/**
 * Rule activity-name-bounded: the entry names the tool as the caller sent it, so a name the catalogue does not hold
 * is cut before anything stores it (every catalogue name is shorter than the bound and kept whole).
 */
function boundLoggedName(call: Call): void {
  call.entry.name = boundedName(call.entry.name, call.ports.limits.activityLog.maxNameCharacters);
}

/**
 * Rule activity-entry-every-call: exactly one entry per call, awaited, so the answer leaves only once it is on disk.
 * A rate-limited refusal goes through the log's fold (decision activity-refusals-folded): the first of a period is
 * written like any entry, the rest are counted into one.
 */
async function recordActivity(call: Call, rest: () => Promise<void>): Promise<void> {
  try {
    await rest();
  } finally {
    // Every failure is logged with its code (rule error-failure-logged).
    if (call.answer && !call.answer.ok) {
      call.entry.outcome = OUTCOME[call.answer.error.code] ?? 'refused';
      call.entry.code = call.answer.error.code;
    }
    // A failed append still answers: the call's change, if any, is committed and repeating the call would make it
    // twice; the entry stays in the log's backlog, and the workspace's next calls wait for it (activity-log-fails-closed).
    const { activity, limits } = call.ports;
    const written =
      call.entry.code === 'rate_limited'
        ? activity.appendRefused(call.entry, call.now.getTime(), limits.activityLog.foldRefusedSeconds * 1000)
        : activity.append(call.entry);
    await written.catch((error) => console.error(`[site-mcp] activity entry of ${call.name} not yet written (kept to retry):`, error));
  }
}

const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/**
 * Rule never-a-server-error: a refusal answers its DomainError, a document over its cap over_cap (rule
 * store-document-size-capped); anything else is an internal_error, logged here once.
 */
async function answerEnvelope(call: Call, rest: () => Promise<void>): Promise<void> {
  try {
    await rest();
    call.answer = { ok: true, data: call.data };
  } catch (error) {
    const toolError =
      error instanceof DomainError
        ? error
        : error instanceof DocumentTooLargeError
          ? new DomainError('over_cap', `This change would make a stored document ${mib(error.bytes)} MiB, over the ${mib(error.maxBytes)} MiB one may have; nothing was changed. Remove pages or sections, or split the site.`, { limit: error.maxBytes })
          : (console.error(`[site-mcp] ${call.name} failed:`, error), new DomainError('internal_error', `${call.name} failed unexpectedly; no change was kept. Try again, or report it if it persists.`));
    call.answer = { ok: false, error: toolError.toJSON() };
  }
}

/** Rules rate-limit-per-connection and rate-limit-per-workspace: counted before anything else, unknown tools too. */
function takeRateLimits(call: Call): void {
  checkRateLimits(call.ports, call.principal, call.now.getTime());
}

/**
 * Decision activity-log-fails-closed: while entries of the workspace could not be written, a call first tries them
 * again and, if they still cannot be written, is refused before it runs, since its own entry could not be kept
 * either (the refusal's entry joins the backlog's next try). Synchronous, and free, while the log is healthy.
 */
function checkActivityWritable(call: Call): void | Promise<void> {
  const { activity } = call.ports;
  if (!activity.isFailing(call.principal.workspaceId)) return;
  return activity.recover(call.principal.workspaceId).then((recovered) => {
    if (!recovered) {
      throw new DomainError('operation_failed', 'The activity log cannot be written right now, so this call was not run and nothing changed. Try again in a minute.');
    }
  });
}

/** Rule tool-catalogue-exact: a name outside the catalogue is not found. */
function findTool(call: Call): void {
  call.tool = call.ports.catalogue.get(call.name);
  if (!call.tool) throw new DomainError('not_found', `There is no tool named "${boundedName(call.name, call.ports.limits.activityLog.maxNameCharacters)}". Call tools/list for the catalogue.`);
}

/** Rule scope-ceiling: the connection's scopes bound every call, whoever created it. */
function checkScopeCeiling(call: Call): void {
  checkScopes(call.connection, toolOf(call).gate, call.name);
}

/** Rule tool-arguments-bounded: bounded before the schema validator walks them, and so before anything could store them. */
function boundArguments(call: Call): void {
  const tooComplex = complexityProblem(call.args, call.ports.limits.toolArguments);
  if (tooComplex) {
    throw new DomainError('validation_failed', `The arguments of ${call.name} are ${tooComplex}; send a smaller document.`, { issues: [{ path: '/', message: tooComplex }] });
  }
}

/** Rule tool-input-validated: arguments outside the tool's input schema answer validation_failed with each path. */
function validateArguments(call: Call): void {
  const { validateInput } = toolOf(call);
  if (!validateInput(call.args)) {
    throw new DomainError('validation_failed', `The arguments of ${call.name} do not match its input schema.`, { issues: issuesOf(validateInput.errors) });
  }
}

/** Rule authz-cross-tenant-not-found: the target website, where another tenant's answers exactly like a missing one. */
function resolveWebsite(call: Call): void {
  if (!toolOf(call).gate.targetsSite) return;
  call.site = resolveTarget(call.ws, call.connection, (call.args as Record<string, unknown>).websiteId as string | undefined);
  call.entry.websiteId = call.site.websiteId;
}

/** Rule connection-live-role-recheck: the creator's role on the target website, read now, not at creation. */
function checkLiveRole(call: Call): void {
  if (call.site) checkRole(call.ws, call.connection, call.site, toolOf(call).gate, call.name);
}

/** Rules authz-agency-area-off and advanced-grant-fail-closed: the workspace's own switches. */
function checkGates(call: Call): void {
  checkWorkspaceGates(call.ws, toolOf(call).gate, call.name);
}

/** Rules throttle-connect-domain, throttle-generate-image, throttle-create-site: a tool's own per-workspace throttle. */
function takeThrottle(call: Call): void {
  const throttle = call.ports.limits.throttles[call.name];
  if (!throttle) return;
  const refused = call.ports.limiter.take([{ key: `throttle:${call.name}:${call.ws.id}`, window: throttle }], call.now.getTime());
  if (refused) throw rateLimited(`${call.name} in this workspace`, refused, 'throttled');
}

/**
 * Rule tool-answer-checked-before-commit: the handler's writes are held until its answer passed the output check
 * (a step of its own inside), so a failed check keeps nothing. Without this step each write commits as it is made.
 */
async function holdCommits(call: Call, rest: () => Promise<void>): Promise<void> {
  await call.ports.store.holdCommits(rest, () => undefined);
}

/** Rule error-business-failure-rolls-back: the handler's business logic, each of its writes one transaction (ctx.write). */
async function runHandler(call: Call): Promise<void> {
  const { ports, ws, connection, site, entry } = call;
  const handler = handlerFor(ports.handlers, call.name);
  if (!handler) {
    throw new DomainError('not_implemented', `${call.name} is in the catalogue but the reference server does not implement it yet.`, { tool: call.name });
  }
  const ctx: ToolContext = {
    ...ports.tools,
    args: call.args as Record<string, unknown>,
    connection,
    ws,
    site,
    now: call.now,
    write: (operation) =>
      ports.store.transact(ws.id, (fresh, tx) => {
        const freshSite = site ? fresh.sites[site.websiteId] : undefined;
        if (site && !freshSite) throw new DomainError('not_found', 'The website was removed while the call ran.');
        return operation(fresh, freshSite as Site, tx);
      }),
    note: (summary, extra) => {
      entry.summary = summary;
      if (extra?.creditsSpent !== undefined) entry.creditsSpent = extra.creditsSpent;
    },
  };
  call.data = await handler(ctx);
}

/** Rule tool-output-schema: an answer outside the tool's own output schema is a bug in this server, reported as such. */
function checkAnswer(call: Call): void {
  const { validateOutput } = toolOf(call);
  if (validateOutput(call.data)) return;
  console.error(`[site-mcp] ${call.name} output violates its schema:`, JSON.stringify(validateOutput.errors));
  throw new DomainError('internal_error', `${call.name} produced a result that does not match its output schema; no change was kept. This is a server bug.`);
}

/** The call path, in order (a composition may change it: reference/app.ts; the server runs CallPorts.callSteps). */
export const CALL_STEPS: readonly CallStep[] = [
  { rule: 'activity-name-bounded', run: boundLoggedName },
  { rule: 'activity-entry-every-call', around: recordActivity },
  { rule: 'never-a-server-error', around: answerEnvelope },
  { rule: 'rate-limit-per-connection', run: takeRateLimits },
  { rule: 'activity-log-fails-closed', run: checkActivityWritable },
  { rule: 'tool-catalogue-exact', run: findTool },
  { rule: 'scope-ceiling', run: checkScopeCeiling },
  { rule: 'tool-arguments-bounded', run: boundArguments },
  { rule: 'tool-input-validated', run: validateArguments },
  { rule: 'authz-cross-tenant-not-found', run: resolveWebsite },
  { rule: 'connection-live-role-recheck', run: checkLiveRole },
  { rule: 'authz-agency-area-off', run: checkGates },
  { rule: 'throttle-generate-image', run: takeThrottle },
  { rule: 'tool-answer-checked-before-commit', around: holdCommits },
  { rule: 'error-business-failure-rolls-back', run: runHandler },
  { rule: 'tool-output-schema', run: checkAnswer },
];

/**
 * Runs `steps` from `from`; an `around` step runs the rest inside itself. A step that answers synchronously is not
 * awaited: most steps are plain checks, and an await each would add a dozen microtask turns per call.
 */
async function runSteps(steps: readonly CallStep[], call: Call, from = 0): Promise<void> {
  for (let i = from; i < steps.length; i++) {
    const step = steps[i]!;
    if ('around' in step) return step.around(call, () => runSteps(steps, call, i + 1));
    const pending = step.run(call);
    if (pending) await pending;
  }
}

/**
 * Runs tool `name` down the call path. `loggedAs` lets a resource read reuse the path of its tool (same
 * authorization) while its activity entry names the resource.
 */
export async function callTool(
  ports: CallPorts,
  principal: Principal,
  name: string,
  rawArgs: unknown,
  loggedAs: { kind: ActivityEntry['kind']; name: string } = { kind: 'tool', name },
): Promise<Envelope> {
  const ws = await ports.store.read(principal.workspaceId);
  const connection = ws?.connections[principal.connectionId];
  if (!ws || !connection) {
    return { ok: false, error: new DomainError('access_denied', 'This connection no longer exists.').toJSON() };
  }
  const now = ports.clock.now(ws.id);
  const entry: ActivityEntry = {
    at: now.toISOString(),
    connectionId: connection.connectionId,
    workspaceId: ws.id,
    websiteId: null,
    kind: loggedAs.kind,
    name: loggedAs.name,
    outcome: 'ok',
  };
  const call: Call = { ports, principal, name, rawArgs, ws, connection, now, entry, args: rawArgs ?? {} };
  await runSteps(ports.callSteps, call);
  if (!call.answer) throw new Error(`the call path answered nothing for ${name}: its table has no envelope step`);
  return call.answer;
}
