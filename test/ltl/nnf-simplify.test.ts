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
  it('drops what purely eventual and purely universal operands make redundant', () => {
    const c = ap('c');
    // x U e ≡ e and F e ≡ e for e ≡ F e; x R u ≡ u and G u ≡ u for u ≡ G u.
    expect(simplify(U(a, or(F(b), G(F(c)))))).toBe(simplify(or(F(b), G(F(c)))));
    expect(simplify(U(a, X(F(b))))).toBe(X(F(b)));
    expect(simplify(U(and(a, b), M(F(b), F(c))))).toBe(simplify(M(F(b), F(c))));
    expect(simplify(R(U(a, b), or(G(b), G(c))))).toBe(simplify(or(G(b), G(c))));
    expect(simplify(R(a, X(G(b))))).toBe(X(G(b)));
    expect(simplify(R(a, W(G(b), G(c))))).toBe(simplify(W(G(b), G(c))));
    expect(simplify(F(and(F(a), G(F(b)))))).toBe(simplify(and(F(a), G(F(b)))));
    expect(simplify(G(or(G(a), F(G(b)))))).toBe(simplify(or(G(a), F(G(b)))));
    // Not in the classes: a proposition, a plain U, an R whose right side is not universal.
    expect(simplify(U(a, or(b, F(c))))).toBe(U(a, or(b, F(c))));
    expect(simplify(R(a, or(b, G(c))))).toBe(R(a, or(b, G(c))));
    expect(simplify(F(U(a, G(b))))).toBe(F(G(b)));
    expect(simplify(G(M(a, F(b))))).not.toBe(M(a, F(b)));
  });
  it('is equivalence-preserving where the class rules fire (random eventual and universal operands)', () => {
    const rand = prng(23);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
    const any = (d: number) => randomFormula(rand, NAMES, d);
    // Random members of each class, built by the closure rules the simplifier reads them by.
    const eventual = (d: number): Formula => {
      if (d <= 0) return F(any(1));
      const op = pick(['F', 'G', 'X', 'and', 'or', 'U', 'M'] as const);
      if (op === 'F') return F(any(d - 1));
      if (op === 'G') return G(eventual(d - 1));
      if (op === 'X') return X(eventual(d - 1));
      if (op === 'and') return and(eventual(d - 1), eventual(d - 1));
      if (op === 'or') return or(eventual(d - 1), eventual(d - 1));
      if (op === 'U') return U(any(d - 1), eventual(d - 1));
      return M(eventual(d - 1), eventual(d - 1));
    };
    const universal = (d: number): Formula => {
      if (d <= 0) return G(any(1));
      const op = pick(['G', 'F', 'X', 'and', 'or', 'R', 'W'] as const);
      if (op === 'G') return G(any(d - 1));
      if (op === 'F') return F(universal(d - 1));
      if (op === 'X') return X(universal(d - 1));
      if (op === 'and') return and(universal(d - 1), universal(d - 1));
      if (op === 'or') return or(universal(d - 1), universal(d - 1));
      if (op === 'R') return R(any(d - 1), universal(d - 1));
      return W(universal(d - 1), universal(d - 1));
    };
    let fired = 0;
    for (let k = 0; k < 600; k++) {
      const d = 1 + (k % 3);
      const universalSide = rand() < 0.5;
      const inner = universalSide ? universal(d) : eventual(d);
      const f = universalSide ? (rand() < 0.5 ? R(any(2), inner) : G(inner)) : rand() < 0.5 ? U(any(2), inner) : F(inner);
      const g = simplify(f);
      // The rule fired: f simplified is its operand simplified (the outer operator is gone).
      if (g === simplify(inner)) fired++;
      for (let j = 0; j < 16; j++) {
        const w = randomLasso(rand, NAMES);
        if (evaluateOnLasso(f, w) !== evaluateOnLasso(g, w)) throw new Error(`simplify(${toSpot(f)}) = ${toSpot(g)} differs on ${showLasso(w)}`);
      }
    }
    expect(fired, 'times the rule fired').toBeGreaterThan(590);
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
