import { describe, expect, it } from 'vitest';
import { BDD_FALSE, BDD_TRUE, BddManager, type BddNode } from '../../src/automata/bdd.js';
import { letterClasses, refine } from '../../src/automata/letter-classes.js';
import { directSimulation, type SimEdge } from '../../src/automata/simulation.js';
import { prng } from './random-ltl.js';

/** A random guard: a disjunction of up to three random cubes over `names`. */
function randomGuard(bdd: BddManager, rand: () => number, names: readonly string[]): BddNode {
  let g = BDD_FALSE;
  const cubes = 1 + Math.floor(rand() * 3);
  for (let c = 0; c < cubes; c++) {
    let cube = BDD_TRUE;
    for (const name of names) {
      const r = rand();
      if (r < 0.25) cube = bdd.and(cube, bdd.literal(name, true));
      else if (r < 0.5) cube = bdd.and(cube, bdd.literal(name, false));
    }
    g = bdd.or(g, cube);
  }
  return g;
}

function randomAutomaton(bdd: BddManager, rand: () => number, n: number, names: readonly string[]): SimEdge[][] {
  return Array.from({ length: n }, () =>
    Array.from({ length: 1 + Math.floor(rand() * 5) }, () => ({
      to: Math.floor(rand() * n),
      guard: randomGuard(bdd, rand, names),
      marks: [0, 1].filter(() => rand() < 0.4),
    })),
  );
}

describe('direct simulation', () => {
  it('is the same relation by letter classes as on the BDDs (random automata, few and many variables)', () => {
    const rand = prng(11);
    let refuted = 0;
    let kept = 0;
    for (let k = 0; k < 300; k++) {
      const bdd = new BddManager();
      // Up to 16 variables: past 12 the pairs are checked on the BDDs (no letter classes).
      const names = Array.from({ length: k < 200 ? 2 + (k % 6) : 13 + (k % 4) }, (_, i) => `p${i}`);
      const edges = randomAutomaton(bdd, rand, 2 + Math.floor(rand() * 9), names);
      const byClasses = directSimulation(bdd, edges);
      const onBdds = directSimulation(bdd, edges, () => {}, false);
      expect([...byClasses]).toEqual([...onBdds]);
      for (const x of onBdds) if (x === 1) kept++;
      else refuted++;
    }
    // Both outcomes occur often enough for the comparison to mean something.
    expect(refuted).toBeGreaterThan(1000);
    expect(kept).toBeGreaterThan(1000);
  });

  it('letter classes: each guard is exactly the union of its classes, and the classes are disjoint', () => {
    const rand = prng(3);
    for (const count of [4, 11]) {
      const bdd = new BddManager();
      const names = Array.from({ length: count }, (_, i) => `p${i}`);
      const guards = Array.from({ length: 25 }, () => randomGuard(bdd, rand, names));
      const classes = letterClasses(bdd, guards, 100_000)!;
      // A witness letter per class: the letters inside exactly its guards.
      const cell = Array.from({ length: classes.count }, (_, l) =>
        guards.reduce((acc, g) => bdd.and(acc, classes.classesOf.get(g)!.includes(l) ? g : bdd.not(g)), BDD_TRUE),
      );
      for (const c of cell) expect(c).not.toBe(BDD_FALSE);
      for (const g of guards) {
        const union = [...classes.classesOf.get(g)!].reduce((acc, l) => bdd.or(acc, cell[l]), BDD_FALSE);
        expect(union).toBe(g);
      }
      expect(cell.reduce((acc, c) => bdd.or(acc, c), BDD_FALSE)).toBe(BDD_TRUE);
    }
  });

  it('has no letter classes for guards over more than 12 variables', () => {
    const bdd = new BddManager();
    const g = Array.from({ length: 13 }, (_, i) => bdd.literal(`p${i}`, true)).reduce((a, b) => bdd.and(a, b), BDD_TRUE);
    expect(letterClasses(bdd, [g], 100_000)).toBeUndefined();
  });

  it('refine numbers elements by the sets they lie in', () => {
    const { ids, count } = refine(6, [[0, 1, 2], [2, 3], [5]]);
    expect(count).toBe(5);
    expect([...ids]).toEqual([0, 0, 1, 2, 3, 4]);
  });
});
