// Client of the fixtures protocol (conformance/docs/fixtures-protocol.md), typed from spec/schemas/fixtures/fixtures.schema.json
// through generated/. Any non-2xx answer throws FixturesError: a missing or refused fixture is a failed
// prerequisite of the scenario, never a skip.
import type {
  ConnectionPlans,
  LimitValues,
  ActivityEntry,
  ActivityList,
  AppEditRequest,
  ConnectionRequest,
  ConnectionView,
  SiteState,
  UserPassword,
  WorkspaceSettingsRequest,
  WorldRequest,
  WorldResponse,
} from '../../generated/schemas/fixtures/fixtures.js';
import type { PairApproveRequest } from '../../generated/schemas/pairing.js';
import { recordedFetch } from './transcript.js';
import { AnswerTooLarge, callTimeoutMs, closedBeforeAnswer, MAX_ANSWER_BYTES, STALE_CONNECTION_TRIES } from './bounded-fetch.js';
import { sharedAjv, SPEC_BASE } from '../../spec/index.js';

const FIXTURES_SCHEMA = `${SPEC_BASE}schemas/fixtures/fixtures.schema.json`;

export type { ActivityEntry, ActivityList, LimitValues, ConnectionRequest, ConnectionView, SiteState, WorkspaceSettingsRequest, WorldRequest, WorldResponse };
/** A world answered without passwordsOnDemand: every user has their password. */
export type WorldWithPasswords = WorldResponse & { users: Record<string, NonNullable<WorldResponse['users'][string]> & { password: string }> };
/** The connection as created: its view plus the plaintext token, returned this once. */
export type ConnectionCreated = ConnectionView & { token: string };
export interface PlanState { planId: string; status: string; kind: string; websiteId: string; expiresAt: string }

/**
 * Whether the target's fixtures handshake listed an optional part of the protocol (conformance/cli.ts passes the
 * list to the scenario workers in SITE_MCP_FIXTURES_SUPPORTS).
 */
export function fixturesSupport(part: string): boolean {
  return (process.env.SITE_MCP_FIXTURES_SUPPORTS ?? '').split(',').includes(part);
}

/** Why no answer came: the target could not be reached, did not answer in time, sent too much, or closed the connection. */
export type NoAnswer = 'unreachable' | 'timeout' | 'too-large' | 'closed';

export class FixturesError extends Error {
  /** `status` 0: no answer came, for the reason `noAnswer`. */
  constructor(readonly status: number, readonly body: unknown, message: string, readonly noAnswer?: NoAnswer) {
    super(message);
    this.name = 'FixturesError';
  }
  /** The FixtureError code of the answer, when it has one. */
  get code(): string | undefined {
    return (this.body as { error?: { code?: string } } | undefined)?.error?.code;
  }
}

/** Why a fixtures request got no answer (boundedFetch's deadline and byte cap), and the words for a person. */
function noAnswer(error: unknown, url: string): { reason: NoAnswer; words: string } {
  if ((error as { name?: string }).name === 'TimeoutError') return { reason: 'timeout', words: `the target at ${url} did not answer within ${callTimeoutMs() / 1000} s (--call-timeout)` };
  if (error instanceof AnswerTooLarge) return { reason: 'too-large', words: `the target at ${url} answered more than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB` };
  if (closedBeforeAnswer(error)) return { reason: 'closed', words: `the target at ${url} closed the connection before answering, ${STALE_CONNECTION_TRIES} times` };
  return { reason: 'unreachable', words: `the target at ${url} is unreachable (${(error as Error).message})` };
}

/**
 * The part of the fixtures protocol each route belongs to, as the handshake's `supports` names them (the schema's
 * Handshake). Worlds and connections are every target's; a route of another part is asked only of a target whose
 * handshake lists that part: otherwise the step needing it stops as not checked, never failed (a partial server).
 */
const PART_OF_ROUTE: [RegExp, string][] = [
  [/^\/worlds$/, 'worlds'],
  [/^\/connections$/, 'connections'],
  [/^\/connections\/[^/]+\/plans$/, 'connection-plans'],
  [/^\/connections\/[^/]+\/activity/, 'activity'],
  [/^\/connections\/[^/]+$/, 'connections'],
  [/^\/users\/[^/]+\/password$/, 'passwords-on-demand'],
  [/^\/users\/[^/]+\/companies$/, 'companies'],
  [/^\/limits$/, 'limits'],
  [/^\/memberships$/, 'memberships'],
  [/^\/workspaces\/[^/]+\/settings$/, 'settings'],
  [/^\/workspaces\/[^/]+\/clock$/, 'clock'],
  [/^\/workspaces\/[^/]+\/(fail-next-write|invalid-next-answer|no-capture-next-migration|fail-next-image)$/, '$1'],
  [/^\/app-edits$/, 'app-edits'],
  [/^\/record-edits$/, 'record-edits'],
  [/^\/plans\/[^/]+\/(approve|decline)$/, 'plan-decisions'],
  [/^\/plans\/[^/?]+(\?.*)?$/, 'plans'],
  [/^\/pairings\//, 'pairings'],
  [/^\/sites\/[^/]+\/restore-points$/, 'restore-points'],
  [/^\/sites\/[^/]+$/, 'sites'],
  [/^\/fetch-allowlist$/, 'fetch-allowlist'],
  [/^\/dns-resolver$/, 'dns-resolver'],
  [/^\/oauth-consent$/, 'oauth-consent'],
];

/** The part of the fixtures protocol `path` belongs to; undefined for a route of none. */
export function fixturesPartOf(path: string): string | undefined {
  for (const [route, part] of PART_OF_ROUTE) {
    const match = route.exec(path);
    if (match) return part.replace('$1', match[1] ?? '');
  }
  return undefined;
}

/** A fixtures part the target's handshake did not list: the step that needs it is not checked (features/support/declared.ts). */
export class FixturesPartMissing extends Error {
  constructor(readonly part: string) {
    super(`the fixtures part ${part} (the target's handshake does not list it in supports)`);
    this.name = 'FixturesPartMissing';
  }
}

export class FixturesClient {
  constructor(readonly url: string, readonly secret: string) {}

  /**
   * `answers`: the schema's $defs entry the answer must match (WorldResponse, SiteState, …); an answer off it fails
   * the step with one sentence naming the route, the definition and what is off, never a TypeError further on.
   */
  async request<T>(method: 'GET' | 'POST', path: string, body?: unknown, answers?: string): Promise<T> {
    // In a run, a route of a part the handshake did not list is never asked (SITE_MCP_FIXTURES_SUPPORTS, set by
    // conformance/lib/prerequisites.ts); outside one (the kit's own tests, init) every route is.
    const part = fixturesPartOf(path.split('?')[0]!);
    const listed = process.env.SITE_MCP_FIXTURES_SUPPORTS;
    if (listed !== undefined && part !== undefined && part !== 'worlds' && part !== 'connections' && !listed.split(',').includes(part)) throw new FixturesPartMissing(part);
    let res: Response;
    let text: string;
    try {
      res = await recordedFetch(`${this.url}/test-fixtures/v1${path}`, {
        method,
        headers: { 'x-fixtures-secret': this.secret, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      text = await res.text();
    } catch (error) {
      const { reason, words } = noAnswer(error, this.url);
      throw new FixturesError(0, undefined, `fixtures ${method} ${path}: ${words}`, reason);
    }
    let parsed: unknown = {};
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      parsed = text;
    }
    if (!res.ok) {
      const hint = res.status === 404 && !(parsed as { error?: unknown }).error
        ? ' (the target must serve the fixtures protocol of conformance/docs/fixtures-protocol.md in test mode, with this secret)'
        : '';
      throw new FixturesError(res.status, parsed, `fixtures ${method} ${path} answered ${res.status}${hint}: ${text.slice(0, 300)}`);
    }
    if (answers) {
      const validate = sharedAjv().getSchema(`${FIXTURES_SCHEMA}#/$defs/${answers}`)!;
      if (!validate(parsed)) throw new FixturesError(res.status, parsed, `fixtures ${method} ${path} answered a body that does not match ${answers} (spec/schemas/fixtures/fixtures.schema.json): ${sharedAjv().errorsText(validate.errors)}`);
    }
    return parsed as T;
  }

  handshake() {
    return this.request<{ protocol: string; version: number; supports: string[] }>('GET', '');
  }
  /** A world; unless the request asked for passwordsOnDemand, every user must come with a password. */
  world(request: WorldRequest & { passwordsOnDemand?: false }): Promise<WorldWithPasswords>;
  world(request: WorldRequest): Promise<WorldResponse>;
  async world(request: WorldRequest): Promise<WorldResponse> {
    const answer = await this.request<WorldResponse>('POST', '/worlds', request, 'WorldResponse');
    const without = Object.entries(answer.users ?? {}).filter(([, user]) => typeof user?.password !== 'string').map(([key]) => key);
    if (!request.passwordsOnDemand && without.length > 0) {
      throw new FixturesError(200, answer, `fixtures POST /worlds answered no password for ${without.join(', ')}, although the request did not ask for passwordsOnDemand`);
    }
    return answer;
  }
  /** A new password for the user's app sign-in, answered once (optional part passwords-on-demand). */
  userPassword(userId: string) {
    return this.request<UserPassword>('POST', `/users/${encodeURIComponent(userId)}/password`, {});
  }
  connection(request: ConnectionRequest) {
    return this.request<ConnectionCreated>('POST', '/connections', request, 'ConnectionCreated');
  }
  connectionView(connectionId: string) {
    return this.request<ConnectionView & Record<string, unknown>>('GET', `/connections/${encodeURIComponent(connectionId)}`, undefined, 'ConnectionView');
  }
  /** The plans the connection prepared, newest first (optional part connection-plans). */
  connectionPlans(connectionId: string) {
    return this.request<ConnectionPlans>('GET', `/connections/${encodeURIComponent(connectionId)}/plans`, undefined, 'ConnectionPlans');
  }
  /**
   * The target's own values of the limits §8 leaves open, as it enforces them (optional part limits), checked
   * against the schema's LimitValues: a malformed answer fails the step, as any failed fixture does.
   */
  async limits(): Promise<LimitValues> {
    const answer = await this.request<unknown>('GET', '/limits');
    const validate = sharedAjv().getSchema(`${FIXTURES_SCHEMA}#/$defs/LimitValues`)!;
    if (!validate(answer)) throw new FixturesError(200, answer, `fixtures GET /limits answered outside LimitValues (spec/schemas/fixtures/fixtures.schema.json): ${sharedAjv().errorsText(validate.errors)}`);
    return answer as LimitValues; // just validated against the schema this type is generated from
  }
  activity(connectionId: string) {
    return this.request<ActivityList & { entries: (ActivityEntry & Record<string, unknown>)[] }>('GET', `/connections/${encodeURIComponent(connectionId)}/activity`, undefined, 'ActivityList');
  }
  membership(websiteId: string, userId: string, role: 'owner' | 'editor' | 'viewer' | null | string) {
    return this.request<Record<string, never>>('POST', '/memberships', { websiteId, userId, role });
  }
  settings(workspaceId: string, settings: WorkspaceSettingsRequest) {
    return this.request<Record<string, never>>('POST', `/workspaces/${encodeURIComponent(workspaceId)}/settings`, settings);
  }
  advanceClock(workspaceId: string, seconds: number) {
    return this.request<{ now: string }>('POST', `/workspaces/${encodeURIComponent(workspaceId)}/clock`, { advanceSeconds: seconds });
  }
  appEdit(edit: AppEditRequest) {
    return this.request<{ rev: number; siteRevision: number }>('POST', '/app-edits', edit);
  }
  decide(planId: string, userId: string, decision: 'approve' | 'decline') {
    return this.request<{ status: string }>('POST', `/plans/${encodeURIComponent(planId)}/${decision}`, { userId });
  }
  plan(planId: string, workspaceId: string) {
    return this.request<PlanState>('GET', `/plans/${encodeURIComponent(planId)}?workspaceId=${encodeURIComponent(workspaceId)}`);
  }
  approvePairing(userCode: string, approval: PairApproveRequest) {
    return this.request<{ status: string }>('POST', `/pairings/${encodeURIComponent(userCode)}/approve`, approval);
  }
  siteState(websiteId: string) {
    return this.request<SiteState>('GET', `/sites/${encodeURIComponent(websiteId)}`, undefined, 'SiteState');
  }
  /** The restore points a site's merges took, each with the draft fingerprint of when it was taken (optional part restore-points). */
  restorePoints(websiteId: string) {
    return this.request<{ restorePoints: { restorePointId: string; createdAt: string; draftFingerprint: string }[] }>('GET', `/sites/${encodeURIComponent(websiteId)}/restore-points`);
  }
  failNextWrite(workspaceId: string) {
    return this.request<Record<string, never>>('POST', `/workspaces/${encodeURIComponent(workspaceId)}/fail-next-write`, {});
  }
  invalidNextAnswer(workspaceId: string) {
    return this.request<Record<string, never>>('POST', `/workspaces/${encodeURIComponent(workspaceId)}/invalid-next-answer`, {});
  }
  /** The workspace's next migration finds no visual capture, as on a server without a browser (optional part no-capture-next-migration). */
  noCaptureNextMigration(workspaceId: string) {
    return this.request<Record<string, never>>('POST', `/workspaces/${encodeURIComponent(workspaceId)}/no-capture-next-migration`, {});
  }

  failNextImage(workspaceId: string) {
    return this.request<Record<string, never>>('POST', `/workspaces/${encodeURIComponent(workspaceId)}/fail-next-image`, {});
  }
  companies(userId: string) {
    return this.request<{ companies: { workspaceId: string; companyName: string; plan: string; credits: number; websites: number; trial: boolean; monthlyCreditReset: boolean; paymentProviderObject: boolean }[] }>('GET', `/users/${encodeURIComponent(userId)}/companies`);
  }
  recordEdit(edit: { userId: string; websiteId: string; kind: 'product' | 'document'; recordId: string; text: string }) {
    return this.request<Record<string, never>>('POST', '/record-edits', edit);
  }
  /** `certificates` (PEM, optional part fetch-allowlist-tls) are trusted for the https origins of the list only. */
  fetchAllowlist(origins: string[], certificates?: string[]) {
    return this.request<Record<string, never>>('POST', '/fetch-allowlist', { origins, ...(certificates ? { certificates } : {}) });
  }
  dnsResolver(server: string) {
    return this.request<Record<string, never>>('POST', '/dns-resolver', { server });
  }
}
