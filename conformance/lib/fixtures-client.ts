// Client of the fixtures protocol (conformance/README.md). A 404 from it is a failed prerequisite, never a skip.
export interface WorldResponse {
  workspaceId: string;
  users: Record<string, { userId: string; email: string; password: string }>;
  sites: Record<string, { websiteId: string; pages: Record<string, { pageId: string; sections: Record<string, string> }>; records: Record<string, string[]> }>;
}

export interface ConnectionCreated {
  connectionId: string;
  token: string;
  reach: string;
  scopes: string[];
  presetLabel: string;
  tokenPrefix: string;
  websiteId: string | null;
}

export class FixturesError extends Error {
  constructor(readonly status: number, readonly body: unknown, message: string) {
    super(message);
  }
}

export class FixturesClient {
  constructor(readonly url: string, readonly secret: string) {}

  async request<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.url}/test-fixtures/v1${path}`, {
      method,
      headers: { 'x-fixtures-secret': this.secret, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    const parsed = text ? JSON.parse(text) : {};
    if (!res.ok) throw new FixturesError(res.status, parsed, `fixtures ${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
    return parsed as T;
  }

  world(request: unknown) {
    return this.request<WorldResponse>('POST', '/worlds', request);
  }
  connection(request: unknown) {
    return this.request<ConnectionCreated>('POST', '/connections', request);
  }
  connectionView(connectionId: string) {
    return this.request<Record<string, unknown>>('GET', `/connections/${connectionId}`);
  }
  activity(connectionId: string) {
    return this.request<{ entries: Record<string, unknown>[] }>('GET', `/connections/${connectionId}/activity`);
  }
  membership(websiteId: string, userId: string, role: string | null) {
    return this.request('POST', '/memberships', { websiteId, userId, role });
  }
  settings(workspaceId: string, settings: unknown) {
    return this.request('POST', `/workspaces/${workspaceId}/settings`, settings);
  }
  advanceClock(workspaceId: string, seconds: number) {
    return this.request<{ now: string }>('POST', `/workspaces/${workspaceId}/clock`, { advanceSeconds: seconds });
  }
  appEdit(edit: { userId: string; websiteId: string; sectionId: string; field: string; text: string }) {
    return this.request<{ rev: number; siteRevision: number }>('POST', '/app-edits', edit);
  }
  decide(planId: string, userId: string, decision: 'approve' | 'decline') {
    return this.request<{ status: string }>('POST', `/plans/${planId}/${decision}`, { userId });
  }
  plan(planId: string, workspaceId: string) {
    return this.request<{ status: string }>('GET', `/plans/${planId}?workspaceId=${encodeURIComponent(workspaceId)}`);
  }
  siteState(websiteId: string) {
    return this.request<{ siteRevision: number; publishedRevision: number | null; draftFingerprint: string; publishedFingerprint: string | null; status: string; searchVisible: boolean }>('GET', `/sites/${websiteId}`);
  }
  dnsResolver(server: string) {
    return this.request('POST', '/dns-resolver', { server });
  }
}
