import { describe, expect, it } from 'vitest';
import { and, ap, F, FALSE, G, implies, not, or, TRUE, U, W, atoms, evalPropositional } from '../src/ltl/formula.js';
import { toSpot } from '../src/ltl/print.js';

describe('hash-consed formulas', () => {
  it('makes structurally equal formulas identical', () => {
    const a = ap('a');
    const b = ap('b');
    expect(and(a, b)).toBe(and(b, a));
    expect(U(a, b)).toBe(U(ap('a'), ap('b')));
    expect(U(a, b)).not.toBe(U(b, a));
  });
  it('folds constants and flattens', () => {
    const a = ap('a');
    const b = ap('b');
    expect(and(a, TRUE)).toBe(a);
    expect(or(a, TRUE)).toBe(TRUE);
    expect(and(a, not(a))).toBe(FALSE);
    expect(and(and(a, b), a)).toBe(and(a, b));
    expect(not(not(a))).toBe(a);
    expect(implies(FALSE, a)).toBe(TRUE);
    expect(W(a, FALSE)).toBe(G(a));
    expect(U(TRUE, a)).toBe(F(a));
  });
  it('collects atoms and evaluates propositional formulas', () => {
    const f = or(and(ap('x'), not(ap('y'))), ap('z'));
    expect([...atoms(f)].sort()).toEqual(['x', 'y', 'z']);
    expect(evalPropositional(f, (n) => n === 'x')).toBe(true);
    expect(evalPropositional(f, (n) => n === 'y')).toBe(false);
  });
  it('prints Spot syntax that keeps structure explicit', () => {
    expect(toSpot(G(F(ap('a'))))).toBe('G(F a)');
    expect(toSpot(implies(ap('a'), U(ap('b'), ap('c'))))).toBe('a -> (b U c)');
    expect(toSpot(ap('G1'))).toBe('"G1"');
  });
});

describe('large conjunctions and disjunctions', () => {
  // Past a few dozen operands the canonical order comes from the library sort and the complement
  // check from a set: the same formula, whatever the operand order, as for small ones.
  const xs = Array.from({ length: 2000 }, (_, i) => ap(`big${i}`));
  const shuffled = (seed: number) => {
    const out = [...xs];
    let s = seed;
    for (let i = out.length - 1; i > 0; i--) {
      s = (s * 1103515245 + 12345) % 2147483648;
      const j = s % (i + 1);
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  };

  it('is one canonical formula for every operand order, duplicates dropped, operands by rank', () => {
    const a = and(...xs);
    expect(and(...shuffled(7))).toBe(a);
    expect(and(...shuffled(8), ...shuffled(9))).toBe(a);
    // Built from two halves (each flattened in) it is the same node again.
    expect(and(and(...xs.slice(0, 1000)), and(...xs.slice(1000)))).toBe(a);
    if (a.kind !== 'and') throw new Error('expected a conjunction');
    expect(a.args).toHaveLength(2000);
    for (let i = 1; i < a.args.length; i++) expect(a.args[i - 1].rank - a.args[i].rank || a.args[i - 1].id - a.args[i].id).toBeLessThan(0);
  });

  it('folds x and not x among many operands', () => {
    expect(and(...xs, not(xs[1234]))).toBe(FALSE);
    expect(or(...shuffled(3), not(xs[5]))).toBe(TRUE);
    expect(and(...xs, not(ap('elsewhere')))).not.toBe(FALSE);
  });
});
