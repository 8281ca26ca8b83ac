/**
 * Exact minimization: never larger than bisimulation, always verified, strictly smaller when
 * output freedom allows merging non-bisimilar states; the backtracking search finds the same
 * minimum as MiniSat without loading it; and synthesis stays deterministic (same spec → identical
 * machine).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { MealyMachine, MealyTransition } from '../../src/game/mealy.js';
import { mulberry32 } from '../../runtime/random.js';
import type { Cube } from '../../src/game/mealy.js';
import { minimumColouring } from '../../src/synthesis/colouring.js';
import { DEFAULT_EXACT_BUDGET, exactColouring, exactMinimize, satRunCount, type ExactColouring } from '../../src/synthesis/exact-minimize.js';
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

// Random incompletely specified machines: input-complete (each state splits the two inputs into
// disjoint cubes), each output fixed with a per-machine probability, random successors.
const SPLITS: Cube[][] = [
  [{}],
  [{ a: true }, { a: false }],
  [{ a: true }, { a: false, b: true }, { a: false, b: false }],
  [{ a: true, b: true }, { a: true, b: false }, { a: false, b: true }, { a: false, b: false }],
];
function randomMachine(next: () => number, n: number): MealyMachine {
  const outputs = ['x', 'y', 'z', 'w'].slice(0, 1 + Math.floor(next() * 4));
  const fixed = 0.05 + next() * 0.65;
  const transitions: MealyTransition[] = [];
  for (let from = 0; from < n; from++)
    for (const input of SPLITS[Math.floor(next() * SPLITS.length)]) {
      const output: Record<string, boolean> = {};
      for (const o of outputs) if (next() < fixed) output[o] = next() < 0.5;
      transitions.push({ from, input, output, to: Math.floor(next() * n) });
    }
  return { inputs: ['a', 'b'], outputs, stateCount: n, initial: 0, transitions };
}

const LETTERS = [true, false].flatMap((a) => [true, false].map((b) => ({ a, b })));
const matches = (cube: Cube, letter: Record<string, boolean>) => Object.entries(cube).every(([k, v]) => letter[k] === v);
const refines = (narrow: Cube, wide: Cube) => Object.entries(wide).every(([k, v]) => narrow[k] === v);

/** Every class is compatible and closed, checked pairwise from the transitions (not the solver's relations). */
function validPartition({ m, byState, k, colour }: ExactColouring): boolean {
  if (k >= m.stateCount || new Set(colour).size !== k || Math.max(...colour) !== k - 1) return false;
  for (let s = 0; s < m.stateCount; s++)
    for (let t = s + 1; t < m.stateCount; t++) {
      if (colour[s] !== colour[t]) continue;
      for (const letter of LETTERS)
        for (const a of byState[s].filter((x) => matches(x.input, letter)))
          for (const b of byState[t].filter((x) => matches(x.input, letter))) {
            if (Object.keys(a.output).some((o) => o in b.output && a.output[o] !== b.output[o])) return false;
            if (colour[a.to] !== colour[b.to]) return false;
          }
    }
  return true;
}

/**
 * `small` is input-complete and everything it may do, `big` allows: the greatest simulation
 * relation (letter by letter; outputs of `small` narrow those of `big`) relates the initial states.
 */
function simulates(small: MealyMachine, big: MealyMachine): boolean {
  const from = (m: MealyMachine, s: number, letter: Record<string, boolean>) =>
    m.transitions.filter((t) => t.from === s && matches(t.input, letter));
  const related = Array.from({ length: small.stateCount }, () => new Array<boolean>(big.stateCount).fill(true));
  for (let changed = true; changed; ) {
    changed = false;
    for (let p = 0; p < small.stateCount; p++)
      for (let s = 0; s < big.stateCount; s++) {
        if (!related[p][s]) continue;
        const ok = LETTERS.every((letter) => {
          const ours = from(small, p, letter);
          return ours.length > 0 && ours.every((tp) => from(big, s, letter).some((tb) => refines(tp.output, tb.output) && related[tp.to][tb.to]));
        });
        if (!ok) [related[p][s], changed] = [false, true];
      }
  }
  return related[small.initial][big.initial];
}

describe('backtracking colouring', () => {
  const loose = { maxStates: 40, maxClauses: 10_000_000 };

  test('random machines: the search finds the SAT minimum, and a valid partition', () => {
    let smaller = 0;
    let beyondLowerBound = 0;
    for (const seed of [1, 2, 3]) {
      const next = mulberry32(seed);
      for (let i = 0; i < 40; i++) {
        const machine = randomMachine(next, 2 + Math.floor(next() * 15));
        const searched = exactColouring(machine, loose, { searchNodes: 10_000_000 });
        const sat = exactColouring(machine, loose, { searchNodes: 0 });
        expect(searched?.k, `seed ${seed} machine ${i}`).toBe(sat?.k);
        if (!searched || !sat) continue;
        smaller++;
        expect(searched.path).toBe('search');
        expect(sat.path).toBe('sat');
        expect(validPartition(searched)).toBe(true);
        expect(validPartition(sat)).toBe(true);
        if (searched.searchNodes > searched.m.stateCount) beyondLowerBound++;
        const merged = exactMinimize(machine, loose)!;
        expect(merged.stateCount).toBeLessThanOrEqual(searched.k);
        expect(simulates(merged, machine)).toBe(true);
      }
    }
    // The sample exercises what it claims to: many machines shrink, some only after backtracking.
    expect(smaller).toBeGreaterThan(30);
    expect(beyondLowerBound).toBeGreaterThan(5);
  }, 60_000);

  test('the simulation check rejects a merge that drops an output constraint', () => {
    const m: MealyMachine = {
      inputs: ['a'],
      outputs: ['o'],
      stateCount: 2,
      initial: 0,
      transitions: [
        { from: 0, input: {}, output: { o: true }, to: 1 },
        { from: 1, input: {}, output: {}, to: 0 },
      ],
    };
    const free: MealyMachine = { ...m, stateCount: 1, transitions: [{ from: 0, input: {}, output: {}, to: 0 }] };
    expect(simulates(free, m)).toBe(false);
    expect(simulates(exactMinimize(m)!, m)).toBe(true);
  });

  test('an odd cycle of incompatibilities needs one colour more than its largest clique', () => {
    const n = 5;
    const incompatible = Array.from({ length: n }, (_, s) => Array.from({ length: n }, (_, t) => t === s + 1 || (s === 0 && t === n - 1)));
    const implied = Array.from({ length: n }, () => Array.from({ length: n }, (): [number, number][] => []));
    const result = minimumColouring({ n, incompatible, implied }, 2, 1_000);
    expect(result.kind).toBe('found');
    if (result.kind !== 'found') return;
    expect(result.k).toBe(3);
    for (let s = 0; s < n; s++) for (let t = s + 1; t < n; t++) if (incompatible[s][t]) expect(result.colour[s]).not.toBe(result.colour[t]);
    expect(minimumColouring({ n, incompatible, implied }, 2, 3).kind).toBe('budget');
  });

  test('closure: merging a pair forces its successors together', () => {
    // 0 and 1 are compatible but their successors 2 and 3 are not, so 0 and 1 stay apart; 0 and 2
    // may merge only together with 1 and 3.
    const n = 4;
    const incompatible = Array.from({ length: n }, (_, s) => Array.from({ length: n }, (_, t) => s === 2 && t === 3));
    const implied = Array.from({ length: n }, () => Array.from({ length: n }, (): [number, number][] => []));
    implied[0][1].push([2, 3]);
    implied[0][2].push([1, 3]);
    const result = minimumColouring({ n, incompatible, implied }, 2, 1_000);
    expect(result.kind).toBe('found');
    if (result.kind !== 'found') return;
    expect(result.k).toBe(2);
    expect([...result.colour]).toEqual([0, 1, 0, 1]);
  });

  test('a state forced towards two different colours fails the bound', () => {
    // 0,1 and 2,3 are incompatible; whichever way 2 and 3 join 0 and 1, state 4 would have to join
    // both 0 and 1, so two colours are not enough.
    const n = 5;
    const incompatible = Array.from({ length: n }, (_, s) => Array.from({ length: n }, (_, t) => (s === 0 && t === 1) || (s === 2 && t === 3)));
    const implied = Array.from({ length: n }, () => Array.from({ length: n }, (): [number, number][] => []));
    implied[0][2].push([0, 4]);
    implied[1][3].push([1, 4]);
    implied[0][3].push([0, 4]);
    implied[1][2].push([1, 4]);
    const result = minimumColouring({ n, incompatible, implied }, 2, 1_000);
    expect(result.kind).toBe('found');
    if (result.kind !== 'found') return;
    expect(result.k).toBe(3);
    const c = result.colour;
    for (let s = 0; s < n; s++)
      for (let t = s + 1; t < n; t++) {
        if (c[s] !== c[t]) continue;
        expect(incompatible[s][t]).toBe(false);
        for (const [u, v] of implied[s][t]) expect(c[u]).toBe(c[v]);
      }
  });

  test('small machines never reach MiniSat; an exhausted search still gets the SAT answer', () => {
    const next = mulberry32(7);
    const machines = Array.from({ length: 30 }, () => randomMachine(next, 2 + Math.floor(next() * 19)));
    const before = satRunCount();
    const answers = machines.map((machine) => exactColouring(machine));
    expect(satRunCount()).toBe(before);
    expect(answers.filter((a) => a !== undefined).length).toBeGreaterThan(5);

    const overBudget = machines.map((machine) => exactColouring(machine, DEFAULT_EXACT_BUDGET, { searchNodes: 1 }));
    const satRuns = satRunCount() - before;
    expect(satRuns).toBeGreaterThan(0);
    expect(overBudget.filter((a) => a?.path === 'sat').length).toBeLessThanOrEqual(satRuns);
    expect(overBudget.map((a) => a?.k)).toEqual(answers.map((a) => a?.k));
  });
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
