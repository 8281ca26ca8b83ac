/**
 * Formula progression (src/automata/progression.ts) on states that owe thousands of
 * obligations: the factors of such a state are found in a loop, not by recursion per node.
 */
import { describe, expect, it } from 'vitest';
import { BDD_FALSE, BDD_TRUE, BddManager } from '../../src/automata/bdd.js';
import { Progression } from '../../src/automata/progression.js';
import { and, ap, G, implies, X } from '../../src/ltl/formula.js';
import { toNnf } from '../../src/ltl/nnf.js';

describe('Progression', () => {
  // The state of n invariants is a chain of n obligation nodes. `required` built a new set of
  // everything below at every node (quadratic) and recursed once per node, as did `setTrue`:
  // a stack overflow past a few thousand (5,000 guarantees: `unknown (formula nested too deeply)`).
  it('factors the state of 5,000 invariants, one factor each', () => {
    const n = 5_000;
    const letters = Array.from({ length: n + 1 }, (_, i) => `p${i}`);
    const progression = new Progression(new BddManager(), letters);
    const invariants = Array.from({ length: n }, (_, i) => G(implies(ap(`p${i}`), X(ap(`p${i + 1}`)))));
    const state = progression.state(toNnf(and(...invariants)));
    const factors = progression.factors(state);
    expect(factors).toHaveLength(n);
    // No letter set: every invariant is owed again, nothing else.
    expect(progression.step(state, () => false)).toBe(state);
    expect(new Set(factors).size).toBe(n);
    expect(factors.every((f) => f !== BDD_TRUE && f !== BDD_FALSE)).toBe(true);
  });
});
