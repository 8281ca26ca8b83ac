import { describe, expect, it } from 'vitest';
import { and, ap, F, G, implies, not, or, R, U, W, X } from '../../src/ltl/formula.js';
import { classify } from '../../src/ltl/fragments.js';

const a = ap('a');
const b = ap('b');
const c = ap('c');

describe('classify', () => {
  it('recognises safety formulas', () => {
    expect(classify(G(implies(a, X(b)))).safety).toBe(true);
    expect(classify(W(a, b)).safety).toBe(true);
    expect(classify(R(a, b)).safety).toBe(true);
    // ¬F a is G ¬a: safety after NNF.
    expect(classify(not(F(a))).safety).toBe(true);
    expect(classify(G(F(a))).safety).toBe(false);
    expect(classify(U(a, b)).safety).toBe(false);
  });
  it('recognises co-safety formulas', () => {
    expect(classify(F(a)).cosafety).toBe(true);
    expect(classify(U(a, and(b, X(c)))).cosafety).toBe(true);
    expect(classify(not(G(a))).cosafety).toBe(true);
    expect(classify(G(a)).cosafety).toBe(false);
    expect(classify(F(G(a))).cosafety).toBe(false);
  });
  it('recognises obligations and rejects recurrence/persistence', () => {
    expect(classify(or(G(a), F(b))).obligation).toBe(true);
    expect(classify(and(G(a), F(b))).obligation).toBe(true);
    expect(classify(X(or(G(a), F(b)))).obligation).toBe(true);
    expect(classify(G(F(a))).obligation).toBe(false);
    expect(classify(F(G(a))).obligation).toBe(false);
    expect(classify(a).obligation && classify(a).safety && classify(a).cosafety).toBe(true);
  });
  it('recognises the GR(1) shape', () => {
    const assumptions = and(not(a), G(implies(a, X(not(a)))), G(F(a)));
    const guarantees = and(not(b), G(implies(a, or(b, X(b)))), G(F(b)));
    expect(classify(implies(assumptions, guarantees)).gr1).toBe(true);
    expect(classify(guarantees).gr1).toBe(true);
    // specFormula's shape: initially → (preset ∧ (assumptions → guarantees)).
    expect(classify(implies(c, and(G(not(and(b, c))), implies(assumptions, guarantees)))).gr1).toBe(true);
    // Not GR(1): nested X, F inside G of a step, U, persistence.
    expect(classify(G(implies(a, X(X(b))))).gr1).toBe(false);
    expect(classify(G(implies(a, F(b)))).gr1).toBe(false);
    expect(classify(U(a, b)).gr1).toBe(false);
    expect(classify(implies(F(G(a)), G(F(b)))).gr1).toBe(false);
  });
});
