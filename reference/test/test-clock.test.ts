// The test clock of test mode (reference/testing/clock.ts): each workspace's time moves on its own, and a
// workspace another one's commit creates (a company a plan creates) starts at its creator's time.
import { describe, expect, it } from 'vitest';
import { TestClock } from '../testing/clock.js';

const fixed = { now: () => new Date('2030-01-01T00:00:00Z') };

describe('TestClock', () => {
  it('advances one workspace and leaves the others on the base clock', () => {
    const clock = new TestClock(fixed);
    expect(clock.advance('ws_a', 301).toISOString()).toBe('2030-01-01T00:05:01.000Z');
    expect(clock.now('ws_a').toISOString()).toBe('2030-01-01T00:05:01.000Z');
    expect(clock.now('ws_b').toISOString()).toBe('2030-01-01T00:00:00.000Z');
  });

  it('gives a created workspace its creator\'s time', () => {
    const clock = new TestClock(fixed);
    clock.advance('ws_anchor', 86_400);
    clock.inherit('ws_company', 'ws_anchor');
    clock.inherit('ws_other', 'ws_untouched');
    expect(clock.now('ws_company').toISOString()).toBe('2030-01-02T00:00:00.000Z');
    expect(clock.now('ws_other').toISOString()).toBe('2030-01-01T00:00:00.000Z');
  });
});
