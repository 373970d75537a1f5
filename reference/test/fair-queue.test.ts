// FairQueue (reference/infra/fair-queue.ts, rule capture-fair-between-workspaces): one task at a time, the waiting
// tenant served least recently first, and a task that waited past its waitMs dropped unstarted. The capture engine
// that uses it is checked in capture-limits.test.ts.
import { describe, expect, it } from 'vitest';
import { FairQueue, QueueWaitError } from '../infra/fair-queue.js';

describe('FairQueue (rule capture-fair-between-workspaces)', () => {
  it('rule:capture-fair-between-workspaces — FairQueue takes tenants in turn and runs one task at a time', async () => {
    const queue = new FairQueue();
    const order: string[] = [];
    let running = 0;
    const task = (name: string) => async () => {
      running += 1;
      expect(running).toBe(1);
      order.push(name);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running -= 1;
    };
    await Promise.all([
      queue.run('a', task('a1')),
      queue.run('a', task('a2')),
      queue.run('a', task('a3')),
      queue.run('b', task('b1')),
      queue.run('c', task('c1')),
      queue.run('b', task('b2')),
    ]);
    expect(order).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
    // Left waiting past waitMs: rejected unstarted.
    const long = queue.run('a', () => new Promise((resolve) => setTimeout(resolve, 100)));
    await expect(queue.run('b', task('late'), { waitMs: 10 })).rejects.toBeInstanceOf(QueueWaitError);
    await long;
    expect(order).not.toContain('late');
    await queue.idle();
  });
});
