// A per-key async mutex: business operations on one workspace run one at a time, so a read-check-write
// (the site limit at commit, the credit balance) can never interleave with another on the same workspace.
export class KeyedMutex {
  #tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const release = await this.acquire(key);
    try {
      return await fn();
    } finally {
      release();
    }
  }

  /**
   * Waits for `key` and holds it until the returned release is called (once; later calls do nothing). For a
   * hold that spans more than one function, as a tool call's held commits do.
   */
  async acquire(key: string): Promise<() => void> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    let resolve!: () => void;
    const mine = new Promise<void>((r) => (resolve = r));
    const tail = previous.then(() => mine);
    this.#tails.set(key, tail);
    await previous;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      resolve();
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    };
  }
}
