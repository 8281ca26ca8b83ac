/**
 * The seed specs of the TSL agent papers: realizable, with controllers no larger than the
 * paper's Table 1 (8, 9, 16, 17 states; ltlsynt 2.12 gives 14, 15, 21, 22) nor than tslc's
 * before its controllers acted on pending obligations (5, 5, 8, 8) — and they act: a passage on
 * the first turn, and no idle turn while an obligation is pending (docs/synthesis.md).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { composeGames } from '../../src/codegen/compose.js';
import { cubeMatches } from '../../src/game/mealy.js';
import { loadTslGame } from '../../src/tsl/index.js';
import { idleTurns } from '../../src/synthesis/idle-turns.js';
import { synthesize } from '../../src/synthesis/index.js';
import { verifyController } from '../../src/verify/index.js';
import { playWithinAssumptions } from './helpers.js';

const load = (f: string) => loadTslGame(f, readFileSync(f, 'utf8')).game;

const seeds: Array<[string, string[], number]> = [
  ['adventure', ['specs/adventure.tsl'], 5],
  ['adventure ∧ forest', ['specs/adventure.tsl', 'specs/forest.tsl'], 5],
  ['adventure ∧ choices', ['specs/adventure.tsl', 'specs/choices.tsl'], 8],
  ['adventure ∧ choices ∧ forest', ['specs/adventure.tsl', 'specs/choices.tsl', 'specs/forest.tsl'], 8],
];

describe('seed specs', () => {
  for (const [name, files, maxStates] of seeds) {
    test(`${name}: realizable with at most ${maxStates} states, writing a passage every turn an obligation is pending`, () => {
      const spec = composeGames(name, files.map(load));
      const result = synthesize(spec, { timeoutMs: 120_000 });
      expect(result.verdict).toBe('realizable');
      if (result.verdict !== 'realizable') return;
      const m = result.controller;
      expect(m.stateCount).toBeLessThanOrEqual(maxStates);
      expect(verifyController(spec, m).ok).toBe(true);
      // The first turn (an empty story: no location holds) writes a passage
      // (with the safe-choice counter at 0, as choices.tsl assumes initially).
      const first = m.transitions.find((t) => t.from === m.initial && cubeMatches(t.input, (p) => p === 'eq_safeCount_0'));
      expect(Object.keys(first?.output ?? {}).filter((o) => first?.output[o] && /^u_storyPassage_to/.test(o))).toHaveLength(1);
      let pending = 0;
      for (const steps of playWithinAssumptions(spec, m, 40, 30, 5)) {
        const report = idleTurns(spec, steps);
        expect(report.idle, `idle turns of a game: ${report.idle.join(', ')}`).toEqual([]);
        pending += report.pending;
      }
      expect(pending).toBeGreaterThan(600);
    }, 180_000);
  }
});
