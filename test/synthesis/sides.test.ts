/**
 * The bounded engine's choice of which game plays next when an automaton did not fit its time
 * slice (sidesReady in src/synthesis/index.ts).
 */
import { describe, expect, it } from 'vitest';
import { sidesReady, type SidesState } from '../../src/synthesis/index.js';

const open: SidesState = { primalOpen: true, dualOpen: true, primalBlocked: false, dualBlocked: false, spentPrimal: 0, spentDual: 0 };

describe('sidesReady', () => {
  it('an unblocked open side is ready, a closed one is not', () => {
    expect(sidesReady(open)).toEqual({ primalReady: true, dualReady: true });
    expect(sidesReady({ ...open, dualOpen: false })).toEqual({ primalReady: true, dualReady: false });
    expect(sidesReady({ ...open, primalOpen: false, primalBlocked: true, spentDual: 9 })).toEqual({ primalReady: false, dualReady: true });
  });

  it('a blocked primal waits while the dual has spent less than it, then gets another slice', () => {
    // The primal automaton missed a 1.7 s slice; the dual's games have taken 1.4 s so far.
    expect(sidesReady({ ...open, primalBlocked: true, spentPrimal: 1700, spentDual: 1400 })).toEqual({ primalReady: false, dualReady: true });
    // Before this rule the primal stayed out until nothing else was left, whatever the dual spent.
    expect(sidesReady({ ...open, primalBlocked: true, spentPrimal: 1700, spentDual: 2800 })).toEqual({ primalReady: true, dualReady: true });
  });

  it('a blocked dual waits the same way for the primal', () => {
    expect(sidesReady({ ...open, dualBlocked: true, spentPrimal: 500, spentDual: 900 })).toEqual({ primalReady: true, dualReady: false });
    expect(sidesReady({ ...open, dualBlocked: true, spentPrimal: 900, spentDual: 900 })).toEqual({ primalReady: true, dualReady: true });
  });

  it('both blocked: neither is ready (the primal then gets the rest of the time)', () => {
    expect(sidesReady({ ...open, primalBlocked: true, dualBlocked: true, spentPrimal: 100, spentDual: 5000 })).toEqual({ primalReady: false, dualReady: false });
    expect(sidesReady({ ...open, primalBlocked: true, dualBlocked: true, spentPrimal: 5000, spentDual: 100 })).toEqual({ primalReady: false, dualReady: false });
  });
});
