/**
 * Translation deadlines: a huge tableau stops with a typed TimeoutError instead of running on,
 * and the in-process solver turns that into `unknown (timeout)` within its time limit.
 */
import { describe, expect, test } from 'vitest';
import { BddManager } from '../../src/automata/bdd.js';
import { TimeoutError, translateLtl, translateLtlSymbolic } from '../../src/automata/translate.js';
import { and, ap, F, G, implies, not } from '../../src/ltl/formula.js';
import { synthesize } from '../../src/synthesis/index.js';
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
    const result = synthesize(spec, { timeoutMs: 300, decompose: false, games: 'dual' });
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
