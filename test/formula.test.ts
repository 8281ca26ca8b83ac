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
