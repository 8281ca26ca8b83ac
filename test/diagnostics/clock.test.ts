/**
 * The solver's clock (src/diagnostics/clock.ts): monotonic, in milliseconds, and on nearly the
 * same origin as `performance.now()`, so a deadline computed from either means the same.
 */
import { describe, expect, it } from 'vitest';
import { nowMs } from '../../src/diagnostics/clock.js';

describe('nowMs', () => {
  it('agrees with performance.now() to within a few milliseconds', () => {
    for (let i = 0; i < 5; i++) {
      const before = performance.now();
      const ours = nowMs();
      const after = performance.now();
      // Node's start and its environment's differ by a millisecond or two (the module comment).
      expect(ours).toBeGreaterThan(before - 10);
      expect(ours).toBeLessThan(after + 10);
    }
  });

  it('never runs backwards and measures elapsed time in milliseconds', () => {
    const start = nowMs();
    const started = Date.now();
    let last = start;
    while (Date.now() - started < 30) {
      const t = nowMs();
      expect(t).toBeGreaterThanOrEqual(last);
      last = t;
    }
    // 30 ms of wall time by Date.now(), give or take its own millisecond steps.
    expect(last - start).toBeGreaterThan(25);
    expect(last - start).toBeLessThan(1000);
  });
});
