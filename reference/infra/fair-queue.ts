// One task at a time, shared fairly between tenants (rule capture-fair-between-workspaces): the
// capture browser serves one page at a time, and a single first-come queue would let one workspace's slow pages
// hold every other workspace's migration.
// Each tenant has its own first-come queue and the next task is the first of the waiting tenant served least
// recently (never served first, then by arrival), so a task waits for at most one task of each other waiting tenant; a task may also say how long it is willing to wait to start,
// and is dropped unstarted with QueueWaitError past it.

export class QueueWaitError extends Error {}

/** Tenants whose last service is remembered beyond those waiting (rule memory-caller-keyed-maps-bounded). */
const MAX_SERVED_RECORDS = 1000;

interface Job {
  start(): void;
  timer: NodeJS.Timeout | undefined;
}

export class FairQueue {
  /** Tenant → its waiting jobs, first come first; the Map's order is the order tenants arrived in. */
  readonly #waiting = new Map<string, Job[]>();
  /** Tenant → when it was last served (a count of tasks started); kept for waiting tenants and the latest others. */
  readonly #served = new Map<string, number>();
  #started = 0;
  #running = false;
  #idle: (() => void)[] = [];

  /**
   * Runs `task` when its turn comes: after at most one task of each other tenant waiting, and after the earlier
   * tasks of its own tenant. With `waitMs`, a task not started by then is rejected with QueueWaitError, unstarted.
   */
  run<T>(tenant: string, task: () => Promise<T>, { waitMs }: { waitMs?: number } = {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const job: Job = {
        timer: undefined,
        start: () => {
          clearTimeout(job.timer);
          task().then(resolve, reject).finally(() => {
            this.#running = false;
            this.#next();
          });
        },
      };
      if (waitMs !== undefined && Number.isFinite(waitMs)) {
        job.timer = setTimeout(() => {
          const queue = this.#waiting.get(tenant);
          const at = queue ? queue.indexOf(job) : -1;
          if (!queue || at < 0) return;
          queue.splice(at, 1);
          if (queue.length === 0) this.#waiting.delete(tenant);
          reject(new QueueWaitError(`waited ${waitMs} ms without starting`));
        }, Math.max(0, waitMs));
        job.timer.unref();
      }
      const queue = this.#waiting.get(tenant);
      if (queue) queue.push(job);
      else this.#waiting.set(tenant, [job]);
      this.#next();
    });
  }

  /** How many tasks wait to start (tests). */
  get waiting(): number {
    let n = 0;
    for (const queue of this.#waiting.values()) n += queue.length;
    return n;
  }

  /** Resolves when nothing runs and nothing waits. */
  idle(): Promise<void> {
    if (!this.#running && this.#waiting.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  #next(): void {
    if (this.#running) return;
    let tenant: string | undefined;
    let queue: Job[] | undefined;
    let servedAt = Number.POSITIVE_INFINITY;
    for (const [waiting, jobs] of this.#waiting) {
      const at = this.#served.get(waiting) ?? -1;
      if (at < servedAt) [tenant, queue, servedAt] = [waiting, jobs, at];
    }
    // A tenant's queue leaves #waiting when it empties, so a chosen queue has a first job.
    const job = queue?.shift();
    if (tenant === undefined || !queue || !job) {
      for (const resolve of this.#idle.splice(0)) resolve();
      return;
    }
    if (queue.length === 0) this.#waiting.delete(tenant);
    this.#served.delete(tenant);
    this.#served.set(tenant, (this.#started += 1));
    // Bounded: the oldest records of tenants with nothing waiting go first (they would be served first anyway).
    for (const old of this.#served.keys()) {
      if (this.#served.size <= MAX_SERVED_RECORDS) break;
      if (!this.#waiting.has(old)) this.#served.delete(old);
    }
    this.#running = true;
    job.start();
  }
}
