// Verdict conformance on Spot's random formulas: tslc never contradicts ltlsynt on formulas drawn
// by `randltl` (test/conformance/randltl/streams.ts), read through the Spot-syntax front end that
// `tslc check --ltl` uses, whichever way it solves them (the modes of the generated-spec tests:
// the default check, a controller, `synthesize`, and each route forced on its own; every strategy
// passes the independent check). `unknown` is allowed, a contradiction or a failing check is not.
// The formulas and ltlsynt's answers are committed data (test/fixtures/randltl/, with its README);
// `GENERATED_FIXTURES=write` (scripts/ltlsynt-generated-fixtures.mjs) draws and records them again.
import { afterAll, describe, expect, it } from 'vitest';
import { ltlGame } from '../../src/frontend/game-from-ltl.js';
import type { GameSpec } from '../../src/game/spec.js';
import { judge, type Mode, MODES, route } from './generated-specs/judge.js';
import { recordReference, referenceRecords, toolVersion, writeReferenceRecords } from './generated-specs/reference.js';
import { committedSpecs, drawStream, expectedHash, RANDLTL_REFERENCE, RANDLTL_STREAMS, randltlArgs, type RandltlSpec, writeSpecs } from './randltl/streams.js';

const specs = committedSpecs();
const records = referenceRecords(RANDLTL_REFERENCE);
const TIMEOUT_MS = Number(process.env.TSLC_GENERATED_TIMEOUT_MS ?? 1500);

const gameOf = (s: RandltlSpec): GameSpec => ltlGame(s.ltl, [...s.ins], [...s.outs], { name: s.id, semantics: s.semantics });

const tallies = new Map<Mode, { agree: number; unknown: number }>(MODES.map((m) => [m, { agree: 0, unknown: 0 }]));
afterAll(() => {
  if (records.size === 0) return;
  console.log(`randltl formulas vs ltlsynt (${TIMEOUT_MS} ms each): ${MODES.map((m) => `${m}: ${tallies.get(m)!.agree} agree, ${tallies.get(m)!.unknown} unknown`).join('; ')}`);
});

describe.skipIf(specs.length === 0 || records.size === 0)(`tslc verdicts against ltlsynt on ${specs.length} randltl formulas`, () => {
  it('the committed formulas are the streams as drawn, and ltlsynt answered each of them', () => {
    for (const stream of RANDLTL_STREAMS) {
      const mine = specs.filter((s) => s.stream === stream.name);
      expect(mine.length, stream.name).toBe(stream.count);
      for (const s of mine) {
        expect([s.ins, s.outs, s.semantics], s.id).toEqual([stream.ins, stream.outs, stream.semantics]);
        expect(s.hash, s.id).toBe(expectedHash(s));
      }
    }
    // randltl draws distinct formulas within a stream (two streams over the same atoms may share one).
    for (const stream of RANDLTL_STREAMS) expect(new Set(specs.filter((s) => s.stream === stream.name).map((s) => s.ltl)).size, stream.name).toBe(stream.count);
    for (const s of specs) expect(records.get(s.id)?.hash, s.id).toBe(s.hash);
    // A reference that decided little, or one verdict only, would make the comparison vacuous.
    const decided = specs.filter((s) => records.get(s.id)?.verdict !== undefined);
    expect(decided.length).toBeGreaterThan(specs.length * 0.95);
    for (const verdict of ['realizable', 'unrealizable'])
      for (const stream of RANDLTL_STREAMS)
        expect(decided.filter((s) => s.stream === stream.name && records.get(s.id)!.verdict === verdict).length, `${stream.name} ${verdict}`).toBeGreaterThan(stream.count / 10);
  });

  it('the comparison can fail: told the opposite verdict, the judge reports each decided formula', () => {
    const sample = specs.filter((s) => records.get(s.id)?.verdict !== undefined).filter((_, k) => k % 50 === 0);
    const problems: string[] = [];
    let wrong = 0;
    for (const s of sample) {
      const opposite = records.get(s.id)!.verdict === 'realizable' ? 'unrealizable' : 'realizable';
      if (judge('check', s.id, gameOf(s), opposite, TIMEOUT_MS, problems) === 'wrong') wrong++;
    }
    expect(wrong).toBeGreaterThan(sample.length * 0.9);
    expect(problems.length).toBe(wrong);
  });

  for (const mode of MODES) {
    it(`${mode}: never contradicts ltlsynt, and every strategy passes the independent check`, () => {
      const problems: string[] = [];
      const tally = tallies.get(mode)!;
      let reference = 0;
      for (const s of specs) {
        const expected = records.get(s.id)?.verdict;
        if (!expected) continue;
        reference++;
        const judged = judge(mode, `${s.id} (${s.ltl})`, gameOf(s), expected, TIMEOUT_MS, problems);
        if (judged === 'agree' || judged === 'unknown') tally[judged]++;
      }
      expect(problems).toEqual([]);
      expect(tally.agree).toBeGreaterThan(reference * (route(mode) === undefined ? 0.97 : 0.8));
    }, 900_000);
  }
});

const live = toolVersion('ltlsynt') !== undefined && toolVersion('randltl') !== undefined;
describe.skipIf(!live)('randltl formulas: live against an installed ltlsynt', () => {
  it('30 formulas of each stream drawn with another seed: no contradiction in any mode, every strategy checked', () => {
    const problems: string[] = [];
    let decided = 0;
    for (const stream of RANDLTL_STREAMS) {
      for (const s of drawStream(stream, stream.seed + 1000, 30)) {
        const expected = recordReference(s, 5).verdict;
        if (!expected) continue;
        decided++;
        const game = gameOf(s);
        for (const mode of MODES) judge(mode, `${s.id} (${s.ltl})`, game, expected, TIMEOUT_MS, problems);
      }
    }
    expect(problems).toEqual([]);
    expect(decided).toBeGreaterThan(100);
  }, 900_000);
});

describe('randltl formulas: the reference answers', () => {
  // Not a check: `GENERATED_FIXTURES=write` draws the streams again with randltl and records
  // ltlsynt's answers (10 s per formula, then 30 s for the ones that timed out).
  it.runIf(process.env.GENERATED_FIXTURES === 'write')('rewrites the fixture', () => {
    const version = toolVersion('ltlsynt');
    const spot = toolVersion('randltl');
    if (!version || !spot) throw new Error('randltl and ltlsynt must be on PATH to record the fixture');
    const drawn = RANDLTL_STREAMS.flatMap((stream) => drawStream(stream));
    writeSpecs(drawn, [
      `Formulas drawn by ${spot}, one stream a command line (test/conformance/randltl/streams.ts); see README.md.`,
      ...RANDLTL_STREAMS.map((s) => `${s.name} (${s.semantics}): randltl ${randltlArgs(s).join(' ')}`),
    ]);
    writeReferenceRecords(
      drawn.map((s) => recordReference(s, 10, 30)),
      [
        `ltlsynt's realizability answers on the randltl formulas of formulas.tsv (${drawn.length}); see README.md.`,
        `Recorded with ${version}, with --verify: by default, with --decompose=no, and with --decompose=no --algo=ds; 10 s per formula (30 s for a timeout), one at a time; Moore formulas with every input i read as X i.`,
      ],
      RANDLTL_REFERENCE,
    );
  }, 3_600_000);
});
