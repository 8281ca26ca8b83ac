/**
 * Translation deadlines: a huge tableau stops with a typed TimeoutError instead of running on,
 * and the in-process solver turns that into `unknown (timeout)` within its time limit.
 */
import { describe, expect, test } from 'vitest';
import { BddManager } from '../../src/automata/bdd.js';
import { simplify } from '../../src/automata/simplify.js';
import { TimeoutError, translateLtl, translateLtlSymbolic } from '../../src/automata/translate.js';
import { and, ap, F, G, iff, implies, not, or, X } from '../../src/ltl/formula.js';
import { checkRealizability, synthesize } from '../../src/synthesis/index.js';
import { gameOf } from '../synthesis/helpers.js';

// 2^n states: every subset of pending requests.
const requests = (n: number) => and(...Array.from({ length: n }, (_, i) => G(implies(ap(`r${i}`), F(ap(`g${i}`))))));

describe('translateLtl deadline', () => {
  test('a past deadline stops a large translation with TimeoutError', () => {
    const started = performance.now();
    let caught: unknown;
    try {
      translateLtl(requests(14), { deadline: performance.now() + 30 });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(TimeoutError);
    expect((caught as TimeoutError).reason).toBe('deadline');
    expect(performance.now() - started).toBeLessThan(3000);
  });

  // A `Date.now()` deadline, read as a `performance.now()` one, lay decades ahead: the same
  // translation ran to completion (2^14 states) instead of stopping.
  test('a Date.now() deadline is honoured too', () => {
    const started = performance.now();
    expect(() => translateLtl(requests(14), { deadline: Date.now() + 30 })).toThrow(TimeoutError);
    expect(performance.now() - started).toBeLessThan(3000);
  });

  test('the state cap throws a size TimeoutError; small formulas are unaffected', () => {
    expect(() => translateLtl(requests(6), { maxStates: 10 })).toThrow(TimeoutError);
    const small = translateLtl(requests(1), { deadline: performance.now() + 10_000, maxStates: 10 });
    expect(small.stateCount).toBe(2);
  });

  test('synthesize honours its time limit inside the translation', () => {
    const n = 14;
    const spec = gameOf({
      ins: Array.from({ length: n }, (_, i) => `r${i}`),
      outs: Array.from({ length: n }, (_, i) => `g${i}`),
      guarantee: [requests(n)],
    });
    const started = performance.now();
    // As written: with every request fixed to true (it occurs only negatively) the automaton is small.
    const result = synthesize(spec, { timeoutMs: 300, decompose: false, games: 'dual', polarity: false });
    expect(result.verdict).toBe('unknown');
    if (result.verdict === 'unknown') expect(result.reason).toBe('timeout');
    expect(performance.now() - started).toBeLessThan(4000);
  });
});

describe('translateLtlSymbolic deadline in products of conjuncts', () => {
  // φ ∧ ¬ψ with φ = ∧ G F x_i ∧ F a, ψ = ∧ G F x_i ∧ G a: the conjunct-by-conjunct product of
  // generalized Büchi automata, whose edge loop and post-processing used to run unpolled
  // (k = 14: 6 s against a 0.5 s deadline; k = 20: minutes).
  test('stops within its deadline', () => {
    const k = 16;
    const xs = Array.from({ length: k }, (_, i) => G(F(ap(`x${i}`))));
    const phi = and(...xs, F(ap('a')));
    const psi = and(...xs, G(ap('a')));
    const started = performance.now();
    let caught: unknown;
    try {
      translateLtlSymbolic(and(phi, not(psi)), new BddManager(), { deadline: performance.now() + 500, simplify: false });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(TimeoutError);
    expect(performance.now() - started).toBeLessThan(3000);
  });
});

describe('translateLtlSymbolic deadline while simplifying', () => {
  /** Runs `run`, which must throw TimeoutError; returns the milliseconds it took. */
  const timeToThrow = (run: () => void): number => {
    const started = performance.now();
    let caught: unknown;
    try {
      run();
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(TimeoutError);
    return performance.now() - started;
  };

  // G(∧ aᵢ ↔ bᵢ) ∧ X b₀ with the simplifier's (process-wide, first-come) variable order a… then
  // b…: the implication test of the invariant against b₀ builds its BDD, 2^n nodes in that order.
  // Simplification ran before the first poll: n = 22 took 44 s against a 200 ms deadline.
  test('an exponential implication test stops at the deadline', () => {
    const n = 22;
    const a = (i: number) => ap(`dl_sa${i}`);
    const b = (i: number) => ap(`dl_sb${i}`);
    // Registers a₀ … aₙ₋₁ first in the simplifier's BDD (small: one disjunction).
    simplify(and(G(or(...Array.from({ length: n }, (_, i) => a(i)))), X(a(0))));
    const f = and(G(and(...Array.from({ length: n }, (_, i) => iff(a(i), b(i))))), X(b(0)));
    expect(timeToThrow(() => translateLtlSymbolic(f, new BddManager(), { deadline: performance.now() + 200 }))).toBeLessThan(3000);
  });

  // The pairwise pruning of one junction of 5,000 invariants is 12.5 million implication tests,
  // each cheap and none polled: 80 s against a 200 ms deadline.
  test('a junction of thousands of conjuncts stops at the deadline', () => {
    const parts = Array.from({ length: 5000 }, (_, k) =>
      G(implies(and(ap(`dl_wi${k % 30}`), not(ap(`dl_wi${Math.floor(k / 30) % 30}`))), or(ap(`dl_wo${Math.floor(k / 900)}`), X(ap(`dl_wo${Math.floor(k / 900) + 1}`))))),
    );
    expect(timeToThrow(() => translateLtlSymbolic(not(and(...parts)), new BddManager(), { deadline: performance.now() + 200 }))).toBeLessThan(3000);
  });
});

describe('the solver on thousands of guarantees', () => {
  // 5,000 invariants `G(iₐ ∧ ¬i_b → o_c ∨ X o_c+1)`: the parity route's initial state (a chain of
  // 4,833 obligations) was built by conjoining from the top (n²/2 BDD nodes, unpolled) and then
  // walked recursively (stack overflow: `unknown (formula nested too deeply)` after 3 to 8 s,
  // and `tslc check --timeout 10` ran into its hard limit at 12 s).
  test('answers within its time limit, and never for lack of stack', () => {
    const ins = Array.from({ length: 30 }, (_, i) => `i${i}`);
    const outs = Array.from({ length: 10 }, (_, i) => `o${i}`);
    const guarantee = Array.from({ length: 5000 }, (_, k) =>
      G(implies(and(ap(`i${k % 30}`), not(ap(`i${Math.floor(k / 30) % 30}`))), or(ap(`o${Math.floor(k / 900) % 10}`), X(ap(`o${(Math.floor(k / 900) + 1) % 10}`))))),
    );
    const spec = gameOf({ ins, outs, guarantee });
    const started = performance.now();
    const result = checkRealizability(spec, { timeoutMs: 300 });
    expect(performance.now() - started).toBeLessThan(3000);
    // Realizable (each o_c can be kept true): any verdict but that is a timeout.
    if (result.verdict === 'unknown') expect(result.reason).toBe('timeout');
    else expect(result.verdict).toBe('realizable');
  });
});
