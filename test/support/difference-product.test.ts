/**
 * differenceProduct keeps the meaning of x ∧ ¬y (checked on random spec-shaped pairs with src's
 * evaluator), cancels what the two sides share, and mergeLassos combines lassos over disjoint
 * atoms.
 */
import { describe, expect, it } from 'vitest';
import { evaluateOnLasso } from '../../src/automata/lasso.js';
import * as ltl from '../../src/ltl/formula.js';
import { prng, randomFormula, randomLasso } from '../automata/random-ltl.js';
import { mergeLassos } from './accepting-lasso.js';
import { differenceProduct } from './difference-product.js';
import { evaluateLasso } from './lasso-eval.js';
import { parseSyfcoLtl } from './ltl-tree.js';

const [a, b, c, d, e] = ['a', 'b', 'c', 'd', 'e'].map(ltl.ap);
const productOf = (x: ltl.Formula, y: ltl.Formula) => {
  const p = differenceProduct(x, y);
  return p.empty ? ltl.FALSE : ltl.and(...p.groups.flatMap((g) => g.conjuncts));
};

describe('differenceProduct', () => {
  // A spec S ∧ (A → G) and the same with one assumption e dropped.
  const S = ltl.G(ltl.implies(a, ltl.F(b)));
  const A = [ltl.G(ltl.F(c)), ltl.G(ltl.implies(c, ltl.X(d)))];
  const G = ltl.G(ltl.F(ltl.and(b, d)));
  const full = ltl.and(S, ltl.implies(ltl.and(...A, ltl.G(e)), G));
  const weaker = ltl.and(S, ltl.implies(ltl.and(...A), G));

  it('is empty when the difference cancels (fewer assumptions is a stronger spec)', () => {
    expect(differenceProduct(weaker, full)).toEqual({ empty: true });
  });

  it('leaves only the dropped assumption negated, as the seed of its group', () => {
    const p = differenceProduct(full, weaker);
    expect(p.empty).toBe(false);
    if (p.empty) return;
    const conjuncts = p.groups.flatMap((g) => g.conjuncts);
    expect(conjuncts).toContain(ltl.not(ltl.G(e)));
    expect(conjuncts).toContain(ltl.not(G));
    expect(conjuncts).not.toContain(ltl.not(weaker));
    const seeds = p.groups.flatMap((g) => g.seeds);
    expect(seeds).toEqual(expect.arrayContaining([ltl.not(ltl.G(e)), ltl.not(G)]));
    // Groups share no atoms.
    const atomSets = p.groups.map((g) => ltl.atoms(ltl.and(...g.conjuncts)));
    for (let i = 0; i < atomSets.length; i++) for (let j = i + 1; j < atomSets.length; j++) expect([...atomSets[i]].filter((n) => atomSets[j].has(n))).toEqual([]);
  });

  it('finds contradictions between a conjunct and its negation', () => {
    expect(differenceProduct(ltl.and(a, ltl.G(b)), ltl.G(b))).toEqual({ empty: true });
    expect(differenceProduct(ltl.and(ltl.implies(a, b), a), b)).toEqual({ empty: true });
    expect(differenceProduct(ltl.and(ltl.implies(a, b), ltl.not(b)), ltl.not(a))).toEqual({ empty: true });
  });

  it('keeps the meaning of x ∧ ¬y on 3,000 random spec-shaped pairs', () => {
    const rand = prng(31337);
    const names = ['a', 'b', 'c', 'd'];
    const pool = () => Array.from({ length: 6 }, () => randomFormula(rand, names, 2));
    const pick = (xs: readonly ltl.Formula[]) => xs.filter(() => rand() < 0.5);
    const wrong: string[] = [];
    let empties = 0;
    for (let k = 0; k < 3000; k++) {
      const [shared, assumptions, guarantees] = [pool(), pool(), pool()];
      const spec = () => ltl.and(...pick(shared), ltl.implies(ltl.and(...pick(assumptions)), ltl.and(...pick(guarantees))));
      const [x, y] = k % 3 === 0 ? [randomFormula(rand, names, 3), randomFormula(rand, names, 3)] : [spec(), spec()];
      const p = productOf(x, y);
      if (p === ltl.FALSE) empties++;
      const expected = ltl.and(x, ltl.not(y));
      for (let j = 0; j < 8; j++) {
        const w = randomLasso(rand, names);
        if (evaluateOnLasso(p, w) !== evaluateOnLasso(expected, w)) wrong.push(`${k}`);
      }
    }
    expect(wrong).toEqual([]);
    // The rules did fire: many products were found empty without any automaton.
    expect(empties).toBeGreaterThan(200);
  });
});

describe('mergeLassos', () => {
  it('combines lassos over disjoint atoms into one that satisfies each formula', () => {
    const left = { prefix: [['a'], []], cycle: [['a'], [], []] };
    const right = { prefix: [], cycle: [['b'], []] };
    const merged = mergeLassos([left, right])!;
    expect(merged.prefix).toHaveLength(2);
    expect(merged.cycle).toHaveLength(6);
    for (const [text, expected] of [
      ['(a && (X (! a)))', true],
      ['(G (F (a && (X (! a)))))', true],
      ['(G (b -> (X (! b))))', true],
      ['(G (F (b && a)))', true],
      ['(X (X (G (F ((! a) && (! b))))))', true],
      ['(F (G a))', false],
      ['(b && (X b))', false],
    ] as const)
      expect(evaluateLasso(parseSyfcoLtl(text), merged)).toBe(expected);
  });
  it('gives up past its size limit', () => {
    const cyc = (n: number) => ({ prefix: [], cycle: Array.from({ length: n }, () => [] as string[]) });
    expect(mergeLassos([cyc(97), cyc(89), cyc(83)], 10_000)).toBeNull();
    expect(mergeLassos([cyc(4), cyc(6)])!.cycle).toHaveLength(12);
  });
});
