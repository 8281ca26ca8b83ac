/**
 * Automaton sizes for classic formulas, pinned to what Spot's ltl2tgba produces (states; TGBA
 * acceptance sets), so a regression in the reductions shows up here.
 */
import { describe, expect, it } from 'vitest';
import { degeneralize } from '../../src/automata/degeneralize.js';
import { translateLtl } from '../../src/automata/translate.js';
import { and, ap, F, type Formula, G, implies, not, U, X } from '../../src/ltl/formula.js';
import { toSpot } from '../../src/ltl/print.js';

const a = ap('a');
const b = ap('b');
const c = ap('c');

const cases: [Formula, number, number][] = [
  [G(F(a)), 1, 1],
  [F(G(a)), 2, 1],
  [U(a, b), 2, 1],
  [G(implies(a, F(b))), 2, 1],
  [implies(G(F(a)), G(F(b))), 3, 1],
  [not(G(implies(a, X(b)))), 3, 1],
  [and(G(F(a)), G(F(b)), G(F(c))), 1, 3],
  [G(implies(a, X(b))), 2, 0],
];

describe('translation sizes', () => {
  for (const [f, states, sets] of cases) {
    it(`${toSpot(f)}: ${states} states, ${sets} sets`, () => {
      const t = translateLtl(f);
      expect(t.stateCount).toBeLessThanOrEqual(states);
      expect(t.accSets).toBeLessThanOrEqual(sets);
      expect(t.aps).toEqual([...new Set(t.aps)].sort());
    });
  }
  it('degeneralizes G F a & G F b & G F c to a small Büchi automaton', () => {
    const ba = degeneralize(translateLtl(and(G(F(a)), G(F(b)), G(F(c)))));
    expect(ba.accSets).toBe(1);
    expect(ba.stateCount).toBeLessThanOrEqual(3);
  });
});
