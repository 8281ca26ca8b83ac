/**
 * compareFormulas never trusts the translator alone: with a translator that (wrongly) accepts
 * every word, a lasso the evaluator refutes raises InconsistentJudgesError instead of a verdict.
 */
import { describe, expect, it, vi } from 'vitest';
import { BDD_TRUE, type BddManager } from '../../src/automata/bdd.js';
import type { SymbolicTgba } from '../../src/automata/translate.js';
import { TRUE } from '../../src/ltl/formula.js';
import { compareFormulas, InconsistentJudgesError } from './equivalence.js';
import { parseSyfcoLtl } from './ltl-tree.js';

vi.mock('../../src/automata/translate.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/automata/translate.js')>();
  return {
    ...original,
    // One state with a `true` self-loop and no acceptance sets: the automaton of `true`.
    translateLtlSymbolic: (_f: unknown, bdd: BddManager): SymbolicTgba => ({
      bdd,
      aps: [],
      stateCount: 1,
      initial: [0],
      accSets: 0,
      edges: [[{ to: 0, guard: BDD_TRUE, marks: [] }]],
      stateFormulas: [TRUE],
    }),
  };
});

describe('a lying translator', () => {
  it('is caught by the evaluator, not turned into a "different" verdict', () => {
    const run = () => compareFormulas(parseSyfcoLtl('a U b'), parseSyfcoLtl('(b || (a && (X (a U b))))'));
    expect(run).toThrow(InconsistentJudgesError);
    expect(run).toThrow(/the translator accepts \(\{\}\)\^ω/);
  });
});
