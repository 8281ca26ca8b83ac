// Verdict conformance on generated TSL specs: tslc never contradicts ltlsynt on a seeded stream
// of small TSL specs (test/conformance/generated-specs/generate-tsl.ts), whose cells make the
// games TSL's own: each cell's updates are a signal with exactly one update a step. ltlsynt
// decides each spec's LTL abstraction (the formula `tslc ltl` prints, checked against tsltools
// elsewhere); its answers are committed (test/fixtures/generated/ltlsynt-tsl.tsv, README beside
// it), recorded again with `GENERATED_FIXTURES=write` (scripts/ltlsynt-generated-fixtures.mjs).
import { describe, expect, it } from 'vitest';
import { specFormula } from '../../src/game/spec.js';
import { toSpot } from '../../src/ltl/print.js';
import { loadTslGame } from '../../src/tsl/index.js';
import { judge } from './generated-specs/judge.js';
import { GENERATED_TSL_COUNT, GENERATED_TSL_SEED, generatedTslSpecs } from './generated-specs/generate-tsl.js';
import { GENERATED_TSL_FIXTURE, recordReference, referenceRecords, toolVersion, writeReferenceRecords } from './generated-specs/reference.js';

const specs = generatedTslSpecs();
const records = referenceRecords(GENERATED_TSL_FIXTURE);
const TIMEOUT_MS = Number(process.env.TSLC_GENERATED_TIMEOUT_MS ?? 1500);

function gameOf(id: string, text: string) {
  return loadTslGame(`${id}.tsl`, text).game;
}

describe.skipIf(records.size === 0)(`tslc verdicts against ltlsynt on ${GENERATED_TSL_COUNT} generated TSL specs`, () => {
  it('the fixture answers exactly the generated stream, and ltlsynt decided it', () => {
    expect(records.size).toBe(specs.length);
    for (const s of specs) expect(records.get(s.id)?.hash, s.id).toBe(s.hash);
    const decided = [...records.values()].filter((r) => r.verdict !== undefined);
    expect(decided.length).toBeGreaterThan(GENERATED_TSL_COUNT * 0.95);
    for (const verdict of ['realizable', 'unrealizable']) expect(decided.filter((r) => r.verdict === verdict).length).toBeGreaterThan(GENERATED_TSL_COUNT / 10);
  });

  it('check, controller and synthesize never contradict ltlsynt, and every strategy passes the independent check', () => {
    const problems: string[] = [];
    let agree = 0;
    for (const s of specs) {
      const expected = records.get(s.id)?.verdict;
      if (!expected) continue;
      const spec = gameOf(s.id, s.tsl);
      for (const mode of ['check', 'controller', 'synthesize'] as const)
        if (judge(mode, s.id, spec, expected, TIMEOUT_MS, problems) === 'agree' && mode === 'check') agree++;
    }
    expect(problems).toEqual([]);
    expect(agree).toBeGreaterThan(records.size * 0.97);
  }, 600_000);
});

describe('generated TSL specs: the reference answers', () => {
  // Not a check: `GENERATED_FIXTURES=write` records them again (scripts/ltlsynt-generated-fixtures.mjs).
  it.runIf(process.env.GENERATED_FIXTURES === 'write')('rewrites the fixture', () => {
    const version = toolVersion('ltlsynt');
    if (!version) throw new Error('ltlsynt must be on PATH to record the fixture');
    const out = specs.map((s) => {
      const game = gameOf(s.id, s.tsl);
      const ltl = toSpot(specFormula(game));
      return recordReference({ id: s.id, hash: s.hash, ltl, ins: game.inputs.map((p) => p.name), outs: game.outputs.map((p) => p.name), moore: false }, 10, 60);
    });
    writeReferenceRecords(
      out,
      [
        `ltlsynt's realizability answers on the generated TSL specs (seed ${GENERATED_TSL_SEED}, ${GENERATED_TSL_COUNT} specs) on their LTL abstraction; see README.md.`,
        `Recorded with ${version}, with --verify: by default, with --decompose=no, and with --decompose=no --algo=ds; 10 s per spec (60 s for a timeout), one at a time.`,
      ],
      GENERATED_TSL_FIXTURE,
    );
  }, 3_600_000);
});
