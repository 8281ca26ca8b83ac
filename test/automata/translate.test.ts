import { describe, expect, it } from 'vitest';
import { evaluateOnLasso, tgbaAcceptsLasso } from '../../src/automata/lasso.js';
import { translateConjunctsOfNegation, translateLtl } from '../../src/automata/translate.js';
import { degeneralize } from '../../src/automata/degeneralize.js';
import { and, F, G } from '../../src/ltl/formula.js';
import { toSpot } from '../../src/ltl/print.js';
import { prng, randomFormula, randomLasso, showLasso } from './random-ltl.js';

const NAMES = ['a', 'b', 'c'];

function checkAgreement(seed: number, count: number, lassosPer: number, simplify: boolean): void {
  const rand = prng(seed);
  for (let k = 0; k < count; k++) {
    const names = NAMES.slice(0, 2 + (k % 2));
    const f = randomFormula(rand, names, 1 + (k % 4));
    const aut = translateLtl(f, { simplify });
    for (let j = 0; j < lassosPer; j++) {
      const w = randomLasso(rand, names);
      const expected = evaluateOnLasso(f, w);
      const got = tgbaAcceptsLasso(aut, w);
      if (got !== expected) {
        throw new Error(`translateLtl(${toSpot(f)}) ${got ? 'accepts' : 'rejects'} ${showLasso(w)}; semantics says ${expected}`);
      }
    }
  }
}

describe('translateLtl agrees with the LTL semantics on random lassos', () => {
  it('600 random formulas (simplified translation)', () => {
    expect(() => checkAgreement(Number(process.env.H3SEED ?? 20240611), Number(process.env.H3N ?? 600), 16, true)).not.toThrow();
  });
  it('300 random formulas (unsimplified translation)', () => {
    expect(() => checkAgreement(777, 300, 16, false)).not.toThrow();
  });
});

describe('degeneralize', () => {
  it('keeps the language and leaves at most one acceptance set', () => {
    const rand = prng(4242);
    let generalized = 0;
    for (let k = 0; k < 250; k++) {
      // Every other formula is a conjunction of recurrences, so several acceptance sets are common.
      const f =
        k % 2 === 0
          ? and(G(F(randomFormula(rand, NAMES, 1))), G(F(randomFormula(rand, NAMES, 1))), randomFormula(rand, NAMES, 2))
          : randomFormula(rand, NAMES, 2 + (k % 3));
      const aut = translateLtl(f);
      const ba = degeneralize(aut);
      expect(ba.accSets).toBeLessThanOrEqual(1);
      if (aut.accSets > 1) generalized++;
      for (let j = 0; j < 12; j++) {
        const w = randomLasso(rand, NAMES);
        const expected = evaluateOnLasso(f, w);
        if (tgbaAcceptsLasso(ba, w) !== expected) throw new Error(`degeneralize(${toSpot(f)}) wrong on ${showLasso(w)}`);
      }
    }
    // The test is only meaningful if some inputs really had several acceptance sets.
    expect(generalized).toBeGreaterThan(20);
  });
});

describe('translateConjunctsOfNegation', () => {
  it('gives automata whose union accepts exactly the words violating some part', () => {
    const rand = prng(555);
    for (let k = 0; k < 60; k++) {
      const parts = [randomFormula(rand, NAMES, 3), randomFormula(rand, NAMES, 3), randomFormula(rand, NAMES, 2)];
      const auts = translateConjunctsOfNegation(parts);
      expect(auts).toHaveLength(parts.length);
      for (let j = 0; j < 15; j++) {
        const w = randomLasso(rand, NAMES);
        const violated = parts.some((p) => !evaluateOnLasso(p, w));
        expect(auts.some((a) => tgbaAcceptsLasso(a, w))).toBe(violated);
      }
    }
  });
});

describe('conjunctions translated as products of their conjuncts', () => {
  it('accept exactly the lassos satisfying every conjunct, and agree with the whole-formula tableau', () => {
    const rand = prng(9090);
    let products = 0;
    for (let k = 0; k < 200; k++) {
      // Conjunctions like specs' assumption lists: several G/F-shaped parts with their own acceptance.
      const parts = [
        G(randomFormula(rand, NAMES, 2)),
        G(F(randomFormula(rand, NAMES, 1))),
        randomFormula(rand, NAMES, 2 + (k % 3)),
        ...(k % 2 === 0 ? [F(G(randomFormula(rand, NAMES, 1)))] : []),
      ];
      const f = and(...parts);
      if (f.kind === 'and') products++;
      const product = translateLtl(f, { productOfConjuncts: true });
      const tableau = translateLtl(f, { productOfConjuncts: false });
      for (let j = 0; j < 16; j++) {
        const w = randomLasso(rand, NAMES);
        const expected = evaluateOnLasso(f, w);
        if (tgbaAcceptsLasso(product, w) !== expected)
          throw new Error(`product of ${toSpot(f)} ${expected ? 'rejects' : 'accepts'} ${showLasso(w)}`);
        expect(tgbaAcceptsLasso(tableau, w)).toBe(expected);
      }
    }
    // Most formulas must really reach the product construction for the test to mean anything.
    expect(products).toBeGreaterThan(150);
  });
});

describe('translateLtl without the direct-simulation reduction (simulation: false)', () => {
  // The bounded engine translates this way (solveGame): its automata must keep their language,
  // and the option must actually leave the simulation reduction out.
  it('accepts the same lassos as the semantics, is never smaller, and is larger on some formulas', () => {
    const rand = prng(5);
    let larger = 0;
    for (let k = 0; k < 400; k++) {
      const names = NAMES.slice(0, 2 + (k % 2));
      const f = randomFormula(rand, names, 1 + (k % 4));
      const reduced = translateLtl(f);
      const unreduced = translateLtl(f, { simulation: false });
      expect(unreduced.stateCount, toSpot(f)).toBeGreaterThanOrEqual(reduced.stateCount);
      if (unreduced.stateCount > reduced.stateCount) larger++;
      for (let j = 0; j < 16; j++) {
        const w = randomLasso(rand, names);
        expect(tgbaAcceptsLasso(unreduced, w), `${toSpot(f)} on ${showLasso(w)}`).toBe(evaluateOnLasso(f, w));
      }
    }
    expect(larger).toBeGreaterThan(0);
  });
});
