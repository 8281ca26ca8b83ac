/**
 * Guards cross from the translation's BDD package to the solver's, whose variable order differs
 * (first mover first). Reduced ordered BDDs are canonical, so the copy must be exactly the node
 * the solver's package builds from the same formula itself.
 */
import { describe, expect, it } from 'vitest';
import { BddManager } from '../../src/automata/bdd.js';
import { type Formula, and, ap, iff, not, or, xor } from '../../src/ltl/formula.js';
import { Bdd } from '../../src/synthesis/bdd.js';
import { prng } from '../automata/random-ltl.js';

function randomPropositional(rand: () => number, names: readonly string[], depth: number): Formula {
  if (depth === 0 || rand() < 0.15) {
    const a = ap(names[Math.floor(rand() * names.length)]);
    return rand() < 0.4 ? not(a) : a;
  }
  const sub = () => randomPropositional(rand, names, depth - 1);
  const r = rand();
  if (r < 0.3) return and(sub(), sub(), sub());
  if (r < 0.6) return or(sub(), sub());
  if (r < 0.8) return iff(sub(), sub());
  return xor(sub(), sub());
}

describe('Bdd.fromForeign', () => {
  const names = ['i0', 'o0', 'i1', 'o1', 'i2', 'o2', 'i3', 'o3', 'i4'];
  // The translation meets variables interleaved; the solver wants inputs first, outputs reversed.
  const solverOrder = [...names.filter((n) => n.startsWith('i')), ...names.filter((n) => n.startsWith('o')).reverse()];

  it('copies a diagram into another variable order as the canonical diagram of the same function', () => {
    const rand = prng(20261201);
    for (let k = 0; k < 400; k++) {
      const source = new BddManager();
      // A random creation order: the source's variable order is whatever the formulas met first.
      for (const n of [...names].sort(() => rand() - 0.5)) source.variable(n);
      const solver = new Bdd(solverOrder);
      const f = randomPropositional(rand, names, 4);
      const g = randomPropositional(rand, names, 3);
      // Two diagrams through one memo, as a move table copies many guards of one automaton.
      expect(solver.fromForeign(source, source.fromFormula(f))).toBe(solver.fromFormula(f));
      expect(solver.fromForeign(source, source.fromFormula(g))).toBe(solver.fromFormula(g));
      expect(solver.fromForeign(source, source.fromFormula(and(f, g)))).toBe(solver.and(solver.fromFormula(f), solver.fromFormula(g)));
    }
  });

  it('refuses a proposition the solver does not know', () => {
    const source = new BddManager();
    const solver = new Bdd(['a']);
    expect(() => solver.fromForeign(source, source.fromFormula(and(ap('a'), ap('stray'))))).toThrow(/stray/);
  });
});
