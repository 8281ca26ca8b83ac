/**
 * Exact (SAT-based) minimization: never larger than bisimulation, always verified, strictly
 * smaller when output freedom allows merging non-bisimilar states; and synthesis stays
 * deterministic (same spec → identical machine).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { MealyMachine, MealyTransition } from '../../src/game/mealy.js';
import { exactMinimize } from '../../src/synthesis/exact-minimize.js';
import { minimizeMealy } from '../../src/synthesis/extract.js';
import { synthesize } from '../../src/synthesis/index.js';
import { loadTslGame } from '../../src/tsl/index.js';
import { verifyController } from '../../src/verify/index.js';
import { gameOf, rng } from './helpers.js';

describe('exact minimization', () => {
  test('merges states that only differ where outputs are free', () => {
    // A chain of 4 states; each fixes o on a different input, leaving it free otherwise. No two
    // are bisimilar (different cubes), yet all are compatible: one state suffices.
    const transitions = [0, 1, 2, 3].flatMap((s): MealyTransition[] => [
      { from: s, input: { i: true }, output: s % 2 === 0 ? { o: true } : {}, to: (s + 1) % 4 },
      { from: s, input: { i: false }, output: s % 2 === 1 ? { o: false } : {}, to: (s + 1) % 4 },
    ]);
    const m: MealyMachine = { inputs: ['i'], outputs: ['o'], stateCount: 4, initial: 0, transitions };
    expect(minimizeMealy(m).stateCount).toBe(2);
    const exact = exactMinimize(m)!;
    expect(exact.stateCount).toBe(1);
    expect(exact.transitions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ input: { i: true }, output: { o: true } }),
        expect.objectContaining({ input: { i: false }, output: { o: false } }),
      ]),
    );
  });

  test('keeps incompatible states apart', () => {
    const m: MealyMachine = {
      inputs: [],
      outputs: ['o'],
      stateCount: 2,
      initial: 0,
      transitions: [
        { from: 0, input: {}, output: { o: true }, to: 1 },
        { from: 1, input: {}, output: { o: false }, to: 0 },
      ],
    };
    expect(exactMinimize(m)).toBeUndefined();
  });

  test('random small specs: verified and never larger than bisimulation', () => {
    const next = rng(15);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)];
    const templates = ['G (i -> X o)', 'G (i -> F o)', 'G (o -> X !o)', 'G F (o <-> j)', 'G (j -> (o | X o))', 'G (!o | !p)', 'G (i -> X X p)'];
    for (let k = 0; k < 12; k++) {
      const guarantee = [pick(templates), pick(templates), pick(templates)];
      const spec = gameOf({ ins: ['i', 'j'], outs: ['o', 'p'], guarantee });
      const bisim = synthesize(spec, { minimize: 'bisim', timeoutMs: 20_000 });
      const exact = synthesize(spec, { minimize: 'exact', timeoutMs: 20_000 });
      expect(exact.verdict).toBe(bisim.verdict);
      if (bisim.verdict !== 'realizable' || exact.verdict !== 'realizable') continue;
      expect(verifyController(spec, exact.controller).ok).toBe(true);
      expect(exact.controller.stateCount).toBeLessThanOrEqual(bisim.controller.stateCount);
    }
  }, 60_000);
});

describe('determinism', () => {
  const load = (f: string) => loadTslGame(f, readFileSync(f, 'utf8')).game;
  test.each(['specs/adventure.tsl', 'specs/forest.tsl', 'specs/tutor.tsl'])('%s synthesizes the same machine twice', (file) => {
    const first = synthesize(load(file), { timeoutMs: 120_000 });
    const second = synthesize(load(file), { timeoutMs: 120_000 });
    expect(first.verdict).toBe(second.verdict);
    if (first.verdict === 'realizable' && second.verdict === 'realizable') {
      expect(JSON.stringify(second.controller)).toBe(JSON.stringify(first.controller));
      const bisim = synthesize(load(file), { timeoutMs: 120_000, minimize: 'bisim' });
      if (bisim.verdict === 'realizable') expect(first.controller.stateCount).toBeLessThanOrEqual(bisim.controller.stateCount);
    }
  }, 120_000);
});
