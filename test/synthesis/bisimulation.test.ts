// Bisimulation minimization of controllers (minimizeMealy in src/synthesis/extract.ts) compares
// what each state does, not how its inputs happen to be cut into cubes.
import { describe, expect, it } from 'vitest';
import type { MealyMachine } from '../../src/game/mealy.js';
import { minimizeMealy } from '../../src/synthesis/extract.js';

/** A machine over input i and output o. */
const machine = (stateCount: number, initial: number, transitions: MealyMachine['transitions']): MealyMachine => ({ inputs: ['i'], outputs: ['o'], stateCount, initial, transitions });

describe('minimizeMealy', () => {
  it('merges states whose behaviour is the same although their input cubes differ', () => {
    // Both states answer o on every input and stay among themselves; state 1 cuts its inputs by i.
    const m = machine(2, 0, [
      { from: 0, input: {}, output: { o: true }, to: 1 },
      { from: 1, input: { i: true }, output: { o: true }, to: 0 },
      { from: 1, input: { i: false }, output: { o: true }, to: 1 },
    ]);
    expect(minimizeMealy(m).stateCount).toBe(1);
  });

  it('keeps states apart that answer differently on some input', () => {
    const m = machine(2, 0, [
      { from: 0, input: {}, output: { o: true }, to: 1 },
      { from: 1, input: { i: true }, output: { o: true }, to: 0 },
      { from: 1, input: { i: false }, output: { o: false }, to: 1 },
    ]);
    expect(minimizeMealy(m).stateCount).toBe(2);
  });

  it('keeps states apart whose equal outputs lead to different blocks', () => {
    // State 2 answers o=false, so states 0 and 1 differ in where o=true leads on i=false.
    const m = machine(3, 1, [
      { from: 0, input: {}, output: { o: true }, to: 0 },
      { from: 1, input: { i: true }, output: { o: true }, to: 1 },
      { from: 1, input: { i: false }, output: { o: true }, to: 2 },
      { from: 2, input: {}, output: { o: false }, to: 0 },
    ]);
    expect(minimizeMealy(m).stateCount).toBe(3);
  });

  it('tells output cubes apart whatever characters the names contain', () => {
    // Spot syntax allows any name in double quotes: {"a&b"} and {a, b} once made the same key
    // ("a&b"), and the two states below were merged into one that answers like state 0 only.
    const m: MealyMachine = {
      inputs: ['i'],
      outputs: ['a', 'b', 'a&b'],
      stateCount: 2,
      initial: 0,
      transitions: [
        { from: 0, input: {}, output: { 'a&b': true }, to: 1 },
        { from: 1, input: {}, output: { a: true, b: true }, to: 0 },
      ],
    };
    expect(minimizeMealy(m).stateCount).toBe(2);
  });
});
