/**
 * Differential test on random small specs: the primal game (controller) and the dual game
 * (environment) must never both win, every controller and counterstrategy must pass the model
 * check, and where `ltlsynt` is installed the verdicts must agree with it.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import type { GameSpec } from '../../src/game/spec.js';
import { specFormula } from '../../src/game/spec.js';
import { and, ap, F, type Formula, G, iff, implies, not, or, U, X } from '../../src/ltl/formula.js';
import { toSpot } from '../../src/ltl/print.js';
import { synthesize } from '../../src/synthesis/index.js';
import { checkControllerAgainst, checkCounterstrategyAgainst } from '../../src/synthesis/selfcheck.js';
import { gameOf, rng } from './helpers.js';

const COUNT = 1000;

function randomSpec(seed: number): GameSpec {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const ins = ['a', 'b', 'c', 'd'].slice(0, 2 + Math.floor(r() * 3));
  const signals: Record<string, string[]> = {};
  const signalCount = 1 + Math.floor(r() * 3);
  for (let s = 0; s < signalCount; s++) {
    const name = `s${s}`;
    signals[name] = Array.from({ length: 2 + Math.floor(r() * 2) }, (_, u) => `${name}_u${u}`);
  }
  const props = [...ins, ...Object.values(signals).flat()];
  const atom = () => (r() < 0.25 ? not(ap(pick(props))) : ap(pick(props)));
  const prop = (depth: number): Formula => {
    if (depth <= 0 || r() < 0.4) return atom();
    return pick([and, or, implies, iff])(prop(depth - 1), prop(depth - 1));
  };
  const temporal = (): Formula => {
    switch (Math.floor(r() * 6)) {
      case 0:
        return G(implies(prop(1), F(prop(1))));
      case 1:
        return G(implies(prop(1), X(prop(1))));
      case 2:
        return G(prop(2));
      case 3:
        return G(F(prop(1)));
      case 4:
        return G(implies(prop(1), U(prop(0), prop(1))));
      default:
        return F(G(prop(1)));
    }
  };
  const guarantee = Array.from({ length: 1 + Math.floor(r() * 2) }, temporal);
  const assume = r() < 0.3 ? [G(F(prop(1)))] : [];
  return gameOf({ ins, signals, guarantee, assume }, `random-${seed}`);
}

function ltlsyntAvailable(): boolean {
  try {
    execFileSync('ltlsynt', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('differential: primal vs. dual on random small specs', () => {
  test(`${COUNT} random specs: no contradiction, every strategy checks`, () => {
    let realizable = 0;
    let unrealizable = 0;
    let unknown = 0;
    for (let seed = 1; seed <= COUNT; seed++) {
      const spec = randomSpec(seed);
      const primal = synthesize(spec, { timeoutMs: 300, games: 'primal', maxK: 6 });
      const dual = synthesize(spec, { timeoutMs: 300, games: 'dual', maxK: 6 });
      const context = `seed ${seed}: ${toSpot(specFormula(spec))}`;
      if (primal.verdict === 'realizable') {
        expect(dual.verdict, context).not.toBe('unrealizable');
        expect(checkControllerAgainst(spec, primal.controller), context).toEqual([]);
      }
      if (dual.verdict === 'unrealizable') {
        expect(checkCounterstrategyAgainst(spec, dual.counterstrategy), context).toEqual([]);
      }
      if (primal.verdict === 'unrealizable') {
        // Only the terminal-automaton shortcut lets the primal side refute; check its evidence.
        expect(dual.verdict, context).not.toBe('realizable');
        expect(checkCounterstrategyAgainst(spec, primal.counterstrategy), context).toEqual([]);
      }
      // The default pipeline (decomposition, probes, both games) must agree and check too.
      const full = synthesize(spec, { timeoutMs: 300, maxK: 6 });
      if (full.verdict === 'realizable') {
        expect(dual.verdict, context).not.toBe('unrealizable');
        expect(checkControllerAgainst(spec, full.controller), context).toEqual([]);
      }
      if (full.verdict === 'unrealizable') {
        expect(primal.verdict, context).not.toBe('realizable');
        expect(checkCounterstrategyAgainst(spec, full.counterstrategy), context).toEqual([]);
      }
      const verdicts = new Set([primal.verdict, dual.verdict]);
      if (verdicts.has('realizable')) realizable++;
      else if (verdicts.has('unrealizable')) unrealizable++;
      else unknown++;
    }
    // A random mix: both answers must occur, and nearly every tiny spec must be decided.
    expect(realizable).toBeGreaterThan(COUNT / 10);
    expect(unrealizable).toBeGreaterThan(COUNT / 10);
    expect(unknown).toBeLessThan(COUNT / 20);
  });

  test.skipIf(!ltlsyntAvailable())('agrees with ltlsynt on 200 of them', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const spec = randomSpec(seed);
      const ours = synthesize(spec, { timeoutMs: 2000 });
      if (ours.verdict === 'unknown') continue;
      const ins = spec.inputs.map((p) => p.name).join(',');
      const outs = spec.outputs.map((p) => p.name).join(',');
      let answer: string;
      try {
        answer = execFileSync('ltlsynt', ['-f', toSpot(specFormula(spec)), `--ins=${ins}`, `--outs=${outs}`, '--realizability'], {
          encoding: 'utf8',
          timeout: 20_000,
        });
      } catch (err) {
        answer = String((err as { stdout?: string }).stdout ?? '');
      }
      const theirs = answer.includes('UNREALIZABLE') ? 'unrealizable' : answer.includes('REALIZABLE') ? 'realizable' : 'unknown';
      if (theirs !== 'unknown') expect(ours.verdict, `seed ${seed}`).toBe(theirs);
    }
  });
});
