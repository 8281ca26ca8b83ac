/**
 * Conformance of the #LIA decision procedure (src/theory/omega.ts, Pugh's Omega test) with Z3 on
 * 2,000 seeded systems of linear integer constraints that are not boxed: unbounded random ones,
 * narrow strips where only dark shadows and splinters decide, and the counter shapes the theory
 * derivation asks about (how they are made and how Z3 is asked: z3-omega/systems.ts).
 *
 * An `unsat` that Z3 calls `sat` is the answer that matters most: the derivation adds an
 * assumption exactly when its negation is unsat, so a wrong `unsat` adds a false assumption and can
 * turn an unrealizable spec realizable. `unknown` (the step budget ran out) is allowed, counted,
 * and must stay rare. `Z3_OMEGA_FIXTURES=write` (scripts/z3-omega-fixtures.mjs) records
 * test/fixtures/z3/omega.jsonl again.
 */
import { describe, expect, it } from 'vitest';
import { satisfiable } from '../../src/theory/omega.js';
import { omegaSystems, type OmegaRecord, readOmegaRecords, SHAPES, SYSTEM_SEED, toConstraint, writeOmegaRecords, z3Verdicts, z3Version } from './z3-omega/systems.js';

const records = readOmegaRecords();

function contradictions(subject: readonly OmegaRecord[], reference: (r: OmegaRecord) => 'sat' | 'unsat'): { wrong: string[]; unknown: number } {
  const wrong: string[] = [];
  let unknown = 0;
  for (const r of subject) {
    const ours = satisfiable(r.system.map(toConstraint));
    if (ours === 'unknown') unknown++;
    else if (ours !== reference(r)) wrong.push(`${r.shape} ${JSON.stringify(r.system)}: Z3 ${reference(r)}, ours ${ours}`);
  }
  return { wrong, unknown };
}

describe.skipIf(records.length === 0)(`the Omega test against Z3 on ${records.length} unbounded systems`, () => {
  it('the fixture has every shape, and both answers in each', () => {
    for (const shape of Object.keys(SHAPES) as (keyof typeof SHAPES)[]) {
      const of = records.filter((r) => r.shape === shape);
      expect(of.length, shape).toBe(SHAPES[shape]);
      expect(of.filter((r) => r.z3 === 'sat').length, `${shape} sat`).toBeGreaterThan(of.length / 10);
      expect(of.filter((r) => r.z3 === 'unsat').length, `${shape} unsat`).toBeGreaterThan(of.length / 10);
    }
  });

  it('has systems only integer reasoning decides: satisfiable over the rationals, not over the integers', () => {
    const gaps = records.filter((r) => r.z3 === 'unsat' && r.z3Rational === 'sat');
    expect(gaps.filter((r) => r.shape === 'strip').length).toBeGreaterThan(100);
    expect(records.filter((r) => r.z3 === 'sat' && r.z3Rational === 'unsat')).toEqual([]);
  });

  it("never contradicts Z3, and answers all but a few", () => {
    const { wrong, unknown } = contradictions(records, (r) => r.z3);
    expect(wrong).toEqual([]);
    expect(unknown).toBeLessThanOrEqual(records.length / 100);
  }, 120_000);

  it('the comparison can fail: against flipped answers it reports every decided system', () => {
    const sample = records.slice(0, 200);
    const { wrong, unknown } = contradictions(sample, (r) => (r.z3 === 'sat' ? 'unsat' : 'sat'));
    expect(wrong.length + unknown).toBe(sample.length);
  });
});

describe('the Omega test against Z3: the reference records', () => {
  // Not a check: `Z3_OMEGA_FIXTURES=write` (scripts/z3-omega-fixtures.mjs) records them again.
  it.runIf(process.env.Z3_OMEGA_FIXTURES === 'write')('rewrites the fixture', () => {
    const version = z3Version();
    if (!version) throw new Error('z3 must be on PATH to record the fixture');
    const systems = omegaSystems();
    const verdicts = z3Verdicts(systems.map((s) => s.system));
    const rational = z3Verdicts(
      systems.map((s) => s.system),
      'Real',
    );
    writeOmegaRecords(
      systems.map((s, i) => ({ ...s, z3: verdicts[i], z3Rational: rational[i] })),
      `Z3's verdicts on unbounded linear integer systems; recorded with ${version} (see README.md); seed ${SYSTEM_SEED}`,
    );
  }, 600_000);
});
