// Verdict conformance on generated specs: tslc never contradicts ltlsynt on a seeded stream of
// small TLSF specs that nobody here chose or tuned on (test/conformance/generated-specs/generate.ts),
// whichever way it solves them: the default check, a controller (checked again here), a controller
// or counterstrategy (`synthesize`, checked here), and each route forced on its own (the parity/Master-Theorem route and the bounded engine), with the
// counterstrategies checked too. `unknown` is allowed, a contradiction or a failing check is not.
// ltlsynt's answers are committed data (test/fixtures/generated/ltlsynt.tsv, with their README);
// `GENERATED_FIXTURES=write` (scripts/ltlsynt-generated-fixtures.mjs) records them again with the
// native tools.
import { afterAll, describe, expect, it } from 'vitest';
import { loadTlsfGame } from '../../src/tlsf/index.js';
import { FAMILIES, type GeneratedSpec, generatedSpec, generatedSpecs, GENERATED_COUNT, GENERATED_EXTRA, GENERATED_SEED } from './generated-specs/generate.js';
import { judge, type Mode, MODES, route } from './generated-specs/judge.js';
import { recordReference, referenceRecords, type ReferenceRecord, toolVersion, writeReferenceRecords } from './generated-specs/reference.js';

const specs = generatedSpecs();
const records = referenceRecords();
/** Per-spec limit of each run (the specs are small: nearly all are decided in milliseconds). */
const TIMEOUT_MS = Number(process.env.TSLC_GENERATED_TIMEOUT_MS ?? 1500);

interface Tally {
  agree: number;
  unknown: number;
}
const tallies = new Map<Mode, Tally>(MODES.map((m) => [m, { agree: 0, unknown: 0 }]));

afterAll(() => {
  if (records.size === 0) return;
  const lines = MODES.map((m) => `${m}: ${tallies.get(m)!.agree} agree, ${tallies.get(m)!.unknown} unknown`);
  console.log(`generated specs vs ltlsynt (${TIMEOUT_MS} ms each): ${lines.join('; ')}`);
});

describe.skipIf(records.size === 0)(`tslc verdicts against ltlsynt on ${specs.length} generated specs`, () => {
  it('the fixture answers exactly the generated stream (else re-record it: scripts/ltlsynt-generated-fixtures.mjs)', () => {
    expect(records.size).toBe(specs.length);
    for (const s of specs) expect(records.get(s.id)?.hash, s.id).toBe(s.hash);
    // Every family is represented, and ltlsynt decided the stream (a reference that answers
    // nothing would make the comparison below vacuous).
    for (const family of FAMILIES) expect(specs.filter((s) => s.family === family).length).toBeGreaterThan(GENERATED_COUNT / 10);
    const decided = [...records.values()].filter((r) => r.verdict !== undefined);
    expect(decided.length).toBeGreaterThan(GENERATED_COUNT * 0.95);
    for (const verdict of ['realizable', 'unrealizable']) expect(decided.filter((r) => r.verdict === verdict).length).toBeGreaterThan(GENERATED_COUNT / 4);
    // The generator's formula is syfco's reading of its TLSF text (Spot judged the languages
    // equal), except where syfco misprints `!((!a) <-> b)` (docs/conformance.md).
    const misread = specs.filter((s) => records.get(s.id)?.syfco !== 'yes');
    expect(misread.filter((s) => !/\(! \(\(! \w+\) <->/.test(s.tlsf)).map((s) => s.id)).toEqual([]);
    expect(misread.length).toBeLessThan(specs.length / 50);
  });

  for (const mode of MODES) {
    it(`${mode}: never contradicts ltlsynt, and every strategy passes the independent check`, () => {
      const problems: string[] = [];
      const tally = tallies.get(mode)!;
      for (const s of specs) {
        const expected = records.get(s.id)?.verdict;
        if (!expected) continue;
        const judged = judge(mode, s.id, loadTlsfGame(`${s.id}.tlsf`, s.tlsf), expected, TIMEOUT_MS, problems);
        if (judged === 'agree' || judged === 'unknown') tally[judged]++;
      }
      expect(problems).toEqual([]);
      // The modes must decide the stream, or this test would pass by answering `unknown`. The
      // forced routes may give up more often (the parity route outside its guess limits).
      expect(tally.agree).toBeGreaterThan(records.size * (route(mode) === undefined ? 0.97 : 0.8));
    }, 600_000);
  }
});

describe.skipIf(toolVersion('ltlsynt') === undefined)('generated specs: live against an installed ltlsynt', () => {
  // Beyond the recorded stream: specs of another seed, decided by ltlsynt now.
  it('100 specs of seed 777 (and 10 large ones): no contradiction in any mode, every strategy checked', () => {
    const fresh = [...Array.from({ length: 100 }, (_, k) => generatedSpec(777, k)), ...Array.from({ length: 10 }, (_, k) => generatedSpec(777, k, 'large'))];
    const problems: string[] = [];
    let decided = 0;
    for (const s of fresh) {
      const expected = recordReference(s, 5).verdict;
      if (!expected) continue;
      decided++;
      const spec = loadTlsfGame(`${s.id}.tlsf`, s.tlsf);
      for (const mode of MODES) judge(mode, s.id, spec, expected, TIMEOUT_MS, problems);
    }
    expect(problems).toEqual([]);
    expect(decided).toBeGreaterThan(100);
  }, 600_000);
});

describe('generated specs: the reference answers', () => {
  // Not a check: `GENERATED_FIXTURES=write` (scripts/ltlsynt-generated-fixtures.mjs) records
  // ltlsynt's answers again (10 s per spec, then 60 s for the ones that timed out).
  it.runIf(process.env.GENERATED_FIXTURES === 'write')('rewrites the fixture', () => {
    const version = toolVersion('ltlsynt');
    // syfco and ltlfilt check that the generator's formula is what its TLSF text means.
    if (!version || !toolVersion('syfco') || !toolVersion('ltlfilt')) throw new Error('ltlsynt, syfco and ltlfilt must be on PATH to record the fixture');
    const out: ReferenceRecord[] = specs.map((s: GeneratedSpec) => recordReference(s, 10, 30, s.tlsf));
    writeReferenceRecords(out, [
      `ltlsynt's realizability answers on the generated specs (seed ${GENERATED_SEED}, ${GENERATED_COUNT} specs, and ${GENERATED_EXTRA.length} from other seeds); see README.md.`,
      `Recorded with ${version} on each spec's LTL formula, with --verify: by default, with --decompose=no, and with --decompose=no --algo=ds; 10 s per spec (30 s for a timeout), one at a time.`,
    ]);
  }, 3_600_000);
});
