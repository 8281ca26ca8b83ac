import { describe, expect, it } from 'vitest';
import { evaluateOnLasso, type Lasso } from '../../src/automata/lasso.js';
import type { MealyMachine, MealyTransition } from '../../src/game/mealy.js';
import { type GameSpec, specFormula } from '../../src/game/spec.js';
import { ap, F, type Formula, G, implies, not, X } from '../../src/ltl/formula.js';
import { checkTraceAgainstSpec, type ControllerStep, InternalVerificationError, verifyController, verifyOrThrow } from '../../src/verify/index.js';
import { prng, randomFormula } from '../automata/random-ltl.js';

const r = ap('r');
const g = ap('g');

function spec(parts: { guarantees: Formula[]; assumptions?: Formula[]; signals?: GameSpec['signals']; outputs?: string[]; inputs?: string[] }): GameSpec {
  return {
    name: 'test-spec',
    semantics: 'mealy',
    inputs: (parts.inputs ?? ['r']).map((name) => ({ name })),
    outputs: (parts.outputs ?? ['g']).map((name) => ({ name })),
    signals: parts.signals ?? [],
    initially: [],
    preset: [],
    assumptions: (parts.assumptions ?? []).map((formula) => ({ formula })),
    guarantees: parts.guarantees.map((formula) => ({ formula })),
  };
}

function machine(stateCount: number, transitions: MealyTransition[], io = { inputs: ['r'], outputs: ['g'] }): MealyMachine {
  return { ...io, stateCount, initial: 0, transitions };
}
const t = (from: number, input: Record<string, boolean>, output: Record<string, boolean>, to: number): MealyTransition => ({ from, input, output, to });

/** The counterexample as a word, so the LTL semantics (no automata) can judge it. */
function wordOf(cx: { prefix: ControllerStep[]; cycle: ControllerStep[] }): Lasso {
  const letter = (s: ControllerStep) => new Set([...Object.entries(s.inputs), ...Object.entries(s.outputs)].filter(([, v]) => v).map(([k]) => k));
  return { prefix: cx.prefix.map(letter), cycle: cx.cycle.map(letter) };
}

function expectViolation(s: GameSpec, m: MealyMachine): void {
  const res = verifyController(s, m);
  expect(res.ok).toBe(false);
  if (res.ok) return;
  expect(res.kind).toBe('violation');
  expect(res.counterexample).toBeDefined();
  expect(res.counterexample!.cycle.length).toBeGreaterThan(0);
  // The lasso must really be an execution that violates the spec.
  expect(evaluateOnLasso(specFormula(s), wordOf(res.counterexample!))).toBe(false);
}

describe('verifyController: correct controllers', () => {
  it('accepts an always-grant controller for G(r -> F g)', () => {
    const res = verifyController(spec({ guarantees: [G(implies(r, F(g)))] }), machine(1, [t(0, {}, { g: true }, 0)]));
    expect(res).toMatchObject({ ok: true });
    if (res.ok) expect(res.productStates).toBeGreaterThan(0);
  });
  it('accepts a delayed grant (two states) for G(r -> X g)', () => {
    const m = machine(2, [t(0, { r: true }, { g: false }, 1), t(0, { r: false }, { g: false }, 0), t(1, { r: true }, { g: true }, 1), t(1, { r: false }, { g: true }, 0)]);
    expect(verifyController(spec({ guarantees: [G(implies(r, X(g)))] }), m).ok).toBe(true);
  });
  it('accepts a controller that relies on the assumption, and rejects it without', () => {
    // Grants exactly when requested: G F g holds only if the environment requests infinitely often.
    const m = machine(1, [t(0, { r: true }, { g: true }, 0), t(0, { r: false }, { g: false }, 0)]);
    expect(verifyController(spec({ guarantees: [G(F(g))], assumptions: [G(F(r))] }), m).ok).toBe(true);
    expectViolation(spec({ guarantees: [G(F(g))] }), m);
  });
  it('accepts a partial output cube when every completion is fine', () => {
    const s = spec({ guarantees: [G(implies(r, g))], outputs: ['g', 'h'] });
    const m = machine(1, [t(0, {}, { g: true }, 0)], { inputs: ['r'], outputs: ['g', 'h'] });
    expect(verifyController(s, m).ok).toBe(true);
  });
});

describe('verifyController: broken controllers', () => {
  it('rejects a wrong output (violation with a real counterexample)', () => {
    const m = machine(1, [t(0, { r: true }, { g: false }, 0), t(0, { r: false }, { g: true }, 0)]);
    expectViolation(spec({ guarantees: [G(implies(r, g))] }), m);
  });
  it('rejects a missing transition (incomplete) and names the input', () => {
    const res = verifyController(spec({ guarantees: [G(g)] }), machine(1, [t(0, { r: true }, { g: true }, 0)]));
    expect(res).toMatchObject({ ok: false, kind: 'incomplete' });
    if (!res.ok) expect(res.message).toContain('r=false');
  });
  it('rejects a bad target state (malformed)', () => {
    const res = verifyController(spec({ guarantees: [G(g)] }), machine(1, [t(0, {}, { g: true }, 3)]));
    expect(res).toMatchObject({ ok: false, kind: 'malformed' });
  });
  it('rejects unknown propositions and outputs in input cubes (malformed)', () => {
    const s = spec({ guarantees: [G(g)] });
    expect(verifyController(s, machine(1, [t(0, {}, { zz: true }, 0)]))).toMatchObject({ ok: false, kind: 'malformed' });
    expect(verifyController(s, machine(1, [t(0, { g: true }, { g: true }, 0), t(0, { g: false }, { g: true }, 0)]))).toMatchObject({ ok: false, kind: 'malformed' });
    expect(verifyController(s, machine(1, [t(0, {}, { r: true, g: true }, 0)]))).toMatchObject({ ok: false, kind: 'malformed' });
  });
  it('rejects a liveness violation that only shows in a cycle', () => {
    // Grants only when there is no request: under constant requests it never grants.
    const m = machine(2, [
      t(0, { r: true }, { g: false }, 1),
      t(0, { r: false }, { g: true }, 0),
      t(1, { r: true }, { g: false }, 0),
      t(1, { r: false }, { g: true }, 1),
    ]);
    const s = spec({ guarantees: [G(implies(r, F(g)))] });
    expectViolation(s, m);
    const res = verifyController(s, m);
    if (!res.ok) expect(res.counterexample!.cycle.every((step) => step.inputs.r && !step.outputs.g)).toBe(true);
  });
  it('rejects a controller that breaks the signal exactly-one constraint', () => {
    const signals = [{ signal: 'x', updates: ['x_keep', 'x_inc'], selfUpdate: 'x_keep' }];
    const io = { inputs: ['r'], outputs: ['x_keep', 'x_inc'] };
    const s = spec({ guarantees: [G(implies(r, ap('x_inc')))], signals, outputs: io.outputs });
    const good = machine(1, [t(0, { r: true }, { x_inc: true, x_keep: false }, 0), t(0, { r: false }, { x_inc: false, x_keep: true }, 0)], io);
    expect(verifyController(s, good).ok).toBe(true);
    const both = machine(1, [t(0, { r: true }, { x_inc: true, x_keep: true }, 0), t(0, { r: false }, { x_inc: false, x_keep: true }, 0)], io);
    expectViolation(s, both);
    // Leaving the signal's updates free lets the code generator pick "none": also a violation.
    const free = machine(1, [t(0, { r: true }, { x_inc: true }, 0), t(0, { r: false }, { x_inc: false, x_keep: true }, 0)], io);
    expectViolation(s, free);
  });
  it('verifyOrThrow names the spec and prints the lasso', () => {
    const m = machine(1, [t(0, {}, { g: false }, 0)]);
    const s = spec({ guarantees: [G(F(g))] });
    expect(() => verifyOrThrow(s, m)).toThrow(InternalVerificationError);
    try {
      verifyOrThrow(s, m);
    } catch (e) {
      expect((e as Error).message).toContain("'test-spec'");
      expect((e as Error).message).toContain('repeat forever');
    }
    expect(verifyOrThrow(s, machine(1, [t(0, {}, { g: true }, 0)])).productStates).toBeGreaterThan(0);
  });
});

/**
 * Cross-check against brute force: random complete machines (input r, output g), random
 * formulas. A reported violation must come with a lasso the LTL semantics rejects; an accepted
 * machine must satisfy the formula on every small input lasso (simulated, no automata).
 */
describe('verifyController vs. simulation on random machines', () => {
  it('agrees on 300 random (machine, formula) pairs', () => {
    const rand = prng(99);
    let accepted = 0;
    let rejected = 0;
    for (let k = 0; k < 300; k++) {
      const n = 1 + Math.floor(rand() * 3);
      const ts: MealyTransition[] = [];
      for (let s = 0; s < n; s++)
        for (const rv of [false, true]) ts.push(t(s, { r: rv }, { g: rand() < 0.5 }, Math.floor(rand() * n)));
      const m = machine(n, ts);
      const phi = randomFormula(rand, ['r', 'g'], 3);
      const s = spec({ guarantees: [phi] });
      const res = verifyController(s, m);
      if (!res.ok) {
        expect(res.kind).toBe('violation');
        expect(evaluateOnLasso(phi, wordOf(res.counterexample!))).toBe(false);
        rejected++;
      } else {
        for (const w of smallInputLassos()) expect(evaluateOnLasso(phi, simulate(m, w))).toBe(true);
        accepted++;
      }
    }
    expect(accepted).toBeGreaterThan(30);
    expect(rejected).toBeGreaterThan(30);
  });
});

function smallInputLassos(): { prefix: boolean[]; cycle: boolean[] }[] {
  const seqs = (len: number): boolean[][] => (len === 0 ? [[]] : seqs(len - 1).flatMap((s) => [[...s, false], [...s, true]]));
  const out: { prefix: boolean[]; cycle: boolean[] }[] = [];
  for (let p = 0; p <= 2; p++) for (let c = 1; c <= 3; c++) for (const prefix of seqs(p)) for (const cycle of seqs(c)) out.push({ prefix, cycle });
  return out;
}

/** Run a deterministic complete machine on an input lasso; the joint word is again a lasso. */
function simulate(m: MealyMachine, w: { prefix: boolean[]; cycle: boolean[] }): Lasso {
  const step = (s: number, rv: boolean) => m.transitions.find((x) => x.from === s && x.input.r === rv)!;
  const letters: Set<string>[] = [];
  let s = m.initial;
  for (const rv of w.prefix) {
    const tr = step(s, rv);
    letters.push(new Set([...(rv ? ['r'] : []), ...(tr.output.g ? ['g'] : [])]));
    s = tr.to;
  }
  const seen = new Map<string, number>();
  for (let i = 0; ; i++) {
    const pos = i % w.cycle.length;
    const key = `${s},${pos}`;
    const start = seen.get(key);
    if (start !== undefined) return { prefix: letters.slice(0, start), cycle: letters.slice(start) };
    seen.set(key, letters.length);
    const rv = w.cycle[pos];
    const tr = step(s, rv);
    letters.push(new Set([...(rv ? ['r'] : []), ...(tr.output.g ? ['g'] : [])]));
    s = tr.to;
  }
}


describe('checkTraceAgainstSpec', () => {
  const step = (rv: boolean, gv: boolean): ControllerStep => ({ state: 0, inputs: { r: rv }, outputs: { g: gv } });
  it('finds the first step after which the safety spec is violated', () => {
    const s = spec({ guarantees: [G(implies(r, X(g)))] });
    expect(checkTraceAgainstSpec(s, [step(false, false), step(true, false), step(false, true)])).toEqual({ badPrefix: false });
    expect(checkTraceAgainstSpec(s, [step(false, false), step(true, false), step(false, false), step(true, true)])).toEqual({ badPrefix: true, step: 2 });
  });
  it('never reports a bad prefix for pure liveness', () => {
    const s = spec({ guarantees: [G(F(g))] });
    expect(checkTraceAgainstSpec(s, Array.from({ length: 20 }, () => step(true, false))).badPrefix).toBe(false);
  });
  it('detects prefixes that are bad only because of future obligations that cannot all be met', () => {
    // r now forces both g and ¬g next: the first step is already fatal, though nothing failed yet.
    const s = spec({ guarantees: [G(implies(r, X(g))), G(implies(r, X(not(g))))] });
    expect(checkTraceAgainstSpec(s, [step(true, false)])).toEqual({ badPrefix: true, step: 0 });
  });
});

describe('verifyController with partial output cubes', () => {
  it('treats free outputs as "any completion" (150 random machines with partial output cubes)', () => {
    const rand = prng(3);
    let ok = 0, bad = 0;
    for (let k = 0; k < 150; k++) {
      const n = 1 + Math.floor(rand() * 3);
      const ts: MealyTransition[] = [];
      for (let s = 0; s < n; s++)
        for (const rv of [false, true]) {
          const output: Record<string, boolean> = {};
          for (const o of ['g', 'h']) if (rand() < 0.7) output[o] = rand() < 0.5;
          ts.push({ from: s, input: { r: rv }, output, to: Math.floor(rand() * n) });
        }
      const m: MealyMachine = { inputs: ['r'], outputs: ['g', 'h'], stateCount: n, initial: 0, transitions: ts };
      const phi = randomFormula(rand, ['r', 'g', 'h'], 3);
      const s2 = { name: 's', semantics: 'mealy' as const, inputs: [{ name: 'r' }], outputs: [{ name: 'g' }, { name: 'h' }], signals: [], initially: [], preset: [], assumptions: [], guarantees: [{ formula: phi }] };
      const res = verifyController(s2, m);
      if (!res.ok) {
        expect(evaluateOnLasso(phi, wordOf(res.counterexample!))).toBe(false);
        bad++;
        continue;
      }
      ok++;
      // Every completion of the free outputs must be fine on small input lassos.
      for (let c = 0; c < 4; c++) {
        const full = ts.map((t) => ({ ...t, output: { g: t.output.g ?? rand() < 0.5, h: t.output.h ?? rand() < 0.5 } }));
        for (let p = 0; p <= 2; p++)
          for (let cl = 1; cl <= 3; cl++)
            for (let bits = 0; bits < 1 << (p + cl); bits++) {
              const ins = Array.from({ length: p + cl }, (_, i) => ((bits >> i) & 1) === 1);
              const w = simulateTwoOutputs(full, ins.slice(0, p), ins.slice(p));
              if (!evaluateOnLasso(phi, w)) throw new Error('verifier accepted a machine with a violating completion');
            }
      }
    }
    expect(ok).toBeGreaterThan(10);
    expect(bad).toBeGreaterThan(20);
  });
});

function simulateTwoOutputs(ts: MealyTransition[], prefix: boolean[], cycle: boolean[]): Lasso {
  const step = (s: number, rv: boolean) => ts.find((x) => x.from === s && x.input.r === rv)!;
  const letter = (rv: boolean, t: MealyTransition) => new Set([...(rv ? ['r'] : []), ...(t.output.g ? ['g'] : []), ...(t.output.h ? ['h'] : [])]);
  const letters: Set<string>[] = [];
  let s = 0;
  for (const rv of prefix) { const t = step(s, rv); letters.push(letter(rv, t)); s = t.to; }
  const seen = new Map<string, number>();
  for (let i = 0; ; i++) {
    const pos = i % cycle.length;
    const key = `${s},${pos}`;
    const start = seen.get(key);
    if (start !== undefined) return { prefix: letters.slice(0, start), cycle: letters.slice(start) };
    seen.set(key, letters.length);
    const t = step(s, cycle[pos]); letters.push(letter(cycle[pos], t)); s = t.to;
  }
}

describe('verifyController on tableau states too large to expand for all letters at once', () => {
  // Eleven invariants G(a_i → X b): a state of them has 2^11 terms over unconstrained letters,
  // so the tableau expands it per controller transition, conjunct by conjunct (each conjunct's
  // expansion shared across transitions, the targets conjoined once per term).
  const names = Array.from({ length: 11 }, (_, i) => `a${i}`);
  const assumptions = names.map((a) => G(implies(ap(a), X(ap('b')))));
  const s = spec({ inputs: [...names, 'b'], outputs: ['g'], assumptions, guarantees: [G(implies(ap('a0'), X(ap('g'))))] });
  const io = { inputs: [...names, 'b'], outputs: ['g'] };

  it('accepts a controller that answers after a0 (partial and complete input cubes)', () => {
    const m = machine(
      2,
      [t(0, { a0: true }, {}, 1), t(0, { a0: false }, { g: false }, 0), t(1, { a0: true }, { g: true }, 1), t(1, { a0: false, a1: true }, { g: true }, 0), t(1, { a0: false, a1: false }, { g: true }, 0)],
      io,
    );
    const res = verifyController(s, m);
    expect(res.ok).toBe(true);
  });

  it('rejects one that forgets on a1, with a counterexample the spec really fails on', () => {
    const m = machine(
      2,
      [t(0, { a0: true }, {}, 1), t(0, { a0: false }, { g: false }, 0), t(1, { a0: true }, { g: true }, 1), t(1, { a0: false, a1: true }, { g: false }, 0), t(1, { a0: false, a1: false }, { g: true }, 0)],
      io,
    );
    const res = verifyController(s, m);
    expect(res.ok).toBe(false);
    if (res.ok || !res.counterexample) throw new Error('expected a counterexample');
    expect(evaluateOnLasso(specFormula(s), wordOf(res.counterexample))).toBe(false);
  });
});
