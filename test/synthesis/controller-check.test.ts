// The independent check of a synthesized controller (src/verify) on the parity route's
// controllers: it keeps to the run's clock (a check that cannot finish answers `unknown` in time
// instead of running past the limit), and a controller is checked once, not again after its free
// outputs are fixed. chain-simple (SYNTCOMP sweap) is the shape whose check used to take most of
// the run: its environment model is forty `G(… → X …)` assumptions.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { MealyMachine, MealyTransition } from '../../src/game/mealy.js';
import type { GameSpec } from '../../src/game/spec.js';
import { minimizeMealy } from '../../src/synthesis/extract.js';
import { checkRealizability, STOPPED_EARLY, synthesizeController } from '../../src/synthesis/index.js';
import { loadTlsfGame } from '../../src/tlsf/index.js';
import * as verify from '../../src/verify/index.js';
import { syntcompCases } from '../support/syntcomp.js';

// Calls to the checker, counted (the solver imports it from this module).
const calls = vi.hoisted(() => ({ controller: 0, machines: [] as MealyMachine[] }));
vi.mock('../../src/verify/index.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/verify/index.js')>();
  return {
    ...original,
    verifyController: (...args: Parameters<typeof original.verifyController>) => {
      calls.controller++;
      calls.machines.push(args[1]);
      return original.verifyController(...args);
    },
  };
});

const cases = syntcompCases();
const load = (file: string): GameSpec => {
  const c = cases.find((x) => x.file === file);
  if (!c) throw new Error(`no fixture for ${file}`);
  return loadTlsfGame(c.file, c.source);
};

describe('the independent check of a parity-route controller', () => {
  beforeEach(() => {
    calls.controller = 0;
    calls.machines = [];
  });

  it.skipIf(cases.length === 0)('decides chain-simple-5 with a controller the checker accepts', () => {
    const spec = load('tlsf/sweap/chain-simple-5-real.tlsf');
    const r = synthesizeController(spec, { timeoutMs: 60_000 });
    expect(r.verdict).toBe('realizable');
    if (r.verdict !== 'realizable') return;
    expect(r.stats.route).toBe('parity');
    expect(calls.controller).toBe(1);
    expect(verify.verifyController(spec, r.controller).ok).toBe(true);
  });

  it.skipIf(cases.length === 0)('checks the bisimulation quotient of the route\'s controller for a bare verdict', () => {
    // The route's controller as extracted has about twice the states (chain-simple-5: 89 → 44).
    const spec = load('tlsf/sweap/chain-simple-5-real.tlsf');
    const r = checkRealizability(spec, { timeoutMs: 60_000 });
    expect(r.verdict).toBe('realizable');
    expect(calls.machines).toHaveLength(1);
    const [checked] = calls.machines;
    expect(minimizeMealy(checked).stateCount).toBe(checked.stateCount);
  });

  it.skipIf(cases.length === 0)('stops when the run is told to while the controller is being checked', () => {
    // Once the check has begun, every clock poll asks to stop: the check must poll the run's
    // clock (before, it had none, and a slow one ran past the deadline to the hard limit).
    const spec = load('tlsf/sweap/chain-simple-5-real.tlsf');
    let checking = false;
    const r = synthesizeController(spec, {
      timeoutMs: 60_000,
      onProgress: (msg) => {
        if (/^independent check of the controller/.test(msg)) checking = true;
      },
      onPoll: () => checking,
    });
    expect(checking).toBe(true);
    expect(r.verdict).toBe('unknown');
    if (r.verdict === 'unknown') expect(r.reason).toBe(STOPPED_EARLY);
  });

  it.skipIf(cases.length === 0)('checks a controller once when minimization merged states and its free outputs are then fixed', () => {
    // heim-double-x: the route's 17 states merge into one exactly (outputs left free), which is
    // checked in minimization; fixing those outputs afterwards needs no second check.
    const spec = load('tlsf/sweap/heim-double-x-real.tlsf');
    const r = synthesizeController(spec, { timeoutMs: 60_000 });
    expect(r.verdict).toBe('realizable');
    if (r.verdict !== 'realizable') return;
    expect(r.stats.route).toBe('parity');
    expect(r.stats.unminimizedStates).toBeGreaterThan(r.controller.stateCount);
    expect(calls.controller).toBe(1);
    // The controller returned fixes every output, and the checker (unmocked) accepts it.
    for (const t of r.controller.transitions) expect(Object.keys(t.output).sort()).toEqual([...r.controller.outputs].sort());
    expect(verify.verifyController(spec, r.controller).ok).toBe(true);
  });
});

describe('fixesOutputsOf', () => {
  const spec: GameSpec = {
    name: 'o',
    semantics: 'mealy',
    inputs: [{ name: 'i' }],
    outputs: [{ name: 'o' }, { name: 'p' }],
    signals: [],
    initially: [],
    preset: [],
    assumptions: [],
    guarantees: [],
  };
  const checked: MealyMachine = {
    inputs: ['i'],
    outputs: ['o', 'p'],
    stateCount: 1,
    initial: 0,
    transitions: [
      { from: 0, input: { i: true }, output: { o: true }, to: 0 },
      { from: 0, input: { i: false }, output: {}, to: 0 },
    ],
  };
  it('accepts a machine that only fixes outputs the checked one left free', () => {
    const refined: MealyMachine = { ...checked, transitions: [{ ...checked.transitions[0], output: { o: true, p: false } }, { ...checked.transitions[1], output: { o: false, p: true } }] };
    expect(verify.fixesOutputsOf(spec, checked, refined)).toBe(true);
  });
  it('refuses one that changes a fixed output, an input cube, a target, or adds a non-output', () => {
    const t0 = checked.transitions[0];
    const t1 = checked.transitions[1];
    const variants: MealyTransition[][] = [
      [{ ...t0, output: { o: false } }, t1],
      [{ ...t0, input: {} }, t1],
      [{ ...t0, input: { i: true, j: true } }, t1],
      [t0, { ...t1, to: 1 }],
      [t0, { ...t1, output: { i: true } }],
      [t0],
    ];
    for (const transitions of variants) expect(verify.fixesOutputsOf(spec, checked, { ...checked, transitions })).toBe(false);
    expect(verify.fixesOutputsOf(spec, checked, { ...checked, stateCount: 2 })).toBe(false);
    expect(verify.fixesOutputsOf(spec, checked, { ...checked, outputs: ['p', 'o'] })).toBe(false);
  });
});
