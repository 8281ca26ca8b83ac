// verifyCounterstrategy (src/verify): the independent check that a counterstrategy defeats every
// controller, which the parity route's unrealizable verdicts rest on. It accepts the bounded
// engine's counterstrategies, and refuses ones that leave an output unanswered, play two inputs
// in one Mealy state, or allow a play that satisfies the spec.
import { describe, expect, it } from 'vitest';
import type { Counterstrategy } from '../../src/game/counterstrategy.js';
import { synthesize } from '../../src/synthesis/index.js';
import { verifyCounterstrategy } from '../../src/verify/index.js';
import { gameOf } from '../synthesis/helpers.js';

/** The controller must foresee the next input: unrealizable (Mealy). */
const foresee = gameOf({ ins: ['a'], outs: ['x'], guarantee: ['G(x <-> X a)'] });

function boundedCounterstrategy(): Counterstrategy {
  const r = synthesize(foresee, { route: 'bounded', timeoutMs: 10_000 });
  if (r.verdict !== 'unrealizable') throw new Error(`expected unrealizable, got ${r.verdict}`);
  return r.counterstrategy;
}

describe('verifyCounterstrategy', () => {
  it("accepts the bounded engine's counterstrategy", () => {
    expect(verifyCounterstrategy(foresee, boundedCounterstrategy()).ok).toBe(true);
  });

  it('refuses a counterstrategy with an output left unanswered', () => {
    const cs = boundedCounterstrategy();
    // Drop the answers to x = true in the initial state.
    const cut: Counterstrategy = { ...cs, transitions: cs.transitions.filter((t) => !(t.from === cs.initial && t.output.x !== false)) };
    const r = verifyCounterstrategy(foresee, cut);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.kind).toBe('incomplete');
  });

  it('refuses a Mealy counterstrategy that picks its input after seeing the output', () => {
    // a := x next step would be fine; a := x now is clairvoyant in a Mealy game.
    const cs: Counterstrategy = {
      inputs: ['a'],
      outputs: ['x'],
      stateCount: 1,
      initial: 0,
      seesCurrentOutputs: false,
      signalsEnforced: false,
      transitions: [
        { from: 0, input: { a: true }, output: { x: true }, to: 0 },
        { from: 0, input: { a: false }, output: { x: false }, to: 0 },
      ],
    };
    const r = verifyCounterstrategy(foresee, cs);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.kind).toBe('malformed');
  });

  it('refuses a counterstrategy that claims to see the outputs first in a Mealy game', () => {
    // The same clairvoyant play as above, declared as a Moore-style environment: the claim must
    // come from the spec's semantics, not from the counterstrategy.
    const cs: Counterstrategy = {
      inputs: ['a'],
      outputs: ['x'],
      stateCount: 1,
      initial: 0,
      seesCurrentOutputs: true,
      signalsEnforced: false,
      transitions: [
        { from: 0, input: { a: false }, output: { x: true }, to: 0 },
        { from: 0, input: { a: true }, output: { x: false }, to: 0 },
      ],
    };
    // G(x <-> a) is realizable under Mealy semantics; only a clairvoyant environment defeats it.
    const echo = gameOf({ ins: ['a'], outs: ['x'], guarantee: ['G(x <-> a)'] });
    const r = verifyCounterstrategy(echo, cs);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.kind).toBe('malformed');
  });

  it('refuses a counterstrategy that allows a winning play (the spec is realizable)', () => {
    // G(x <-> a) is realizable: the environment playing a = true forever loses to x = true.
    const echo = gameOf({ ins: ['a'], outs: ['x'], guarantee: ['G(x <-> a)'] });
    const cs: Counterstrategy = {
      inputs: ['a'],
      outputs: ['x'],
      stateCount: 1,
      initial: 0,
      seesCurrentOutputs: false,
      signalsEnforced: false,
      transitions: [{ from: 0, input: { a: true }, output: {}, to: 0 }],
    };
    const r = verifyCounterstrategy(echo, cs);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.kind).toBe('violation');
  });

  it('polls while it explores the product, and a poll that throws abandons the check', () => {
    const cs = boundedCounterstrategy();
    let polls = 0;
    expect(verifyCounterstrategy(foresee, cs, { poll: () => void polls++ }).ok).toBe(true);
    expect(polls).toBeGreaterThan(0);
    expect(() =>
      verifyCounterstrategy(foresee, cs, {
        poll: () => {
          throw new Error('time is up');
        },
      }),
    ).toThrow('time is up');
  });
});
