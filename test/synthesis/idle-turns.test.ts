/**
 * The idle-turn measure (src/synthesis/idle-turns.ts): turns in which every output keeps its
 * value while an eventuality of the guarantees is open, by LTL progression, up to the first turn
 * that breaks an assumption.
 */
import { describe, expect, test } from 'vitest';
import { parseFormula } from '../../src/ltl/parse.js';
import { hasOpenEventuality, idleTurns } from '../../src/synthesis/idle-turns.js';
import { gameOf } from './helpers.js';

describe('open eventualities', () => {
  test.each([
    ['F p', true],
    ['p U q', true],
    ['!(G p)', true],
    ['!(p W q)', true],
    ['q & (p -> F q)', true],
    ['G F p', false],
    ['G p', false],
    ['X F p', false],
    ['!(F p)', false],
    ['p W q', false],
    ['(F p) -> q', false],
  ])('%s: %s', (text, open) => {
    expect(hasOpenEventuality(parseFormula(text))).toBe(open);
  });
});

describe('idle turns', () => {
  // Ask with `go`, and the environment promises `done` eventually; `done` is wanted again and again.
  const spec = gameOf({
    ins: ['done'],
    signals: { o: ['o_keep', 'o_go'] },
    initially: ['!done'],
    assume: ['G (o_go -> F done)'],
    guarantee: ['G F done'],
  });
  const step = (done: boolean, go: boolean) => ({ inputs: { done }, outputs: { o_keep: !go, o_go: go } });

  test('an idle turn with `done` open counts; acting, or a turn that meets it, does not', () => {
    const report = idleTurns(spec, [step(false, false), step(false, true), step(false, false), step(true, false), step(false, true)]);
    // Turn 3 meets `F done` with idle outputs: nothing is pending after it.
    expect(report).toEqual({ turns: 5, pending: 4, idle: [0, 2] });
  });

  test('counting stops at the first turn that breaks an assumption or INITIALLY', () => {
    expect(idleTurns(spec, [step(true, false), step(false, false)])).toEqual({ turns: 0, pending: 0, idle: [], assumptionsBrokenAt: 0 });
    const strict = gameOf({ ins: ['done'], signals: { o: ['o_keep', 'o_go'] }, assume: ['G (o_go <-> X done)'], guarantee: ['G F done'] });
    const report = idleTurns(strict, [step(false, false), step(false, true), step(false, false), step(false, false)]);
    // Turn 2 breaks `o_go <-> X done` (no `done` after the request): turns 0–1 are examined.
    expect(report).toEqual({ turns: 2, pending: 2, idle: [0], assumptionsBrokenAt: 2 });
  });

  test('free boolean outputs are idle when false', () => {
    const free = gameOf({ ins: ['r'], outs: ['g'], guarantee: ['G (r -> F g)'] });
    const report = idleTurns(free, [
      { inputs: { r: true }, outputs: { g: false } },
      { inputs: { r: false }, outputs: { g: true } },
      { inputs: { r: false }, outputs: { g: false } },
    ]);
    // Turn 1 meets the request by acting; idling there would have left `F g` open.
    expect(report).toEqual({ turns: 3, pending: 2, idle: [0] });
  });
});
