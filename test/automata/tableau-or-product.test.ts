/**
 * The automatic choice between the whole-conjunction tableau and the product of the conjuncts'
 * automata (translate.ts) is made on a work budget, not on the clock: the same formula gives the
 * same automaton on a fast or a slow machine and under any deadline that it meets.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BddManager } from '../../src/automata/bdd.js';
import { type SymbolicTgba, TimeoutError, translateLtlSymbolic } from '../../src/automata/translate.js';
import { and, ap, F, G, implies, not, X } from '../../src/ltl/formula.js';
import { toSpot } from '../../src/ltl/print.js';
import { nowMs } from '../../src/diagnostics/clock.js';

/** The negation of a request/response spec with a shared grant: conjuncts share `F g`. */
function sharedEventualities() {
  const reqs = Array.from({ length: 5 }, (_, i) => G(implies(ap(`r${i}`), F(ap('g')))));
  return and(...reqs, G(implies(ap('g'), X(ap('a')))), not(G(F(ap('a')))));
}

/**
 * Everything of an automaton but its BDD node numbers, guards as formulas. The state formulas
 * tell the constructions apart even where the sizes agree (a product state is a conjunction of
 * its components' states).
 */
function shape(a: SymbolicTgba) {
  return {
    states: a.stateCount,
    stateFormulas: a.stateFormulas.map(toSpot),
    initial: a.initial,
    accSets: a.accSets,
    edges: a.edges.map((es) => es.map((e) => `${e.to} ${a.bdd.toFormula(e.guard).id} ${e.marks.join(',')}`)),
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('tableau or product: a work budget, not a time slice', () => {
  it('the two constructions differ on this formula (so the choice is visible)', () => {
    const f = sharedEventualities();
    const tableau = translateLtlSymbolic(f, new BddManager(), { productOfConjuncts: false });
    const product = translateLtlSymbolic(f, new BddManager(), { productOfConjuncts: true });
    expect(tableau.stateCount).toBeLessThan(product.stateCount);
    expect(shape(translateLtlSymbolic(f, new BddManager()))).toEqual(shape(tableau));
  });

  it('a machine so slow that three quarters of the time are gone at the first poll gets the same automaton', () => {
    const f = sharedEventualities();
    const calm = shape(translateLtlSymbolic(f, new BddManager(), { deadline: nowMs() + 1e9 }));
    // The solver's clock (process.uptime, src/diagnostics/clock.ts) jumps 600 s at every reading after the first: still within the 1,000 s deadline,
    // but past a quarter of it (the old time slice chose the product here).
    const t0 = nowMs();
    let readings = 0;
    vi.spyOn(process, 'uptime').mockImplementation(() => (t0 + (readings++ === 0 ? 0 : 600_000)) / 1e3);
    const loaded = shape(translateLtlSymbolic(f, new BddManager(), { deadline: t0 + 1_000_000 }));
    vi.restoreAllMocks();
    expect(readings).toBeGreaterThan(1);
    expect(loaded).toEqual(calm);
  });

  it('running out of time throws; it never yields the other construction', () => {
    const f = sharedEventualities();
    const t0 = nowMs();
    let readings = 0;
    vi.spyOn(process, 'uptime').mockImplementation(() => (t0 + (readings++ === 0 ? 0 : 2_000_000)) / 1e3);
    expect(() => translateLtlSymbolic(f, new BddManager(), { deadline: t0 + 1_000_000 })).toThrow(TimeoutError);
  });

  it('past its work budget the tableau gives way to the product, whatever the deadline', () => {
    const f = sharedEventualities();
    const product = shape(translateLtlSymbolic(f, new BddManager(), { productOfConjuncts: true }));
    expect(shape(translateLtlSymbolic(f, new BddManager(), { tableauWork: 1000 }))).toEqual(product);
    expect(shape(translateLtlSymbolic(f, new BddManager(), { tableauWork: 1000, deadline: nowMs() + 600_000 }))).toEqual(product);
  });

  it('the default budget stops a costly tableau early (eighteen G(p → X q) assumptions, 2^18 terms a state)', () => {
    // The whole conjunction's tableau multiplies eighteen two-term expansions out in every state
    // (seconds); the product of the conjuncts' small automata takes milliseconds.
    const n = 18;
    const f = and(...Array.from({ length: n }, (_, i) => G(implies(ap(`p${i}`), X(ap(`q${i % 3}`))))), not(G(F(ap('q0')))));
    const product = shape(translateLtlSymbolic(f, new BddManager(), { productOfConjuncts: true }));
    expect(shape(translateLtlSymbolic(f, new BddManager()))).toEqual(product);
    // The same formula with three assumptions: its tableau is within the budget, and differs.
    const small = and(...Array.from({ length: 3 }, (_, i) => G(implies(ap(`p${i}`), X(ap(`q${i % 3}`))))), not(G(F(ap('q0')))));
    const smallTableau = shape(translateLtlSymbolic(small, new BddManager(), { productOfConjuncts: false }));
    expect(shape(translateLtlSymbolic(small, new BddManager()))).toEqual(smallTableau);
    expect(smallTableau).not.toEqual(shape(translateLtlSymbolic(small, new BddManager(), { productOfConjuncts: true })));
  });
});
