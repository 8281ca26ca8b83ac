/**
 * Issue 18 item 13 in the explanation layer: cubes and valuations keyed by proposition names
 * treat `__proto__`, `constructor`, … as ordinary keys. On plain objects `'constructor' in {}`
 * was true (an input the cube leaves open was described as set), and `out['__proto__'] = v`
 * was lost (a guard or completed output silently dropped the proposition).
 */
import { describe, expect, it } from 'vitest';
import type { MealyMachine } from '../../src/game/mealy.js';
import { completeOutput, signalRespectingOutputs } from '../../src/explain/counterplay.js';
import { buildDiagram } from '../../src/explain/diagram.js';
import { simplifyGuard } from '../../src/explain/guards.js';
import { describeInputs, describeOutputs, vocabulary } from '../../src/explain/words.js';
import { ltlGame } from '../../src/frontend/game-from-ltl.js';

const NAMES = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty'] as const;

/** `{ [name]: value }` with `name` as an own key (a literal `{ __proto__: v }` would set the prototype). */
const cube = (...entries: [string, boolean][]): Record<string, boolean> => Object.fromEntries(entries);

describe.each(NAMES)('explanations with a proposition named %s', (name) => {
  const spec = ltlGame(`G (${name} -> F out) & G (x -> F ${name}2)`, [name, 'x'], ['out', `${name}2`]);
  const vocab = vocabulary(spec);

  it('an input the cube leaves open is "anything", a set one is named', () => {
    expect(describeInputs({}, [name, 'x'], vocab)).toBe('anything');
    expect(describeInputs(cube([name, false]), [name, 'x'], vocab)).toBe(`${name} false`);
    expect(describeOutputs({}, ['out'], vocab)).toBe('anything');
  });

  it('guard simplification keeps the literal and merges it away only when both values occur', () => {
    expect(simplifyGuard([cube([name, true], ['x', true]), cube([name, true], ['x', false])])).toEqual([cube([name, true])]);
    expect(simplifyGuard([cube([name, true]), cube([name, false])])).toEqual([{}]);
    expect(simplifyGuard([cube([name, false])]).map((c) => Object.entries(c))).toEqual([[[name, false]]]);
  });

  it('completed outputs and enumerated output valuations state every output', () => {
    const outs = ltlGame(`G F ${name}`, [], [name, 'y']);
    const done = completeOutput(outs, {});
    expect(Object.entries(done).sort()).toEqual([[name, false], ['y', false]].sort());
    const all = signalRespectingOutputs(outs)!;
    expect(all.map((v) => Object.hasOwn(v, name) && v[name]).sort()).toEqual([false, false, true, true]);
  });

  it('a diagram edge is guarded by the input only where the machine tests it', () => {
    const machine: MealyMachine = {
      inputs: [name, 'x'],
      outputs: ['out', `${name}2`],
      stateCount: 2,
      initial: 0,
      transitions: [
        { from: 0, input: cube([name, true]), output: cube(['out', true]), to: 0 },
        { from: 0, input: cube([name, false]), output: cube(['out', false]), to: 1 },
        { from: 1, input: {}, output: cube(['out', true]), to: 0 },
      ],
    };
    const d = buildDiagram(machine, spec);
    expect(d.edges.map((e) => [e.from, e.to, e.guard, e.updates])).toEqual([
      [0, 0, [[name]], ['out']],
      [0, 1, [[`¬${name}`]], []],
      [1, 0, [[]], ['out']],
    ]);
  });
});
