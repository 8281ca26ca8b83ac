/**
 * Pruned move enumeration: skipping dominated second moves (the safety player's non-minimal
 * edge sets, the adversary's non-maximal ones) must keep exactly the undominated ones, and the
 * games solved on pruned tables must give the same answer as on complete tables.
 */
import { describe, expect, test } from 'vitest';
import { translateLtlSymbolic } from '../../src/automata/translate.js';
import { BddManager } from '../../src/automata/bdd.js';
import { and, ap, type Formula, iff, implies, not, or, X } from '../../src/ltl/formula.js';
import { Bdd, ONE } from '../../src/synthesis/bdd.js';
import { MoveTable, solveBounded } from '../../src/synthesis/game.js';
import { dimensionsFor, indexMover, splitGuards } from '../../src/synthesis/split.js';
import { ucwFromTgba } from '../../src/synthesis/ucw.js';
import { prng, randomFormula } from '../automata/random-ltl.js';

const INPUTS = ['a', 'b'];
const SIGNALS = [
  { updates: ['x_keep', 'x_inc', 'x_dec'], selfUpdate: 'x_keep' },
  { updates: ['y_keep', 'y_set'], selfUpdate: 'y_keep' },
];
const OUTPUTS = [...SIGNALS.flatMap((s) => s.updates), 'z'];

function randomGuard(r: () => number, names: readonly string[], depth: number): Formula {
  const atom = () => (r() < 0.3 ? not(ap(names[Math.floor(r() * names.length)])) : ap(names[Math.floor(r() * names.length)]));
  if (depth === 0 || r() < 0.3) return atom();
  const ops = [and, or, implies, iff];
  return ops[Math.floor(r() * ops.length)](randomGuard(r, names, depth - 1), randomGuard(r, names, depth - 1));
}

/** The on-sets (guards that came out true) of each part, as sorted strings. */
function onSets(residuals: readonly (readonly number[])[]): string[] {
  return residuals.map((res) => res.flatMap((g, j) => (g === ONE ? [j] : [])).join(','));
}

const subsetOf = (a: string, b: string) => {
  const bs = new Set(b.split(',').filter(Boolean));
  return a.split(',').filter(Boolean).every((x) => bs.has(x));
};
const extremes = (sets: readonly string[], keepMaximal: boolean) =>
  [...new Set(sets)].filter((s) => !sets.some((t) => t !== s && (keepMaximal ? subsetOf(s, t) : subsetOf(t, s)))).sort();

describe('pruned splitting keeps exactly the undominated choices', () => {
  const dims = dimensionsFor(OUTPUTS, SIGNALS);
  for (const keepMaximal of [true, false])
    test(keepMaximal ? 'maximal on-sets (adversary)' : 'minimal on-sets (safety player)', () => {
      let nontrivial = 0;
      for (let seed = 1; seed <= 300; seed++) {
        const r = prng(seed);
        const bdd = new Bdd(OUTPUTS);
        const mover = indexMover(bdd, dims);
        const guards = Array.from({ length: 2 + Math.floor(r() * 6) }, () => bdd.fromFormula(randomGuard(r, OUTPUTS, 3)));
        const full = onSets(splitGuards(bdd, guards, mover, false, () => {}).map((p) => p.residual));
        const pruned = onSets(
          splitGuards(bdd, guards, mover, keepMaximal, () => {}, undefined, undefined, !keepMaximal, keepMaximal).map((p) => p.residual),
        );
        // Every kept part is a real choice, and every undominated on-set is represented (a part
        // found before the one dominating it may stay: the game's dominance step drops it).
        for (const set of pruned) expect(full, `seed ${seed}`).toContain(set);
        expect(extremes(pruned, keepMaximal), `seed ${seed}`).toEqual(extremes(full, keepMaximal));
        if (new Set(pruned).size < new Set(full).size) nontrivial++;
      }
      // The cases must actually exercise the pruning.
      expect(nontrivial).toBeGreaterThan(50);
    });
});

describe('games on pruned and complete move tables agree', () => {
  test('primal and dual K-bounded games, Mealy', () => {
    const props = [...INPUTS, ...OUTPUTS];
    const envDims = dimensionsFor(INPUTS, []);
    const outDims = dimensionsFor(OUTPUTS, SIGNALS);
    let decidedDifferently = 0;
    let wins = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const r = prng(1000 + seed);
      const phi = and(randomFormula(r, props, 3), implies(ap('a'), X(randomFormula(r, props, 2))));
      for (const [formula, secondIsSafety] of [
        [not(phi), true],
        [phi, false],
      ] as const) {
        const ucw = ucwFromTgba(translateLtlSymbolic(formula, new BddManager()));
        const second = { dims: outDims, merge: secondIsSafety };
        const pruned = new MoveTable(ucw, { dims: envDims, merge: true }, second, secondIsSafety);
        const complete = new MoveTable(ucw, { dims: envDims, merge: true }, second, secondIsSafety, undefined, false);
        for (let K = 0; K <= 2; K++) {
          const a = solveBounded(pruned, K, 100_000, () => {});
          const b = solveBounded(complete, K, 100_000, () => {});
          if (a.status !== b.status) decidedDifferently++;
          if (a.status === 'win') wins++;
        }
      }
    }
    expect(decidedDifferently).toBe(0);
    expect(wins).toBeGreaterThan(20);
  });
});
