// The independent checker's tableau expands a large state per controller transition. The state's
// own propositional conjuncts (values an `X` fixed one step earlier) prune that expansion along
// with the transition's letter: chain-simple's environment model, forty `G(… → X …)` assumptions
// merged into one `G(a₁ ∧ … ∧ a₄₀)`, came out with one term per valuation of the inputs a
// transition leaves free (hundreds), all but one dropped at the end after a quadratic reduction.
// The work is counted through the tableau's poll (called per term formed), not timed.
import { describe, expect, it } from 'vitest';
import { evaluateOnLasso, type Lasso } from '../../src/automata/lasso.js';
import { BDD_FALSE, BDD_TRUE, BddManager } from '../../src/automata/bdd.js';
import { Tableau } from '../../src/automata/tableau.js';
import type { Cube, MealyMachine, MealyTransition } from '../../src/game/mealy.js';
import { type GameSpec, specFormula } from '../../src/game/spec.js';
import { and, ap, type Formula, G, implies, not, or, X } from '../../src/ltl/formula.js';
import { toNnf } from '../../src/ltl/nnf.js';
import { type ControllerStep, verifyController } from '../../src/verify/index.js';
import { prng, randomFormula } from '../automata/random-ltl.js';

const n = 12;
const xs = Array.from({ length: n }, (_, i) => `x${i}`);
/** x_i keeps its value: (x_i ∧ X x_i) ∨ (¬x_i ∧ X ¬x_i). */
const keeps = (x: string): Formula => or(and(ap(x), X(ap(x))), and(not(ap(x)), X(not(ap(x)))));
/** The value of x_i now: alternately true and false. */
const valueOf = (i: number): boolean => i % 2 === 0;
const literal = (x: string, v: boolean): Formula => (v ? ap(x) : not(ap(x)));

describe('tableau: a large state expanded under one letter', () => {
  // The state after one step of G(∧ keeps(x_i)): the values fixed now, and the invariant.
  const invariant = G(and(...xs.map(keeps)));
  const now = xs.map((x, i) => literal(x, valueOf(i)));
  const state = and(...now, invariant);

  it('keeps to the values the state fixes, forming a few terms instead of one per valuation of the free inputs', () => {
    const bdd = new BddManager();
    for (const name of [...xs, 'o']) bdd.varIndex(name);
    let polls = 0;
    let limit = 5000;
    const tableau = new Tableau(bdd, () => {
      // 2^12 = 4,096 terms (and as many reduction rounds) per letter without the pruning.
      if (++polls > limit) throw new Error('the expansion formed terms for valuations the state rules out');
    });
    // The first letter also finds out that the state is too large to expand for all letters at
    // once (about 1,600 terms formed until it passes the limit); the next one is counted.
    tableau.successorsUnder(state, bdd.assignmentArray({ o: false }));
    polls = 0;
    limit = 200;
    // A transition that fixes only the output: every x_i is left free.
    const terms = tableau.successorsUnder(state, bdd.assignmentArray({ o: true }));
    expect(polls).toBeLessThan(50);
    expect(terms).toHaveLength(1);
    const [term] = terms;
    // Its guard is exactly the state's values (with the letter), its target the same state, and
    // it postpones nothing (the invariant is no eventuality).
    let values = bdd.literal('o', true);
    xs.forEach((x, i) => (values = bdd.and(values, bdd.literal(x, valueOf(i)))));
    expect(bdd.and(term.guard, bdd.literal('o', true))).toBe(values);
    expect(term.next).toBe(state);
    expect(term.pending).toEqual([]);
  });

  it('gives no term for a letter the state rules out', () => {
    const bdd = new BddManager();
    for (const name of [...xs, 'o']) bdd.varIndex(name);
    const tableau = new Tableau(bdd);
    // x0 is true in the state; a transition reading x0 = false has no successor.
    expect(tableau.successorsUnder(state, bdd.assignmentArray({ x0: false, o: true }))).toEqual([]);
    // One reading x0 = true (and leaving the rest free) has the one successor.
    const terms = tableau.successorsUnder(state, bdd.assignmentArray({ x0: true }));
    expect(terms.map((t) => t.next)).toEqual([state]);
    expect(bdd.and(terms[0].guard, bdd.literal('x1', true))).toBe(BDD_FALSE);
  });
});

describe('tableau: pruned expansions of large states agree with the full expansion', () => {
  it('on 15 random large states and 4 letters each: the same targets and postponements, the same guards within the letter', () => {
    const rand = prng(22);
    const names = [...xs.slice(0, 10), 'o', 'p'];
    let compared = 0;
    // One tableau of each kind for all states (as in a check): the kept inputs' invariant is
    // expanded once by each.
    const bdd = new BddManager();
    for (const name of names) bdd.varIndex(name);
    const reference = new Tableau(bdd);
    const pruned = new Tableau(bdd);
    for (let k = 0; k < 15; k++) {
      // Nine kept inputs (2^9 terms, too many to expand for all letters at once), some of their
      // values fixed now (none or one: too many terms even so, expanded per letter; more: expanded
      // once within those values), and a few random obligations beside them.
      const kept = names.slice(0, 9);
      const fixedCount = [0, 1, 1, 3, 5][k % 5];
      const fixed = kept.slice(0, fixedCount).map((x) => literal(x, rand() < 0.5));
      const extra = Array.from({ length: 1 + Math.floor(rand() * 2) }, () => randomFormula(rand, names, 3));
      const state = toNnf(and(...fixed, G(and(...kept.map(keeps))), ...extra));
      const full = reference.successors(state);
      for (let l = 0; l < 4; l++) {
        const cube: Record<string, boolean> = {};
        for (const name of names) if (rand() < 0.3) cube[name] = rand() < 0.5;
        const assignment = bdd.assignmentArray(cube);
        let region = BDD_TRUE;
        for (const [name, value] of Object.entries(cube)) region = bdd.and(region, bdd.literal(name, value));
        const byTarget = (terms: readonly { guard: number; next: Formula; pending: readonly number[] }[]) => {
          const out = new Map<string, number>();
          for (const t of terms) {
            const within = bdd.and(t.guard, region);
            if (within === BDD_FALSE) continue;
            const key = `${t.next.id}|${t.pending.join(',')}`;
            out.set(key, bdd.or(out.get(key) ?? BDD_FALSE, within));
          }
          return out;
        };
        const expected = byTarget(full);
        const got = byTarget(pruned.successorsUnder(state, assignment));
        expect([...got.keys()].sort()).toEqual([...expected.keys()].sort());
        for (const [key, guard] of expected) expect(got.get(key)).toBe(guard);
        if (expected.size > 0) compared++;
      }
    }
    expect(compared).toBeGreaterThan(20);
  });
});

describe('verifyController where the environment keeps its inputs (pruned expansions)', () => {
  // The environment keeps x_0..x_11 forever, x2..x11 at known values; the controller must answer
  // o = x0 ∧ x1 at every step. Its transitions leave x2..x11 free, which the tableau's states fix.
  const spec: GameSpec = {
    name: 'keeps',
    semantics: 'mealy',
    inputs: xs.map((name) => ({ name })),
    outputs: [{ name: 'o' }],
    signals: [],
    initially: [],
    preset: [],
    assumptions: [...xs.map((x) => ({ formula: G(keeps(x)) })), ...xs.slice(2).map((x, i) => ({ formula: literal(x, valueOf(i + 2)) }))],
    guarantees: [{ formula: G(implies(and(ap('x0'), ap('x1')), ap('o'))) }, { formula: G(implies(ap('o'), and(ap('x0'), ap('x1')))) }],
  };
  const io = { inputs: xs, outputs: ['o'] };
  const t = (from: number, input: Cube, output: Cube, to: number): MealyTransition => ({ from, input, output, to });
  /** States 0 and 1 as both tests have them: 1 remembers x0 ∧ x1 and reads no input; state 2's are given. */
  const withState2 = (state2: readonly MealyTransition[]): MealyMachine => ({
    ...io,
    stateCount: 3,
    initial: 0,
    transitions: [
      t(0, { x0: true, x1: true }, { o: true }, 1),
      t(0, { x0: false }, { o: false }, 2),
      t(0, { x0: true, x1: false }, { o: false }, 2),
      t(1, {}, { o: true }, 1),
      ...state2,
    ],
  });

  it('accepts a controller whose transitions leave most inputs free', () => {
    const m = withState2([t(2, {}, { o: false }, 2)]);
    const r = verifyController(spec, m);
    expect(r.ok).toBe(true);
  });

  it('rejects one that answers o while x0 is false, with a counterexample the spec really fails on', () => {
    // Wrong from the second step on after ¬x0: o = true although x0 (kept false) is false.
    const m = withState2([t(2, { x0: true }, { o: false }, 2), t(2, { x0: false }, { o: true }, 2)]);
    const r = verifyController(spec, m);
    expect(r.ok).toBe(false);
    if (r.ok || !r.counterexample) throw new Error('expected a counterexample');
    const word = (steps: readonly ControllerStep[]) =>
      steps.map((s) => new Set([...Object.entries(s.inputs), ...Object.entries(s.outputs)].filter(([, v]) => v).map(([k]) => k)));
    const lasso: Lasso = { prefix: word(r.counterexample.prefix), cycle: word(r.counterexample.cycle) };
    expect(evaluateOnLasso(specFormula(spec), lasso)).toBe(false);
  });
});
