/**
 * The seed specs of the TSL agent papers: realizable, with controllers no larger than the
 * paper's Table 1 (8, 9, 16, 17 states; ltlsynt 2.12 gives 14, 15, 21, 22).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { composeGames } from '../../src/codegen/compose.js';
import { loadTslGame } from '../../src/tsl/index.js';
import { synthesize } from '../../src/synthesis/index.js';
import { verifyController } from '../../src/verify/index.js';

const load = (f: string) => loadTslGame(f, readFileSync(f, 'utf8')).game;

const seeds: Array<[string, string[], number]> = [
  ['adventure', ['specs/adventure.tsl'], 8],
  ['adventure ∧ forest', ['specs/adventure.tsl', 'specs/forest.tsl'], 9],
  ['adventure ∧ choices', ['specs/adventure.tsl', 'specs/choices.tsl'], 16],
  ['adventure ∧ choices ∧ forest', ['specs/adventure.tsl', 'specs/choices.tsl', 'specs/forest.tsl'], 17],
];

describe('seed specs', () => {
  for (const [name, files, paperStates] of seeds) {
    test(`${name}: realizable with at most ${paperStates} states`, () => {
      const spec = composeGames(name, files.map(load));
      const result = synthesize(spec, { timeoutMs: 120_000 });
      expect(result.verdict).toBe('realizable');
      if (result.verdict !== 'realizable') return;
      expect(result.controller.stateCount).toBeLessThanOrEqual(paperStates);
      expect(verifyController(spec, result.controller).ok).toBe(true);
    }, 180_000);
  }
});
