// Zielonka trees (src/automata/zielonka-tree.ts): the parity automaton read off the tree accepts
// exactly the ultimately periodic sequences of mark sets whose set of marks seen infinitely often
// satisfies the Muller condition.
import { describe, expect, it } from 'vitest';
import { zielonkaTree } from '../../src/automata/zielonka-tree.js';
import { rng } from '../synthesis/helpers.js';

describe('Zielonka tree parity automaton', () => {
  it('decides random Muller conditions on random lassos like the condition itself', () => {
    let checked = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const r = rng(seed);
      const m = 1 + Math.floor(r() * 4);
      // A random Muller condition: a table of accepted sets.
      const table = Array.from({ length: 1 << m }, () => r() < 0.5);
      const tree = zielonkaTree(m, (set) => table[set]);
      expect(tree, `seed ${seed}`).toBeDefined();
      for (let w = 0; w < 10; w++) {
        const loop = Array.from({ length: 1 + Math.floor(r() * 4) }, () => Math.floor(r() * (1 << m)));
        const prefix = Array.from({ length: Math.floor(r() * 3) }, () => Math.floor(r() * (1 << m)));
        let leaf = 0;
        for (const set of prefix) leaf = tree!.step(leaf, set).leaf;
        // Run long enough to enter the automaton's cycle, then take the least depth of one more stretch.
        const rounds = tree!.leafCount + 2;
        for (let i = 0; i < rounds; i++) for (const set of loop) leaf = tree!.step(leaf, set).leaf;
        let least = Infinity;
        for (let i = 0; i < rounds; i++)
          for (const set of loop) {
            const s = tree!.step(leaf, set);
            least = Math.min(least, s.depth);
            leaf = s.leaf;
          }
        const infinitely = loop.reduce((a, b) => a | b, 0);
        expect(tree!.acceptingAt(least), `seed ${seed}, loop ${loop}`).toBe(table[infinitely]);
        checked++;
      }
    }
    expect(checked).toBe(3000);
  });

  it('a generalized Büchi condition needs one leaf per mark, alternating depths', () => {
    // Inf(0) ∧ Inf(1) ∧ Inf(2): accepting root, its children are the three sets missing one mark.
    const tree = zielonkaTree(3, (set) => set === 0b111)!;
    expect(tree.rootAccepting).toBe(true);
    expect(tree.leafCount).toBe(3);
    expect(tree.acceptingAt(0)).toBe(true);
    expect(tree.acceptingAt(1)).toBe(false);
  });

  it('jumps past every mark read at once under a root over leaves, and still decides like the condition', () => {
    // Inf(0) ∧ … ∧ Inf(m−1): a leaf waits for the one mark its label lacks. Reading all marks
    // but mark j lands on the leaf waiting for j (a plain Zielonka step moves one leaf on), so
    // a game keeps fewer (position, leaf) pairs when marks come together.
    const m = 6;
    const all = 2 ** m - 1;
    const tree = zielonkaTree(m, (set) => set === all, undefined, true)!;
    const waitsFor = (leaf: number) => {
      for (let j = 0; j < m; j++) if (tree.step(leaf, all & ~(1 << j)).depth === 1 && tree.step(leaf, 1 << j).depth === 0) return j;
      return -1;
    };
    for (let leaf = 0; leaf < m; leaf++)
      for (let j = 0; j < m; j++) {
        if (j === waitsFor(leaf)) continue;
        const s = tree.step(leaf, all & ~(1 << j));
        expect(s.depth).toBe(0);
        expect(waitsFor(s.leaf)).toBe(j);
      }
    // Random lassos over generalized Büchi and generalized co-Büchi conditions (roots over leaves,
    // accepting and rejecting), up to 8 marks: the least depth read on the loop decides as the
    // condition does.
    const r = rng(17);
    for (let k = 0; k < 400; k++) {
      const marks = 2 + Math.floor(r() * 7);
      const full = 2 ** marks - 1;
      const coBuchi = r() < 0.5;
      const accepts = (set: number) => (coBuchi ? set !== full : set === full);
      const t = zielonkaTree(marks, accepts, undefined, !coBuchi)!;
      const letter = () => (r() < 0.5 ? full & ~(1 << Math.floor(r() * marks)) : Math.floor(r() * (full + 1)));
      const loop = Array.from({ length: 1 + Math.floor(r() * 6) }, letter);
      let leaf = 0;
      for (let i = 0; i < t.leafCount + 2; i++) for (const set of loop) leaf = t.step(leaf, set).leaf;
      let least = Infinity;
      for (let i = 0; i < t.leafCount + 2; i++)
        for (const set of loop) {
          const s = t.step(leaf, set);
          least = Math.min(least, s.depth);
          leaf = s.leaf;
        }
      expect(t.acceptingAt(least), `${coBuchi ? 'co-Büchi' : 'Büchi'} ${marks}, loop ${loop}`).toBe(accepts(loop.reduce((a, b) => a | b, 0)));
    }
  });

  it('builds the same tree for a monotone condition from the top as from all subsets', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const r = rng(seed);
      const m = 1 + Math.floor(r() * 6);
      // A random positive DNF over the marks: monotone.
      const terms = Array.from({ length: 1 + Math.floor(r() * 3) }, () => Math.floor(r() * (1 << m)));
      const accepts = (set: number) => terms.some((t) => (set & t) === t);
      const plain = zielonkaTree(m, accepts)!;
      const fast = zielonkaTree(m, accepts, undefined, true)!;
      expect(fast.leafCount, `seed ${seed}`).toBe(plain.leafCount);
      expect(fast.maxDepth, `seed ${seed}`).toBe(plain.maxDepth);
      expect(fast.rootAccepting).toBe(plain.rootAccepting);
      for (let leaf = 0; leaf < plain.leafCount; leaf++)
        for (let set = 0; set < 1 << m; set++) expect(fast.step(leaf, set), `seed ${seed}`).toEqual(plain.step(leaf, set));
    }
  });

  it('builds a generalized Büchi condition over more marks than subsets can be enumerated for', () => {
    // SYNTCOMP's full_arbiter_enc: 17 G F marks in one conjunction.
    const m = 20;
    const all = 2 ** m - 1;
    const tree = zielonkaTree(m, (set) => set === all, undefined, true);
    expect(tree).toBeDefined();
    expect(tree!.leafCount).toBe(m);
    expect(tree!.maxDepth).toBe(1);
    // Only a step with every mark reaches the root (depth 0); leaf 0 (every mark but mark 0)
    // stays where it is on its own label.
    expect(tree!.step(0, all).depth).toBe(0);
    expect(tree!.step(0, all & ~1).depth).toBe(1);
  });
});
