/**
 * The independent lasso evaluator: textbook cases, agreement with the project's other evaluator
 * (src/automata/lasso.ts, separately written) on random formulas, 32-lane batches against single
 * lassos, 50,000-deep formulas, and the random word generator's spread.
 */
import { describe, expect, it } from 'vitest';
import { evaluateOnLasso } from '../../src/automata/lasso.js';
import * as ltl from '../../src/ltl/formula.js';
import { prng, randomFormula, randomLasso } from '../automata/random-ltl.js';
import { evaluateBatch, evaluateLasso, formatLasso, type Lasso, packLassos, randomLassoBatches, unpackLane } from './lasso-eval.js';
import { parseSyfcoLtl, treeFromFormula } from './ltl-tree.js';

const w = (prefix: string[], cycle: string[]): Lasso => ({
  prefix: prefix.map((l) => (l ? l.split(',') : [])),
  cycle: cycle.map((l) => (l ? l.split(',') : [])),
});

describe('evaluateLasso', () => {
  it.each([
    ['F a', w(['', ''], ['', 'a']), true],
    ['F a', w(['a'], ['']), true],
    ['X F a', w(['a'], ['']), false],
    ['G a', w(['a', 'a'], ['a']), true],
    ['G a', w(['a'], ['a', '', 'a']), false],
    ['G (F a)', w([''], ['', '', 'a']), true],
    ['F (G a)', w(['a'], ['a', '']), false],
    ['a U b', w(['a', 'a'], ['b']), true],
    ['a U b', w(['a'], ['a']), false],
    ['a W b', w(['a'], ['a']), true],
    ['a W b', w(['a', ''], ['b']), false],
    ['a R b', w([], ['b']), true],
    ['a R b', w(['b', 'a,b'], ['']), true],
    ['a R b', w(['b', 'a'], ['b']), false],
    // X at the end of the cycle wraps to the loop start, not to position 0.
    ['X (X (X a))', w(['a'], ['', 'a']), false],
    ['X (X a)', w([''], ['a', '']), false],
    ['X (X (X a))', w([''], ['a', '']), true],
    ['(a <-> b) && (! (a -> b) || true)', w([], ['a']), false],
  ] as const)('%s on %s', (text, lasso, expected) => {
    expect(evaluateLasso(parseSyfcoLtl(text), lasso)).toBe(expected);
  });

  it('evaluates strong release (not in syfco output, built from our Formula)', () => {
    const m = treeFromFormula(ltl.M(ltl.ap('a'), ltl.ap('b')));
    expect(evaluateLasso(m, w([], ['b']))).toBe(false);
    expect(evaluateLasso(m, w(['b'], ['a,b']))).toBe(true);
    expect(evaluateLasso(m, w(['b', ''], ['a,b']))).toBe(false);
  });

  it('agrees with the translator tests\' evaluator on 1,500 random formulas and lassos', () => {
    const rand = prng(20250611);
    const names = ['a', 'b', 'c'];
    const disagreements: string[] = [];
    for (let k = 0; k < 1500; k++) {
      const f = randomFormula(rand, names, 1 + (k % 5));
      const lasso = randomLasso(rand, names);
      const mine = evaluateLasso(treeFromFormula(f), { prefix: lasso.prefix.map((v) => [...v]), cycle: lasso.cycle.map((v) => [...v]) });
      if (mine !== evaluateOnLasso(f, lasso)) disagreements.push(`${k}`);
    }
    expect(disagreements).toEqual([]);
  });

  it('evaluates 32 lassos of one shape at once, each as if alone', () => {
    const rand = prng(99);
    const names = ['a', 'b'];
    for (let k = 0; k < 40; k++) {
      const f = treeFromFormula(randomFormula(rand, names, 4));
      const p = k % 4;
      const c = 1 + (k % 3);
      const lassos = Array.from({ length: 32 }, () => ({
        prefix: Array.from({ length: p }, () => names.filter(() => rand() < 0.5)),
        cycle: Array.from({ length: c }, () => names.filter(() => rand() < 0.5)),
      }));
      const batch = packLassos(lassos);
      const mask = evaluateBatch(f, batch);
      lassos.forEach((l, lane) => {
        expect(((mask >>> lane) & 1) === 1).toBe(evaluateLasso(f, l));
        expect(unpackLane(batch, lane)).toEqual({ prefix: l.prefix.map((x) => [...x].sort()), cycle: l.cycle.map((x) => [...x].sort()) });
      });
    }
  });

  it('handles 50,000 nested operators (and an atom missing from the word is false)', () => {
    const n = 50_000;
    const t = parseSyfcoLtl('(X '.repeat(n) + '(a)' + ')'.repeat(n));
    // Position 50,000 of {} ({} {} {a})^ω is cycle letter 49,999 mod 3 = 1: {}, so false; of
    // {} ({} {a} {})^ω it is {a}.
    expect(evaluateLasso(t, w([''], ['', '', 'a']))).toBe(false);
    expect(evaluateLasso(t, w([''], ['', 'a', '']))).toBe(true);
    const chain = parseSyfcoLtl(Array.from({ length: n }, (_, i) => `(b${i % 3} U `).join('') + 'c' + ')'.repeat(n));
    expect(evaluateLasso(chain, w(['b0,b1,b2'], ['c']))).toBe(true);
    expect(evaluateLasso(chain, w([''], ['c']))).toBe(false);
    expect(evaluateLasso(chain, w(['b0,b1,b2', 'b0,b1,b2'], ['zzz']))).toBe(false);
  });

  it('refuses mixed shapes and empty cycles', () => {
    expect(() => packLassos([w([], ['a']), w(['a'], ['a'])])).toThrow(/different shapes/);
    expect(() => packLassos([w(['a'], [])])).toThrow(/empty cycle/);
    expect(formatLasso(w(['b,a', ''], ['c']))).toBe('{a,b} {} ({c})^ω');
  });
});

describe('randomLassoBatches', () => {
  it('is reproducible from its seed and spreads shapes and densities', () => {
    const atoms = Array.from({ length: 12 }, (_, i) => `x${i}`);
    const a = randomLassoBatches(atoms, { seed: 7, words: 400 });
    const b = randomLassoBatches(atoms, { seed: 7, words: 400 });
    expect(a.length).toBe(13);
    expect(a.map((x) => [x.prefixLength, x.cycleLength])).toEqual(b.map((x) => [x.prefixLength, x.cycleLength]));
    expect(a.map((x) => unpackLane(x, 5))).toEqual(b.map((x) => unpackLane(x, 5)));
    expect(a.some((x) => x.prefixLength >= 10)).toBe(true);
    expect(a.some((x) => x.cycleLength >= 8)).toBe(true);
    expect(a.some((x) => x.prefixLength === 0)).toBe(true);
    // Some words hold nearly every atom at some step, and some nearly none.
    const letters = a.flatMap((x) => Array.from({ length: 32 }, (_, lane) => unpackLane(x, lane))).flatMap((l) => [...l.prefix, ...l.cycle]);
    expect(letters.some((l) => l.length >= 11)).toBe(true);
    expect(letters.some((l) => l.length <= 1)).toBe(true);
  });

  it('keeps most words one-hot in the given groups', () => {
    const groups = [['u0', 'u1', 'u2'], ['v0', 'v1']];
    const batches = randomLassoBatches(['p', 'q'], { seed: 3, oneHot: groups });
    let oneHot = 0;
    let total = 0;
    for (const batch of batches)
      for (let lane = 0; lane < 32; lane++) {
        const l = unpackLane(batch, lane);
        total++;
        if ([...l.prefix, ...l.cycle].every((letter) => groups.every((g) => g.filter((u) => letter.includes(u)).length === 1))) oneHot++;
      }
    expect(total).toBe(224);
    expect(oneHot / total).toBeGreaterThan(0.6);
    expect(oneHot).toBeLessThan(total);
  });
});
