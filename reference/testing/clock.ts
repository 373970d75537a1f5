// The test clock: time per workspace, so the fixtures protocol can move one workspace's clock (plan expiry,
// rate-limit windows, activity retention, pairing expiry) without disturbing other tenants. The offsets live
// here, in memory, never on a workspace record; test mode installs this clock as the server's clock service.
import type { Clock } from '../infra/clock.js';

export class TestClock implements Clock {
  readonly #base: Clock;
  readonly #offsetsMs = new Map<string, number>();

  constructor(base: Clock) {
    this.#base = base;
  }

  now(workspaceId: string): Date {
    return new Date(this.#base.now(workspaceId).getTime() + (this.#offsetsMs.get(workspaceId) ?? 0));
  }

  /** Moves the workspace's clock on by `seconds`; answers its new time. */
  advance(workspaceId: string, seconds: number): Date {
    this.#offsetsMs.set(workspaceId, (this.#offsetsMs.get(workspaceId) ?? 0) + seconds * 1000);
    return this.now(workspaceId);
  }

  /** A workspace another one's operation creates (a company a plan creates) starts at its creator's time. */
  inherit(createdId: string, fromId: string): void {
    const offset = this.#offsetsMs.get(fromId);
    if (offset !== undefined) this.#offsetsMs.set(createdId, offset);
  }
}
