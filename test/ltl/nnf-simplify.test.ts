import { describe, expect, it } from 'vitest';
import { evaluateOnLasso } from '../../src/automata/lasso.js';
import { and, ap, F, FALSE, type Formula, G, iff, implies, M, not, or, R, size, TRUE, U, W, X } from '../../src/ltl/formula.js';
import { isNnf, toNnf } from '../../src/ltl/nnf.js';
import { toSpot } from '../../src/ltl/print.js';
import { simplify, syntacticImplies } from '../../src/automata/simplify.js';
import { prng, randomFormula, randomLasso, showLasso } from '../automata/random-ltl.js';

const a = ap('a');
const b = ap('b');
const NAMES = ['a', 'b', 'c'];

function sameOnRandomLassos(seed: number, count: number, transform: (f: Formula) => Formula, what: string): void {
  const rand = prng(seed);
  for (let k = 0; k < count; k++) {
    const f = randomFormula(rand, NAMES, 1 + (k % 5));
    const g = transform(f);
    for (let j = 0; j < 12; j++) {
      const w = randomLasso(rand, NAMES);
      if (evaluateOnLasso(f, w) !== evaluateOnLasso(g, w))
        throw new Error(`${what}(${toSpot(f)}) = ${toSpot(g)} differs on ${showLasso(w)}`);
    }
  }
}

describe('toNnf', () => {
  it('produces NNF equivalent to the input on 800 random formulas', () => {
    sameOnRandomLassos(11, 800, toNnf, 'toNnf');
    const rand = prng(12);
    for (let k = 0; k < 200; k++) expect(isNnf(toNnf(randomFormula(rand, NAMES, 4)))).toBe(true);
  });
  it('uses the right duals', () => {
    expect(toNnf(not(U(a, b)))).toBe(R(not(a), not(b)));
    expect(toNnf(not(W(a, b)))).toBe(M(not(a), not(b)));
    expect(toNnf(not(M(a, b)))).toBe(W(not(a), not(b)));
    expect(toNnf(not(G(F(a))))).toBe(F(G(not(a))));
    expect(toNnf(implies(a, X(b)))).toBe(or(not(a), X(b)));
    expect(isNnf(toNnf(iff(a, F(b))))).toBe(true);
  });
});

describe('simplify', () => {
  it('is equivalence-preserving on 800 random formulas and returns NNF', () => {
    sameOnRandomLassos(13, 800, simplify, 'simplify');
    const rand = prng(14);
    for (let k = 0; k < 200; k++) expect(isNnf(simplify(randomFormula(rand, NAMES, 4)))).toBe(true);
  });
  it('applies the classic rewrites', () => {
    expect(simplify(F(G(F(a))))).toBe(G(F(a)));
    expect(simplify(G(F(G(a))))).toBe(F(G(a)));
    expect(simplify(F(U(a, b)))).toBe(F(b));
    expect(simplify(G(R(a, b)))).toBe(G(b));
    expect(simplify(and(G(a), G(b)))).toBe(G(and(a, b)));
    expect(simplify(or(F(a), F(b)))).toBe(F(or(a, b)));
    expect(simplify(and(a, G(a)))).toBe(G(a));
    expect(simplify(or(a, F(a)))).toBe(F(a));
    expect(simplify(and(G(a), F(not(a))))).toBe(FALSE);
    expect(simplify(or(G(a), F(not(a))))).toBe(TRUE);
    expect(simplify(U(a, F(b)))).toBe(F(b));
  });
  it('without pairwise pruning keeps every operand of a junction but still rewrites locally', () => {
    const local = (f: Formula) => simplify(f, { pairwise: false });
    sameOnRandomLassos(17, 800, local, 'simplify without pairwise pruning');
    expect(local(and(a, G(a)))).toBe(and(a, G(a)));
    expect(local(and(G(a), F(not(a))))).toBe(and(G(a), F(not(a))));
    expect(local(and(G(a), G(b)))).toBe(G(and(a, b)));
    expect(local(F(G(F(a))))).toBe(G(F(a)));
    // The two modes keep separate memos: the full one still prunes afterwards.
    expect(simplify(and(a, G(a)))).toBe(G(a));
  });
  it('never grows formulas much', () => {
    const rand = prng(15);
    for (let k = 0; k < 300; k++) {
      const f = toNnf(randomFormula(rand, NAMES, 4));
      expect(size(simplify(f))).toBeLessThanOrEqual(size(f) + 2);
    }
  });
});

describe('syntacticImplies', () => {
  it('proves textbook implications', () => {
    expect(syntacticImplies(G(a), a)).toBe(true);
    expect(syntacticImplies(G(a), F(a))).toBe(true);
    expect(syntacticImplies(a, F(a))).toBe(true);
    expect(syntacticImplies(U(a, b), F(b))).toBe(true);
    expect(syntacticImplies(G(a), W(a, b))).toBe(true);
    expect(syntacticImplies(and(a, b), or(a, ap('c')))).toBe(true);
  });
  it('does not claim false implications', () => {
    expect(syntacticImplies(F(a), G(a))).toBe(false);
    expect(syntacticImplies(a, G(a))).toBe(false);
    expect(syntacticImplies(F(b), U(a, b))).toBe(false);
    expect(syntacticImplies(or(a, b), a)).toBe(false);
  });
  it('across disjoint propositions, proves exactly the Boolean contradictions and tautologies', () => {
    expect(syntacticImplies(a, or(b, not(b)))).toBe(true);
    expect(syntacticImplies(and(b, not(b)), a)).toBe(true);
    expect(syntacticImplies(G(a), F(b))).toBe(false);
    expect(syntacticImplies(a, b)).toBe(false);
    expect(syntacticImplies(G(a), or(b, not(b)))).toBe(true);
  });
  it('is sound on random pairs (checked on random lassos)', () => {
    const rand = prng(16);
    let proven = 0;
    for (let k = 0; k < 1500; k++) {
      const d = toNnf(randomFormula(rand, ['a', 'b'], 2 + (k % 2)));
      const c = toNnf(randomFormula(rand, ['a', 'b'], 2));
      if (!syntacticImplies(d, c)) continue;
      proven++;
      for (let j = 0; j < 12; j++) {
        const w = randomLasso(rand, ['a', 'b']);
        if (evaluateOnLasso(d, w) && !evaluateOnLasso(c, w)) throw new Error(`${toSpot(d)} ⇒ ${toSpot(c)} fails on ${showLasso(w)}`);
      }
    }
    expect(proven).toBeGreaterThan(50);
  });
});
