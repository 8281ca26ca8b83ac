import { describe, expect, it } from 'vitest';
import { BDD_FALSE, BDD_TRUE, BddManager } from '../../src/automata/bdd.js';
import { and, ap, evalPropositional, type Formula, iff, implies, not, or, xor } from '../../src/ltl/formula.js';
import { prng } from './random-ltl.js';
import { exactlyOne } from '../../src/game/spec.js';

const NAMES = ['a', 'b', 'c', 'd'];

function randomProp(rand: () => number, depth: number): Formula {
  if (depth === 0 || rand() < 0.25) return rand() < 0.3 ? not(ap(NAMES[Math.floor(rand() * 4)])) : ap(NAMES[Math.floor(rand() * 4)]);
  const x = randomProp(rand, depth - 1);
  const y = randomProp(rand, depth - 1);
  return [and, or, implies, iff, xor][Math.floor(rand() * 5)](x, y);
}

const valuations = Array.from({ length: 16 }, (_, k) => (name: string) => ((k >> NAMES.indexOf(name)) & 1) === 1);

describe('BddManager', () => {
  it('is canonical and round-trips through toFormula on 500 random formulas', () => {
    const rand = prng(5);
    const bdd = new BddManager();
    for (let k = 0; k < 500; k++) {
      const f = randomProp(rand, 4);
      const n = bdd.fromFormula(f);
      for (const v of valuations) expect(bdd.evaluate(n, v)).toBe(evalPropositional(f, v));
      const back = bdd.toFormula(n);
      expect(bdd.fromFormula(back)).toBe(n);
      // Canonicity: a differently built equivalent formula gives the same node.
      expect(bdd.fromFormula(not(not(f)))).toBe(n);
      expect(bdd.or(n, bdd.not(n))).toBe(BDD_TRUE);
      expect(bdd.and(n, bdd.not(n))).toBe(BDD_FALSE);
    }
  });
  it('builds a cube as the node conjoining its literals would give', () => {
    const rand = prng(7);
    const bdd = new BddManager();
    // Some variables exist already, in another order than the names': cube() must follow the
    // manager's order, and allocate new ones as conjoining sorted literals would.
    bdd.varIndex('d');
    bdd.varIndex('b');
    for (let k = 0; k < 300; k++) {
      const cube: Record<string, boolean> = {};
      for (const name of [...NAMES, 'e', 'f']) if (rand() < 0.6) cube[name] = rand() < 0.5;
      // Every other time cube() comes first, so it is the one that meets a variable first.
      const first = k % 2 === 0 ? bdd.cube(cube) : undefined;
      let conjoined = BDD_TRUE;
      for (const name of Object.keys(cube).sort()) conjoined = bdd.and(conjoined, bdd.literal(name, cube[name]));
      expect(first ?? bdd.cube(cube)).toBe(conjoined);
      // The same cube given as a partial assignment by variable index.
      expect(bdd.assignmentCube(bdd.assignmentArray(cube))).toBe(conjoined);
    }
    expect(bdd.cube({})).toBe(BDD_TRUE);
    expect(bdd.assignmentCube(new Int8Array(3))).toBe(BDD_TRUE);
  });
  it('decides compatibility with partial assignments like brute force', () => {
    const rand = prng(6);
    const bdd = new BddManager();
    for (const name of NAMES) bdd.varIndex(name);
    for (let k = 0; k < 300; k++) {
      const f = randomProp(rand, 4);
      const n = bdd.fromFormula(f);
      const cube: Record<string, boolean> = {};
      for (const name of NAMES) if (rand() < 0.5) cube[name] = rand() < 0.5;
      const expected = valuations.some((v) => evalPropositional(f, v) && Object.entries(cube).every(([x, b]) => v(x) === b));
      expect(bdd.compatible(n, cube)).toBe(expected);
      expect(bdd.compatibleWith(n, bdd.assignmentArray(cube))).toBe(expected);
      const witness = bdd.satisfyingAssignment(n, cube);
      expect(witness !== null).toBe(expected);
      if (witness) expect(evalPropositional(f, (x) => witness.get(x) ?? false)).toBe(true);
    }
  });
  it('prints sum-of-products guards', () => {
    const bdd = new BddManager();
    const g = bdd.fromFormula(or(and(ap('a'), not(ap('b'))), ap('c')));
    const printed = bdd.toFormula(g);
    expect(printed.kind).toBe('or');
  });

  it('polls while it builds nodes, and stays usable after a poll abandons an operation', () => {
    // x0 ∧ y0 ∨ … over an interleaving-hostile order: thousands of nodes for one ∨ chain.
    const n = 14;
    const build = (bdd: BddManager) => {
      let f = BDD_FALSE;
      for (let i = 0; i < n; i++) f = bdd.or(f, bdd.and(bdd.variable(`x${i}`), bdd.variable(`y${i}`)));
      return f;
    };
    const order = (bdd: BddManager) => {
      for (let i = 0; i < n; i++) bdd.varIndex(`x${i}`);
      for (let i = 0; i < n; i++) bdd.varIndex(`y${i}`);
    };
    const polled = new BddManager();
    order(polled);
    let polls = 0;
    polled.poll = () => {
      if (++polls === 3) throw new Error('stop');
    };
    expect(() => build(polled)).toThrow('stop');
    polled.poll = undefined;
    const fresh = new BddManager();
    order(fresh);
    const expected = build(fresh);
    expect(fresh.nodeCount).toBeGreaterThan(3 * 256);
    // Finished after the interruption, the same function as in a fresh manager.
    const again = build(polled);
    for (let k = 0; k < 200; k++) {
      const bits = (k * 2654435761) >>> 0;
      const value = (name: string) => ((bits >> (Number(name.slice(1)) + (name[0] === 'y' ? n : 0))) & 1) === 1;
      expect(polled.evaluate(again, value)).toBe(fresh.evaluate(expected, value));
    }
  });
  it('builds a one-hot rule over 32 updates without quadratic intermediate diagrams', () => {
    // exactlyOne's pairwise clauses ¬(uᵢ ∧ uⱼ), folded in formula order, built diagrams that
    // track which updates were seen (78,000 nodes, a quarter of Automata32S's time); folded from
    // the bottom of the variable order up, each partial result is "at most one of the last k"
    // (with one clause of uₖ at a time: about 6,000 nodes made in all).
    const bdd = new BddManager();
    const names = Array.from({ length: 32 }, (_, i) => `u${String(i).padStart(2, '0')}`);
    for (const n of names) bdd.varIndex(n);
    const before = bdd.nodeCount;
    const oneHot = bdd.fromFormula(exactlyOne(names));
    expect(bdd.nodeCount - before).toBeLessThan(10_000);
    for (let k = 0; k < 40; k++) {
      const on = k % 33; // 32: nothing set
      const value = (name: string) => name === names[on];
      expect(bdd.evaluate(oneHot, value)).toBe(on < 32);
    }
    expect(bdd.evaluate(oneHot, (name) => name === names[3] || name === names[20])).toBe(false);
  });
});

describe('BddManager.andAll', () => {
  // Conjoined from the top, each new variable below the cube rebuilt the cube (n²/2 nodes) and
  // recursed through it (a stack overflow past a few thousand): the parity route's initial state
  // of 5,000 invariants. Bottom-up, every step is one node.
  it('conjoins a long cube in linear nodes and constant stack depth', () => {
    const bdd = new BddManager();
    const n = 20_000;
    const vars = Array.from({ length: n }, (_, i) => bdd.variable(`v${i}`));
    const before = bdd.nodeCount;
    const cube = bdd.andAll(vars);
    expect(bdd.nodeCount - before).toBeLessThanOrEqual(n);
    // A chain v0 ∧ v1 ∧ …: every low edge false, n nodes down to true.
    let length = 0;
    for (let node = cube; node !== BDD_TRUE; node = bdd.high(node), length++) expect(bdd.low(node)).toBe(BDD_FALSE);
    expect(length).toBe(n);
    expect(bdd.andAll([...vars, bdd.not(vars[7])])).toBe(BDD_FALSE);
    expect(bdd.andAll([BDD_TRUE, vars[3]])).toBe(vars[3]);
    expect(bdd.andAll([])).toBe(BDD_TRUE);
  });

  it('is the same function as a left fold, whatever the order', () => {
    const rand = prng(11);
    const bdd = new BddManager();
    for (let i = 0; i < 200; i++) {
      const nodes = Array.from({ length: 1 + Math.floor(rand() * 5) }, () => bdd.fromFormula(randomProp(rand, 3)));
      expect(bdd.andAll(nodes)).toBe(nodes.reduce((acc, n) => bdd.and(acc, n), BDD_TRUE));
    }
  });
});
