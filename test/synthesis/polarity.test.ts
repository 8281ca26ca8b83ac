/**
 * Propositions of one polarity are fixed before solving (src/synthesis/polarity.ts): the verdict
 * must be the one of the spec as written, and the witnesses, lifted back, must pass the
 * independent checks against the spec as written.
 */
import { describe, expect, test } from 'vitest';
import { and, ap, F, FALSE, G, iff, implies, not, or, X } from '../../src/ltl/formula.js';
import { checkRealizability, synthesize } from '../../src/synthesis/index.js';
import { fixSinglePolarity, polarities } from '../../src/synthesis/polarity.js';
import { verifyController, verifyCounterstrategy } from '../../src/verify/index.js';
import { prng, randomFormula } from '../automata/random-ltl.js';
import { gameOf } from './helpers.js';

const POSITIVE = 1;
const NEGATIVE = 2;
const BOTH = 3;

describe('polarities', () => {
  test('negation and the left of an implication flip; iff puts both; temporal operators keep', () => {
    const [a, b, c, d, e] = ['a', 'b', 'c', 'd', 'e'].map(ap);
    const p = polarities(and(implies(a, X(b)), G(not(F(c))), iff(d, b), or(e, not(and(e, a)))));
    expect(Object.fromEntries(p)).toEqual({ a: NEGATIVE, b: BOTH, c: NEGATIVE, d: BOTH, e: BOTH });
    expect(Object.fromEntries(polarities(not(implies(a, not(b)))))).toEqual({ a: POSITIVE, b: POSITIVE });
  });
});

describe('fixSinglePolarity', () => {
  test('inputs get their worst value, outputs their best, assumptions count negated', () => {
    const spec = gameOf({ ins: ['r', 'q', 'k'], outs: ['g', 'h'], assume: ['G F k'], guarantee: ['G (r -> F g)', 'G (q | !h)', 'G (g -> X k)'] });
    const fixed = fixSinglePolarity(spec);
    expect(fixed).toBeDefined();
    // r only negatively: always requesting; q only positively: never helping; k occurs both ways
    // (the assumption, negated, and X k); g too; h is wanted false.
    expect(Object.fromEntries(fixed!.fixed.inputs)).toEqual({ r: true, q: false });
    expect(Object.fromEntries(fixed!.fixed.outputs)).toEqual({ h: false });
    expect(fixed!.spec.inputs.map((p) => p.name)).toEqual(['k']);
    expect(fixed!.spec.outputs.map((p) => p.name)).toEqual(['g']);
  });

  test('repeats until nothing changes: fixing one proposition can leave another with one polarity', () => {
    // Round one fixes i (false) and o (true), which removes the only negative occurrence of j.
    const spec = gameOf({ ins: ['i', 'j'], outs: ['o'], guarantee: ['G ((i & !j) | o)', 'G F j'] });
    const fixed = fixSinglePolarity(spec)!;
    expect(Object.fromEntries(fixed.fixed.inputs)).toEqual({ i: false, j: false });
    expect(fixed.spec.guarantees.map((p) => p.formula)).toEqual([FALSE]);
    expect(checkRealizability(spec, { timeoutMs: 5_000 }).verdict).toBe('unrealizable');
  });

  test('updates of a signal are never fixed (the signal rule puts them under both polarities)', () => {
    const spec = gameOf({ ins: ['q'], signals: { x: ['x_keep', 'x_g'] }, guarantee: ['G (q -> x_g)'] });
    const fixed = fixSinglePolarity(spec)!;
    expect([...fixed.fixed.outputs.keys()]).toEqual([]);
    expect(Object.fromEntries(fixed.fixed.inputs)).toEqual({ q: true });
    expect(fixed.spec.signals).toEqual(spec.signals);
  });

  test('a spec where every proposition occurs both ways is left alone', () => {
    expect(fixSinglePolarity(gameOf({ ins: ['r'], outs: ['g'], guarantee: ['G (r <-> X g)'] }))).toBeUndefined();
  });
});

describe('solving with propositions fixed', () => {
  test('a controller is lifted back: the fixed outputs in every transition, checked against the spec as written', () => {
    const spec = gameOf({ ins: ['r', 'c'], outs: ['g', 'h'], guarantee: ['G (r -> F g)', 'G (c <-> X h)'] });
    const messages: string[] = [];
    const r = synthesize(spec, { timeoutMs: 5_000, onProgress: (m) => messages.push(m) });
    expect(messages.some((m) => m.startsWith('fixed 2 propositions of one polarity'))).toBe(true);
    expect(r.verdict).toBe('realizable');
    if (r.verdict !== 'realizable') return;
    expect(r.controller.inputs).toEqual(['r', 'c']);
    expect(r.controller.outputs).toEqual(['g', 'h']);
    for (const t of r.controller.transitions) expect(t.output.g).toBe(true);
    expect(verifyController(spec, r.controller).ok).toBe(true);
  });

  test('a counterstrategy is lifted back: it plays the fixed inputs, and defeats the spec as written', () => {
    // q only positively (fixed false): the environment never helps; o0 only positively (fixed true).
    const spec = gameOf({ ins: ['q', 'i'], outs: ['o0', 'o1'], guarantee: ['G (q | o0)', 'G (o1 <-> X i)'] });
    for (const route of ['bounded', 'parity'] as const) {
      const r = synthesize(spec, { timeoutMs: 5_000, route });
      expect(r.verdict).toBe('unrealizable');
      if (r.verdict !== 'unrealizable') continue;
      expect(r.counterstrategy.inputs).toEqual(['q', 'i']);
      for (const t of r.counterstrategy.transitions) expect(t.input.q).toBe(false);
      expect(verifyCounterstrategy(spec, r.counterstrategy)).toMatchObject({ ok: true });
    }
  });

  test('an INITIALLY part fixed to true stays: the counterstrategy must still answer as for the spec as written', () => {
    // i0 occurs only positively (INITIALLY counts negated): fixed false, INITIALLY becomes true.
    const spec = gameOf({ ins: ['i0', 'i1'], outs: ['o0'], initially: ['!i0'], guarantee: ['G F i0', 'G (F i1 -> F o0)'] });
    expect(fixSinglePolarity(spec)!.spec.initially).toHaveLength(1);
    const r = synthesize(spec, { timeoutMs: 5_000, route: 'bounded' });
    expect(r.verdict).toBe('unrealizable');
    if (r.verdict === 'unrealizable') expect(verifyCounterstrategy(spec, r.counterstrategy)).toMatchObject({ ok: true });
  });

  test('a TSL controller is solved as written; its verdict alone is solved with the predicates fixed', () => {
    const spec = gameOf({ ins: ['q'], signals: { x: ['x_keep', 'x_g'] }, guarantee: ['G (q -> x_g)'] });
    const controller: string[] = [];
    const verdict: string[] = [];
    expect(synthesize(spec, { timeoutMs: 5_000, onProgress: (m) => controller.push(m) }).verdict).toBe('realizable');
    expect(checkRealizability(spec, { timeoutMs: 5_000, onProgress: (m) => verdict.push(m) }).verdict).toBe('realizable');
    expect(controller.some((m) => m.startsWith('fixed'))).toBe(false);
    expect(verdict.some((m) => m.startsWith('fixed 1 propositions'))).toBe(true);
  });

  for (const semantics of ['mealy', 'moore'] as const)
    test(`where a TSL controller is wanted, the dual game plays the fixed spec, first: its counterstrategy is lifted and checked (${semantics})`, () => {
      // q occurs only negatively; `G F r` fails on its own whatever the controller does.
      const spec = gameOf({ ins: ['r', 'q'], semantics, signals: { x: ['x_keep', 'x_f'] }, assume: ['G (x_f -> X q)'], guarantee: ['G F r', 'G (q -> X x_f)', 'G (r -> F x_keep)'] });
      const messages: string[] = [];
      const r = synthesize(spec, { timeoutMs: 20_000, route: 'bounded', onProgress: (m) => messages.push(m) });
      expect(r.verdict).toBe('unrealizable');
      expect(messages[0]).toBe('automaton for φ: 4 states (1 propositions fixed, probed first)');
      if (r.verdict !== 'unrealizable') return;
      expect(r.counterstrategy.inputs).toEqual(['r', 'q']);
      for (const t of r.counterstrategy.transitions) expect(t.input.q).toBe(true);
      expect(verifyCounterstrategy(spec, r.counterstrategy)).toMatchObject({ ok: true });
    });

  test("where a TSL controller is wanted, the primal game plays the spec as written: the controller's", () => {
    const spec = gameOf({ ins: ['q', 'p'], signals: { x: ['x_keep', 'x_g'] }, guarantee: ['G (q -> x_g)', 'G (p -> F x_g)'] });
    const messages: string[] = [];
    const r = synthesize(spec, { timeoutMs: 20_000, route: 'bounded', onProgress: (m) => messages.push(m) });
    expect(messages.some((m) => m.endsWith('propositions fixed, probed first)'))).toBe(true);
    expect(r.verdict).toBe('realizable');
    if (r.verdict !== 'realizable') return;
    // As written: without q the controller keeps x (fixed, q would be true every turn).
    const idle = r.controller.transitions.filter((t) => t.input.q === false && t.input.p !== true);
    expect(idle.length).toBeGreaterThan(0);
    expect(idle.every((t) => t.output.x_keep)).toBe(true);
  });

  // Random specs, each solved as written and with its propositions fixed: the verdicts agree, and
  // every witness of the fixed spec passes the check against the spec as written.
  test('random specs: the same verdicts as written, and witnesses that pass the checks', () => {
    const rand = prng(7);
    const ins = ['a', 'b', 'c'];
    const outs = ['x', 'y'];
    let compared = 0;
    let fixedSome = 0;
    for (let k = 0; k < 160; k++) {
      const formula = () => randomFormula(rand, [...ins, ...outs], 3);
      const spec = gameOf({
        ins,
        outs,
        semantics: k % 4 === 3 ? 'moore' : 'mealy',
        assume: k % 2 === 0 ? [formula()] : [],
        guarantee: [formula(), formula()],
      });
      if (fixSinglePolarity(spec)) fixedSome++;
      const asWritten = checkRealizability(spec, { timeoutMs: 2_000, polarity: false });
      const fixed = synthesize(spec, { timeoutMs: 2_000 });
      if (asWritten.verdict === 'unknown' || fixed.verdict === 'unknown') continue;
      compared++;
      expect(fixed.verdict, `spec ${k}`).toBe(asWritten.verdict);
      const checked = fixed.verdict === 'realizable' ? verifyController(spec, fixed.controller) : verifyCounterstrategy(spec, fixed.counterstrategy);
      expect(checked.ok, `spec ${k}`).toBe(true);
    }
    expect(compared).toBeGreaterThan(120);
    expect(fixedSome).toBeGreaterThan(40);
  });
});
