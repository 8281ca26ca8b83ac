/**
 * Strategy choice (extract.ts, progress.ts, waiting.ts): among the winning moves a controller acts
 * on pending obligations, keeps the other signals, and does not fall silent while the spec waits
 * for something the environment has promised. Every controller here also passes the independent
 * check, as all of synthesize's do.
 */
import { describe, expect, test } from 'vitest';
import { BddManager } from '../../src/automata/bdd.js';
import { translateLtlSymbolic } from '../../src/automata/translate.js';
import type { MealyMachine } from '../../src/game/mealy.js';
import { not } from '../../src/ltl/formula.js';
import { parseFormula } from '../../src/ltl/parse.js';
import { idleTurns } from '../../src/synthesis/idle-turns.js';
import { synthesize } from '../../src/synthesis/index.js';
import { ucwFromTgba } from '../../src/synthesis/ucw.js';
import { actWhileWaiting, hasEventuality } from '../../src/synthesis/waiting.js';
import { verifyController } from '../../src/verify/index.js';
import { gameOf, playWithinAssumptions } from './helpers.js';

// Ask with `go`; the environment promises `done` eventually. `done` is wanted again and again, and
// the cell `c` may only be bumped when `done` is false (nothing needs it).
const spec = gameOf({
  ins: ['done'],
  signals: { o: ['o_keep', 'o_go'], c: ['c_keep', 'c_inc'] },
  initially: ['!done'],
  assume: ['G (o_go -> F done)'],
  guarantee: ['G F done', 'G (c_inc -> !done)'],
});

function controllerOf(): MealyMachine {
  const result = synthesize(spec, { timeoutMs: 60_000 });
  if (result.verdict !== 'realizable') throw new Error(`expected realizable, got ${result.verdict}`);
  expect(verifyController(spec, result.controller).ok).toBe(true);
  return result.controller;
}

describe('controllers that act', () => {
  test('ask on the first turn, and again every turn while `done` is still owed', () => {
    const m = controllerOf();
    const first = m.transitions.find((t) => t.from === m.initial && t.input.done !== true)!;
    expect(first.output.o_go).toBe(true);
    let pending = 0;
    for (const steps of playWithinAssumptions(spec, m, 30, 25, 7)) {
      const report = idleTurns(spec, steps);
      expect(report.idle).toEqual([]);
      pending += report.pending;
    }
    expect(pending).toBeGreaterThan(100);
  });

  test('keep signals that no pending obligation concerns, and everything once nothing is pending', () => {
    const m = controllerOf();
    for (const steps of playWithinAssumptions(spec, m, 30, 25, 11))
      for (const { inputs, outputs } of steps) {
        expect(outputs.c_inc).toBe(false);
        // A turn with `done` meets the obligation: there is nothing to ask for.
        if (inputs.done) expect(outputs.o_go).toBe(false);
      }
  });
});

describe('acting while the spec waits (waiting.ts)', () => {
  // One state: idle on every input. The game says `o_go` is as good as `o_keep` on `!done`.
  const idle: MealyMachine = {
    inputs: ['done'],
    outputs: ['o_keep', 'o_go', 'c_keep', 'c_inc'],
    stateCount: 1,
    initial: 0,
    transitions: [
      { from: 0, input: { done: false }, output: { o_keep: true, o_go: false, c_keep: true, c_inc: false }, to: 0 },
      { from: 0, input: { done: true }, output: { o_keep: true, o_go: false, c_keep: true, c_inc: false }, to: 0 },
    ],
  };
  const go = { o_keep: false, o_go: true, c_keep: true, c_inc: false };
  const bump = { o_keep: true, o_go: false, c_keep: false, c_inc: true };
  const guarantee = (text: string, props: string[]) => ({
    ucw: ucwFromTgba(translateLtlSymbolic(not(parseFormula(text)), new BddManager())),
    props: new Set(props),
  });

  test('swaps an idle move for an equivalent one that serves the open guarantee', () => {
    const acted = actWhileWaiting(idle, new Map([[0, [bump, go]]]), [guarantee('G F done', ['done', 'o_go'])], () => {});
    expect(acted.transitions[0].output).toEqual(go);
    expect(acted.transitions[1]).toBe(idle.transitions[1]);
  });

  test('leaves it when no equivalent serves an open guarantee, or nothing is open', () => {
    const unrelated = actWhileWaiting(idle, new Map([[0, [bump]]]), [guarantee('G F done', ['done', 'o_go'])], () => {});
    expect(unrelated).toBe(idle);
    const safety = actWhileWaiting(idle, new Map([[0, [go]]]), [guarantee('G (c_inc -> !done)', ['done', 'c_inc'])], () => {});
    expect(safety).toBe(idle);
  });

  test.each([
    ['G F done', true],
    ['G (a -> X b)', false],
    ['a W b', false],
    ['!(a W b)', true],
    ['G (a -> (b U c))', true],
  ])('%s has an eventuality: %s', (text, expected) => {
    expect(hasEventuality(parseFormula(text))).toBe(expected);
  });
});
