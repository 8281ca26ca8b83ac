/**
 * Conformance of the #UF decision procedure (src/theory/congruence.ts, congruence closure) with
 * Z3 on 1,500 seeded conjunctions of ground literals (how they are made and put to Z3:
 * z3-omega/uf.ts). As for #LIA, a wrong `unsat` would add a false assumption to a spec; a wrong
 * `sat` only loses one. `Z3_UF_FIXTURES=write` (scripts/z3-omega-fixtures.mjs) records
 * test/fixtures/z3/uf.jsonl again.
 */
import { describe, expect, it } from 'vitest';
import { ufUnsat } from '../../src/theory/congruence.js';
import { z3Version } from './z3-omega/systems.js';
import { readUfRecords, type UfRecord, UF_SEED, UF_SYSTEMS, ufSystems, writeUfRecords, z3UfVerdicts } from './z3-omega/uf.js';

const records = readUfRecords();

function disagreements(subject: readonly UfRecord[], reference: (r: UfRecord) => 'sat' | 'unsat'): string[] {
  return subject.filter((r) => (ufUnsat(r.literals) ? 'unsat' : 'sat') !== reference(r)).map((r) => `${JSON.stringify(r.literals)}: Z3 ${reference(r)}`);
}

describe.skipIf(records.length === 0)(`congruence closure against Z3 on ${records.length} conjunctions`, () => {
  it('the fixture has both answers, and unsat ones that need congruence (a function or predicate of merged arguments)', () => {
    expect(records).toHaveLength(UF_SYSTEMS);
    const unsat = records.filter((r) => r.z3 === 'unsat');
    expect(unsat.length).toBeGreaterThan(records.length / 5);
    expect(records.length - unsat.length).toBeGreaterThan(records.length / 5);
    // Without congruence (functions and predicates read as unrelated atoms) some unsat ones turn sat.
    const flat = (r: UfRecord) => ufUnsat(r.literals.map((l) => ({ ...l, atom: { ...l.atom, args: l.atom.args.map((a) => (a.kind === 'app' ? { kind: 'var' as const, name: JSON.stringify(a), time: 0 } : a)) } })));
    expect(unsat.filter((r) => !flat(r)).length).toBeGreaterThan(20);
  });

  it('agrees with Z3 on every conjunction', () => {
    expect(disagreements(records, (r) => r.z3)).toEqual([]);
  });

  it('the comparison can fail: against flipped answers it reports every conjunction', () => {
    expect(disagreements(records, (r) => (r.z3 === 'sat' ? 'unsat' : 'sat'))).toHaveLength(records.length);
  });
});

describe('congruence closure against Z3: the reference records', () => {
  // Not a check: `Z3_UF_FIXTURES=write` (scripts/z3-omega-fixtures.mjs) records them again.
  it.runIf(process.env.Z3_UF_FIXTURES === 'write')('rewrites the fixture', () => {
    const version = z3Version();
    if (!version) throw new Error('z3 must be on PATH to record the fixture');
    const systems = ufSystems();
    const verdicts = z3UfVerdicts(systems);
    writeUfRecords(
      systems.map((literals, i) => ({ literals, z3: verdicts[i] })),
      `Z3's verdicts on ground #UF conjunctions; recorded with ${version} (see README.md); seed ${UF_SEED}`,
    );
  }, 600_000);
});
