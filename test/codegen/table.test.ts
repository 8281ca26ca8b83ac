import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { specSitesOf, walk } from '../../runtime/decision.js';
import type { DecisionNode } from '../../runtime/table.js';
import { buildControllerTable, expectedCalls, TableBuildError } from '../../src/codegen/table.js';
import type { Cube, MealyMachine } from '../../src/game/mealy.js';
import type { GameSpec } from '../../src/game/spec.js';
import type { Formula } from '../../src/ltl/formula.js';
import { P, tinyMachine, tinySpec, U } from './fixtures.js';

const valuations = (n: number): boolean[][] =>
  Array.from({ length: 1 << n }, (_, bits) => Array.from({ length: n }, (_, i) => ((bits >> i) & 1) === 1));

describe('buildControllerTable', () => {
  const table = buildControllerTable(tinySpec, tinyMachine);

  it('maps predicates, updates and signals in the spec’s terms', () => {
    expect(table.predicates.map((p) => [p.fn, p.text])).toEqual([
      ['inCave', 'inCave summary'],
      ['inTown', 'inTown summary'],
      ['happy', 'happy mood'],
    ]);
    expect(table.updates[U.cntInc]).toMatchObject({ signal: 'count', isSelfUpdate: false, text: '[count <- add count 1]' });
    expect(table.signals.map((s) => s.role)).toEqual(['input', 'cell', 'cell', 'output']);
  });

  it('asks one predicate in state 0 and resolves the overlap by list order', () => {
    const root = table.states[0].decision;
    expect(root).toMatchObject({ kind: 'test', predicate: P.cave });
    const whenCave = walk(root, new Map([[P.cave, true]]));
    const noCave = walk(root, new Map([[P.cave, false]]));
    // Leaves list updates in signals order of updated signals: summary, count, passage.
    expect(whenCave).toMatchObject({ kind: 'leaf', leaf: { updates: [U.sumUpd, U.cntKeep, U.toTown], next: 1 } });
    expect(noCave).toMatchObject({ kind: 'leaf', leaf: { updates: [U.sumKeep, U.cntInc, U.toCave], next: 0 } });
  });

  it('orders tests to minimise expected calls and completes open cubes with self-updates', () => {
    const root = table.states[1].decision;
    // Asking inTown first decides half the cases with one call (1.5 expected vs 2).
    expect(root).toMatchObject({ kind: 'test', predicate: P.town, whenFalse: { kind: 'leaf' } });
    expect(expectedCalls(root)).toBe(1.5);
    const keep = walk(root, new Map([[P.town, true], [P.cave, true]]));
    expect(keep).toMatchObject({ kind: 'leaf', leaf: { updates: [U.sumKeep, U.cntKeep, U.toCave], next: 1 } });
  });

  it('never tests a predicate no transition mentions', () => {
    const tested = JSON.stringify(table.states);
    expect(tested).not.toContain(`"predicate":${P.happy}`);
  });

  it('records the spec lines that mention the chosen updates', () => {
    const leaf = walk(table.states[0].decision, new Map([[P.cave, true]]));
    expect(leaf.kind === 'leaf' && leaf.leaf.specLines).toEqual([5]);
    const other = walk(table.states[0].decision, new Map([[P.cave, false]]));
    expect(other.kind === 'leaf' && other.leaf.specLines).toEqual([6]);
     // ... and the file each line is in, so explanations can say file:line.
    expect(table.specFiles).toEqual(['tiny.tsl']);
    expect(leaf.kind === 'leaf' && leaf.leaf.specFiles).toEqual([0]);
  });

  it('names the file of every spec line of a composed spec, shown as the caller asks', () => {
    const parts = (file: string, line: number, formula: Formula) => ({ formula, span: { file, line, col: 1 } });
    const composed: GameSpec = {
      ...tinySpec,
      guarantees: [parts('/abs/a.tsl', 5, tinySpec.guarantees[0].formula), parts('/abs/b.tsl', 2, tinySpec.guarantees[1].formula)],
    };
    const t = buildControllerTable(composed, tinyMachine, 'c', { displayFile: (f) => f.replace('/abs/', 'specs/') });
    expect(t.specFiles).toEqual(['specs/a.tsl', 'specs/b.tsl']);
    const toTown = walk(t.states[0].decision, new Map([[P.cave, true]]));
    const toCave = walk(t.states[0].decision, new Map([[P.cave, false]]));
    if (toTown.kind !== 'leaf' || toCave.kind !== 'leaf') throw new Error('expected leaves');
    expect(specSitesOf(t, toTown.leaf)).toEqual(['specs/a.tsl:5']);
    expect(specSitesOf(t, toCave.leaf)).toEqual(['specs/b.tsl:2']);
    // A table without files (written before they were recorded) still gives the lines.
    expect(specSitesOf({}, toCave.leaf)).toEqual(['line 2']);
  });

  it('rejects a machine that is not input-complete', () => {
    const broken: MealyMachine = { ...tinyMachine, transitions: tinyMachine.transitions.filter((t) => !(t.from === 1 && t.input.p_town === false)) };
    expect(() => buildControllerTable(tinySpec, broken)).toThrow(TableBuildError);
  });

  it('rejects a transition that updates one signal twice', () => {
    const twice: MealyMachine = {
      ...tinyMachine,
      transitions: [{ from: 0, input: {}, output: { u_toCave: true, u_toTown: true }, to: 0 }, { from: 1, input: {}, output: {}, to: 1 }],
    };
    expect(() => buildControllerTable(tinySpec, twice)).toThrow(/at once/);
  });
});

/** A spec with `n` zero-argument predicates and one signal with `k` updates (no self-update). */
function syntheticSpec(n: number, k: number): GameSpec {
  return {
    name: 'random',
    semantics: 'mealy',
    inputs: Array.from({ length: n }, (_, i) => ({ name: `p${i}`, predicate: { fn: `p${i}`, args: [] } })),
    outputs: Array.from({ length: k }, (_, j) => ({ name: `u${j}`, update: { signal: 'x', term: { kind: 'call', fn: `f${j}`, args: [] }, isSelfUpdate: false } })),
    signals: [{ signal: 'x', updates: Array.from({ length: k }, (_, j) => `u${j}`) }],
    initially: [],
    preset: [],
    assumptions: [],
    guarantees: [],
    tslSignals: [{ name: 'x', role: 'output' }],
  };
}

describe('decision diagrams reproduce first-match semantics (property)', () => {
  it('agrees with the first matching transition on every valuation of random machines', () => {
    const n = 4;
    const cubeArb = fc.array(fc.constantFrom<boolean | undefined>(true, false, undefined, undefined), { minLength: n, maxLength: n });
    const transitionArb = fc.record({ cube: cubeArb, update: fc.nat(2), to: fc.nat(2) });
    const stateArb = fc.array(transitionArb, { minLength: 1, maxLength: 7 });
    fc.assert(
      fc.property(fc.array(stateArb, { minLength: 3, maxLength: 3 }), (states) => {
        const transitions = states.flatMap((rows, from) => {
          const list = rows.map((r) => ({
            from,
            input: Object.fromEntries(r.cube.flatMap((v, i) => (v === undefined ? [] : [[`p${i}`, v]]))) as Cube,
            output: { [`u${r.update}`]: true } as Cube,
            to: r.to,
          }));
          // A trailing catch-all makes every state input-complete.
          return [...list, { from, input: {}, output: { u0: true }, to: 0 }];
        });
        const machine: MealyMachine = { inputs: Array.from({ length: n }, (_, i) => `p${i}`), outputs: ['u0', 'u1', 'u2'], stateCount: 3, initial: 0, transitions };
        const table = buildControllerTable(syntheticSpec(n, 3), machine);
        for (let s = 0; s < 3; s++) {
          for (const values of valuations(n)) {
            const first = transitions.find((t) => t.from === s && Object.entries(t.input).every(([p, v]) => values[Number(p.slice(1))] === v))!;
            const result = walk(table.states[s].decision, new Map(values.map((v, i) => [i, v])));
            expect(result.kind).toBe('leaf');
            if (result.kind !== 'leaf') return;
            expect(result.leaf.next).toBe(first.to);
            expect(result.leaf.updates).toEqual([Number(Object.keys(first.output)[0].slice(1))]);
            // Only predicates whose answers can matter are asked: each asked predicate flips the outcome somewhere.
            for (const p of result.path) expect(mentioned(transitions, s, p)).toBe(true);
          }
          expect(noRedundantTests(table.states[s].decision)).toBe(true);
        }
      }),
      { numRuns: 150 },
    );
  });
});

function mentioned(transitions: readonly { from: number; input: Cube }[], state: number, predicate: number): boolean {
  return transitions.some((t) => t.from === state && `p${predicate}` in t.input);
}

/** No test node whose two branches are identical (the answer would not matter). */
function noRedundantTests(node: DecisionNode): boolean {
  if (node.kind === 'leaf') return true;
  if (JSON.stringify(node.whenTrue) === JSON.stringify(node.whenFalse)) return false;
  return noRedundantTests(node.whenTrue) && noRedundantTests(node.whenFalse);
}
