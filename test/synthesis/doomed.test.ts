/**
 * Doomed automaton states (a token there loses at every bound): the move table's BDD
 * quantification must agree with brute force over the movers' options, must find more than the
 * plain rejecting sinks (`true` self-loops), and a spec whose guarantees fall into such states
 * under a GF assumption must still be solved correctly.
 */
import { describe, expect, test } from 'vitest';
import { translateLtlSymbolic } from '../../src/automata/translate.js';
import { BDD_TRUE, BddManager } from '../../src/automata/bdd.js';
import type { Cube } from '../../src/game/mealy.js';
import { and, ap, evalPropositional, F, G, implies, not } from '../../src/ltl/formula.js';
import { MoveTable } from '../../src/synthesis/game.js';
import { synthesize } from '../../src/synthesis/index.js';
import { checkControllerAgainst } from '../../src/synthesis/selfcheck.js';
import { type Dimension, dimensionsFor } from '../../src/synthesis/split.js';
import { ucwFromTgba } from '../../src/synthesis/ucw.js';
import { prng, randomFormula } from '../automata/random-ltl.js';
import { gameOf } from './helpers.js';

const INPUTS = ['a', 'b'];
const SIGNALS = [
  { updates: ['x_keep', 'x_inc', 'x_dec'], selfUpdate: 'x_keep' },
  { updates: ['y_keep', 'y_set'], selfUpdate: 'y_keep' },
];
const OUTPUTS = SIGNALS.flatMap((s) => s.updates);

/** Every complete move of a mover: one option per dimension. */
function moves(dims: readonly Dimension[]): Cube[] {
  let out: Cube[] = [{}];
  for (const d of dims) out = out.flatMap((c) => d.options.map((o) => ({ ...c, ...o })));
  return out;
}

describe('doomed states', () => {
  test('agree with brute force over both movers, in both roles', () => {
    const envDims = dimensionsFor(INPUTS, []);
    const outDims = dimensionsFor(OUTPUTS, SIGNALS);
    const filter = not(and(ap('a'), ap('b')));
    let doomed = 0;
    let beyondSinks = 0;
    for (let seed = 1; seed <= 80; seed++) {
      const r = prng(7000 + seed);
      const props = [...INPUTS, ...OUTPUTS];
      // A GF assumption over an input makes "guarantee violated" states doomed without `true` loops.
      const phi = implies(G(F(ap('a'))), and(randomFormula(r, props, 2), G(randomFormula(r, props, 1))));
      for (const [formula, secondIsSafety] of [
        [not(phi), true],
        [phi, false],
      ] as const) {
        const ucw = ucwFromTgba(translateLtlSymbolic(formula, new BddManager()));
        const table = new MoveTable(ucw, { dims: envDims, merge: true }, { dims: outDims, merge: secondIsSafety }, secondIsSafety, filter);
        const firsts = moves(envDims).filter((m) => evalPropositional(filter, (n) => m[n]));
        const seconds = moves(outDims);
        for (let q = 0; q < ucw.stateCount; q++) {
          const loops = ucw.out[q].map((i) => ucw.edges[i]).filter((e) => e.to === q && e.rejecting);
          const forced = (m1: Cube, m2: Cube) => loops.some((e) => evalPropositional(e.bdd.toFormula(e.guard), (n) => ({ ...m1, ...m2 })[n]));
          const expected = secondIsSafety
            ? firsts.some((m1) => seconds.every((m2) => forced(m1, m2)))
            : firsts.every((m1) => seconds.some((m2) => forced(m1, m2)));
          expect(table.doomedStates[q], `seed ${seed}, state ${q}`).toBe(loops.length > 0 && expected);
          if (table.doomedStates[q]) {
            doomed++;
            if (!loops.some((e) => e.guard === BDD_TRUE)) beyondSinks++;
          }
        }
      }
    }
    expect(doomed).toBeGreaterThan(20);
    expect(beyondSinks).toBeGreaterThan(10);
  });

  test('guarantees violated under a GF assumption: pruned, still realizable and verified', () => {
    // Each guarantee's automaton has a "violated, waiting for GF a to fail" state whose loops are
    // `a` (rejecting) and `!a`: doomed, so the moves entering it are cut off.
    const spec = gameOf({
      ins: ['a', 'p', 'q'],
      signals: { x: ['x_keep', 'x_on', 'x_off'], y: ['y_keep', 'y_on'], z: ['z_keep', 'z_tick'] },
      assume: ['G F a'],
      guarantee: ['G (p -> x_on)', 'G ((q & !p) -> x_off)', 'G (x_on -> X y_on)', 'G F z_tick', 'G (z_tick -> X !z_tick)'],
    });
    const result = synthesize(spec, { timeoutMs: 20_000 });
    expect(result.verdict).toBe('realizable');
    if (result.verdict === 'realizable') expect(checkControllerAgainst(spec, result.controller)).toEqual([]);
  });

  test('a doomed move the controller cannot avoid: unrealizable', () => {
    const spec = gameOf({
      ins: ['a', 'p'],
      signals: { x: ['x_keep', 'x_on'] },
      assume: ['G F a'],
      guarantee: ['G (p -> x_on)', 'G (p -> X !x_on)'],
    });
    const result = synthesize(spec, { timeoutMs: 20_000 });
    expect(result.verdict).toBe('unrealizable');
  });
});
