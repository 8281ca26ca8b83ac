import { describe, expect, it } from 'vitest';
import { BddManager } from '../../src/automata/bdd.js';
import { evaluateOnLasso, type Lasso, type Valuation } from '../../src/automata/lasso.js';
import { satisfyingLasso, WITNESS_SHAPES } from '../../src/automata/lasso-witness.js';
import { translateLtl } from '../../src/automata/translate.js';
import { and, ap, F, G, iff, implies, not, U, X } from '../../src/ltl/formula.js';
import { toSpot } from '../../src/ltl/print.js';
import { prng, randomFormula, showLasso } from './random-ltl.js';

const bdd = () => new BddManager();
const a = ap('a');
const b = ap('b');

/** Every lasso of shape (m, p) over `names`. */
function allLassos(names: readonly string[], m: number, p: number): Lasso[] {
  const letters: Valuation[] = [];
  for (let bits = 0; bits < 1 << names.length; bits++) letters.push(new Set(names.filter((_, i) => (bits >> i) & 1)));
  let words: Valuation[][] = [[]];
  for (let i = 0; i < m + p; i++) words = words.flatMap((w) => letters.map((l) => [...w, l]));
  return words.map((w) => ({ prefix: w.slice(0, m), cycle: w.slice(m) }));
}

describe('satisfyingLasso', () => {
  it('finds words of each shape and proves them with the direct semantics', () => {
    // A constant word; a prefix before the cycle; a cycle of two letters.
    const constant = satisfyingLasso(and(G(F(a)), G(not(b))), bdd);
    expect(constant).toEqual({ prefix: [], cycle: [new Set(['a'])] });
    const prefixed = satisfyingLasso(and(not(a), X(G(a))), bdd);
    expect(prefixed?.prefix).toHaveLength(1);
    expect(prefixed?.cycle).toHaveLength(1);
    const alternating = satisfyingLasso(G(iff(a, X(not(a)))), bdd);
    expect(alternating?.cycle).toHaveLength(2);
    for (const [f, w] of [
      [and(not(a), X(G(a))), prefixed],
      [G(iff(a, X(not(a)))), alternating],
    ] as const)
      expect(evaluateOnLasso(f, w!)).toBe(true);
  });

  it('finds none for unsatisfiable formulas, nor beyond the shapes tried', () => {
    expect(satisfyingLasso(and(G(a), F(not(a))), bdd)).toBeUndefined();
    expect(satisfyingLasso(and(U(a, b), G(not(b))), bdd)).toBeUndefined();
    // Satisfiable, but only by words whose cycle has three letters.
    const onlyThree = and(G(implies(a, X(and(not(a), X(and(not(a), X(a))))))), G(F(a)));
    expect(satisfyingLasso(onlyThree, bdd)).toBeUndefined();
    expect(satisfyingLasso(onlyThree, bdd, { shapes: [[0, 3]] })).toBeDefined();
  });

  it('gives up (no witness) past its node budget', () => {
    expect(satisfyingLasso(and(G(F(a)), G(not(b))), bdd, { maxNodes: 1 })).toBeUndefined();
  });

  it('on random formulas: a witness exists exactly when some lasso of the shape satisfies the formula', () => {
    const rand = prng(2211);
    const names = ['a', 'b'];
    let found = 0;
    let empty = 0;
    for (let k = 0; k < 250; k++) {
      const f = randomFormula(rand, names, 2 + (k % 3));
      for (const shape of [...WITNESS_SHAPES, [1, 2] as const]) {
        const brute = allLassos(names, shape[0], shape[1]).some((w) => evaluateOnLasso(f, w));
        const witness = satisfyingLasso(f, bdd, { shapes: [shape] });
        if (witness !== undefined) found++;
        expect(witness !== undefined, `${toSpot(f)} with shape ${shape}${witness ? `: ${showLasso(witness)}` : ''}`).toBe(brute);
      }
      // And never for a formula whose automaton is empty.
      const automaton = translateLtl(f);
      if (automaton.edges.every((out) => out.length === 0)) {
        empty++;
        expect(satisfyingLasso(f, bdd)).toBeUndefined();
      }
    }
    expect(found).toBeGreaterThan(200);
    expect(empty).toBeGreaterThan(5);
  });
});
