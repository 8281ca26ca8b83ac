/**
 * Conformance of our LTL → automaton translation with Spot 2.12.1's `ltl2tgba`, on formulas we
 * did not choose: Spot's `genltl` pattern sets from the literature (Dwyer et al.'s specification
 * patterns, Etessami–Holzmann, Somenzi–Bloem, …), its parametric families at small sizes, and
 * seeded random formulas over the whole grammar. The translation matters twice over: the solver's games are built on it, and the
 * independent checker of every controller uses the same tableau, so a word the tableau of ¬φ
 * missed could let a wrong controller through both.
 *
 * test/fixtures/spot/automata.jsonl records, per formula: an accepting word of the formula and
 * one of its negation (Spot's `autfilt --stats=%w`), and for each way we translate (auto,
 * product of conjuncts, unsimplified tableau) a hash of our automaton when it was recorded and
 * Spot's verdict that its language is the formula's (`autfilt --equivalent-to`, exact).
 * Checked here without Spot:
 * - our automaton of each mode still is the one Spot judged (same hash), and Spot judged it
 *   equivalent: a changed translation fails until it is recorded (and so judged) again with
 *   `node scripts/spot-automata-fixtures.mjs`;
 * - whatever the hashes, every automaton accepts the formula's word and rejects its negation's
 *   (a sample of completeness and soundness that survives changes), and our lasso semantics
 *   (`evaluateOnLasso`, the oracle of the other translator tests) agrees with Spot on both words.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateOnLasso, tgbaAcceptsLasso } from '../../src/automata/lasso.js';
import { translateLtl } from '../../src/automata/translate.js';
import { atoms } from '../../src/ltl/formula.js';
import { toSpot } from '../../src/ltl/print.js';
import { prng, randomFormula } from '../automata/random-ltl.js';
import {
  type AutomatonRecord,
  genltl,
  hoaHash,
  MODES,
  ourHoa,
  parseSpotWord,
  PARAMETRIC,
  PATTERN_SETS,
  readFormula,
  readRecords,
  recordAutomaton,
  spotVersion,
  writeRecords,
} from './spot-automata/spot.js';

const records = readRecords();
const SEED = 20261125;
const RANDOM_COUNT = 600;

describe.skipIf(records.length === 0)(`LTL → automaton translation against Spot on ${records.length} formulas`, () => {
  it('the fixture covers every pattern set and the random formulas, and Spot judged every recorded automaton equivalent', () => {
    for (const set of [...PATTERN_SETS, 'random']) expect(records.filter((r) => r.source === set).length, set).toBeGreaterThanOrEqual(3);
    expect(records.filter((r) => r.source.startsWith('genltl ')).length).toBeGreaterThan(PARAMETRIC.length);
    const inequivalent = records.flatMap((r) => MODES.filter((m) => !r.ours[m].equivalent).map((m) => `${r.formula} (${m})`));
    expect(inequivalent).toEqual([]);
  });

  it('our automata are the ones Spot judged (else record again: node scripts/spot-automata-fixtures.mjs)', () => {
    const changed: string[] = [];
    for (const r of records) {
      const f = readFormula(r.formula);
      for (const mode of MODES) if (hoaHash(ourHoa(f, mode)) !== r.ours[mode].hash) changed.push(`${r.formula} (${mode})`);
    }
    expect(changed).toEqual([]);
  }, 120_000);

  it("every automaton accepts the formula's word and rejects its negation's; our semantics agrees with Spot on both", () => {
    const problems: string[] = [];
    let words = 0;
    for (const r of records) {
      const f = readFormula(r.formula);
      const names = [...atoms(f)].sort();
      const automata = MODES.map((mode) => [mode, translateLtl(f, mode === 'product' ? { productOfConjuncts: true } : mode === 'tableau-unsimplified' ? { productOfConjuncts: false, simplify: false } : {})] as const);
      for (const [word, expected] of [
        [r.word, true],
        [r.negatedWord, false],
      ] as const) {
        if (word === undefined) continue;
        words++;
        const lasso = parseSpotWord(word, names);
        if (evaluateOnLasso(f, lasso) !== expected) problems.push(`${r.formula}: semantics ${expected ? 'rejects' : 'accepts'} ${word}`);
        for (const [mode, a] of automata) if (tgbaAcceptsLasso(a, lasso) !== expected) problems.push(`${r.formula} (${mode}): ${expected ? 'rejects' : 'accepts'} ${word}`);
      }
    }
    expect(problems).toEqual([]);
    expect(words).toBeGreaterThan(records.length);
  }, 120_000);
});

describe('LTL → automaton translation: the reference records', () => {
  // Not a check: `SPOT_AUTOMATA_FIXTURES=write` (scripts/spot-automata-fixtures.mjs) records them again.
  it.runIf(process.env.SPOT_AUTOMATA_FIXTURES === 'write')('rewrites the fixture', () => {
    const version = spotVersion();
    if (!version) throw new Error('Spot (ltl2tgba, autfilt, genltl) must be on PATH to record the fixture');
    const rand = prng(SEED);
    const inputs: [string, string][] = [
      ...PATTERN_SETS.flatMap((set) => genltl(`${set}-patterns`)),
      ...PARAMETRIC.flatMap((family) => genltl(family)),
      ...Array.from({ length: RANDOM_COUNT }, () => ['random', toSpot(randomFormula(rand, ['a', 'b', 'c'], 2 + Math.floor(rand() * 4)))] as [string, string]),
    ];
    const dir = mkdtempSync(join(tmpdir(), 'tslc-spot-automata-'));
    try {
      const out: AutomatonRecord[] = inputs.map(([source, formula]) => recordAutomaton(source, formula, dir));
      writeRecords(out, `Spot's automata verdicts and words; recorded with ${version} (see README.md); seed ${SEED}, ${RANDOM_COUNT} random formulas`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 3_600_000);
});
