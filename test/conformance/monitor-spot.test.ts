/**
 * Conformance of the runtime monitors' verdicts with Spot 2.12.1, on formulas we did not choose:
 * Spot's `genltl` specification patterns (Dwyer et al., Etessami–Holzmann, Somenzi–Bloem, …) and
 * two seeded `randltl` streams, each with a random trace and, where they exist, traces that begin
 * as a model and as a countermodel of the formula that Spot found.
 *
 * test/fixtures/spot/monitor-ltl3.jsonl holds Spot's LTL3 verdict after every prefix of every
 * trace (how it is decided: spot-monitor/spot.ts) and Spot's semantic safety and liveness
 * classification of each formula. Checked here without Spot:
 * - the automaton monitor, which docs/monitoring.md calls complete, gives exactly Spot's verdict
 *   after every prefix: a `pending` where Spot has decided is as wrong as the opposite verdict;
 * - the progression monitor, sound but incomplete by design, never gives a verdict Spot does not,
 *   and how often it stays pending where Spot has decided is counted, not hidden;
 * - a finished log judged as the whole trace (`finish('ltlf')`) gets Spot's LTLf verdict
 *   (`ltlfilt --from-ltlf`, our strong `X` as Spot's `X[!]`) whichever letter the log ends on;
 * - the audit's property kinds: `liveness` exactly for Spot's liveness properties, `safety` for
 *   Spot's safety properties that are not also liveness (only `true` is both), `other` for the
 *   rest; `isSafetyProperty` is Spot's `--safety` and `violable()` the complement of `--liveness`.
 * `SPOT_MONITOR_FIXTURES=write` (scripts/spot-monitor-fixtures.mjs) records the fixture again.
 */
import { describe, expect, it } from 'vitest';
import { parseLtl } from '../../runtime/ltl/parse.js';
import type { LtlNode } from '../../runtime/ltl/syntax.js';
import { AutomatonMonitor } from '../../runtime/monitor/automaton.js';
import { ProgressionMonitor } from '../../runtime/monitor/progression.js';
import { buildMonitorAutomaton } from '../../src/audit/automaton.js';
import { propertyKinds } from '../../src/audit/kind.js';
import { isSafetyProperty } from '../../src/automata/safety-closure.js';
import { fromSyntax } from '../../src/ltl/from-syntax.js';
import {
  type Ltl3Verdict,
  type MonitorRecord,
  PATTERN_SETS,
  RANDLTL_STREAMS,
  readMonitorRecords,
  recordMonitorFixture,
  spotVersion,
  TRACE_LENGTH,
  TRACE_SEED,
  writeMonitorRecords,
} from './spot-monitor/spot.js';

const records = readMonitorRecords();

/** The automaton monitor's verdict before any letter and after each letter of a trace. */
function automatonVerdicts(monitor: AutomatonMonitor, letters: ReadonlyArray<readonly string[]>): Ltl3Verdict[] {
  const m = monitor.fresh();
  return [m.verdict, ...letters.map((l) => m.step(new Set(l)))];
}

function progressionVerdicts(formula: LtlNode, letters: ReadonlyArray<readonly string[]>): Ltl3Verdict[] {
  const m = new ProgressionMonitor([{ name: 'p', formula }]);
  const out: Ltl3Verdict[] = [m.status()[0].verdict];
  for (const l of letters) {
    m.step(new Set(l));
    out.push(m.status()[0].verdict);
  }
  return out;
}

/** Where `ours` differs from Spot's verdicts: `complete` demands equality, else only no opposite or invented verdict. */
function disagreements(r: MonitorRecord, kind: string, spot: readonly Ltl3Verdict[], ours: readonly Ltl3Verdict[], complete: boolean): string[] {
  const out: string[] = [];
  spot.forEach((v, k) => {
    const wrong = complete ? ours[k] !== v : ours[k] !== 'pending' && ours[k] !== v;
    if (wrong) out.push(`${r.formula} [${kind} trace, after ${k} letters]: Spot ${v}, ours ${ours[k]}`);
  });
  return out;
}

function automatonProblems(subject: readonly MonitorRecord[], spotOf: (r: MonitorRecord, t: MonitorRecord['traces'][number]) => readonly Ltl3Verdict[]): string[] {
  const problems: string[] = [];
  for (const r of subject) {
    const monitor = new AutomatonMonitor(buildMonitorAutomaton(parseLtl(r.formula)));
    for (const t of r.traces) problems.push(...disagreements(r, t.kind, spotOf(r, t), automatonVerdicts(monitor, t.letters), true));
  }
  return problems;
}

describe.skipIf(records.length === 0)(`monitor verdicts against Spot's LTL3 on ${records.length} formulas`, () => {
  it('the fixture covers every pattern set and stream, all three kinds of trace, and all three verdicts', () => {
    for (const source of [...PATTERN_SETS, ...RANDLTL_STREAMS.map((s) => s.name)]) expect(records.filter((r) => r.source === source).length, source).toBeGreaterThanOrEqual(3);
    const traces = records.flatMap((r) => r.traces);
    for (const kind of ['random', 'model', 'countermodel'] as const) expect(traces.filter((t) => t.kind === kind).length, kind).toBeGreaterThan(records.length / 2);
    const finals = traces.map((t) => t.verdicts[TRACE_LENGTH]);
    for (const v of ['violated', 'satisfied', 'pending'] as const) expect(finals.filter((x) => x === v).length, v).toBeGreaterThan(50);
  });

  it('the automaton monitor gives exactly Spot\'s verdict after every prefix (complete, not only sound)', () => {
    expect(automatonProblems(records, (_, t) => t.verdicts)).toEqual([]);
  }, 300_000);

  it('the comparison can fail: told Spot said pending where it decided, it reports every decided prefix', () => {
    const sample = records.slice(0, 60);
    const decided = sample.flatMap((r) => r.traces.flatMap((t) => t.verdicts.filter((v) => v !== 'pending'))).length;
    expect(decided).toBeGreaterThan(0);
    expect(automatonProblems(sample, (_, t) => t.verdicts.map(() => 'pending'))).toHaveLength(decided);
  }, 120_000);

  it('the progression monitor never contradicts Spot, and decides most prefixes Spot decides', () => {
    const problems: string[] = [];
    let decidedBySpot = 0;
    let leftPending = 0;
    for (const r of records) {
      const f = parseLtl(r.formula);
      for (const t of r.traces) {
        const ours = progressionVerdicts(f, t.letters);
        problems.push(...disagreements(r, t.kind, t.verdicts, ours, false));
        t.verdicts.forEach((v, k) => {
          if (v === 'pending') return;
          decidedBySpot++;
          if (ours[k] === 'pending') leftPending++;
        });
      }
    }
    expect(problems).toEqual([]);
    // Incomplete by design (GF a & FG !a is never progressed to false): measured, not zero.
    expect(leftPending / decidedBySpot).toBeLessThan(0.1);
  }, 300_000);

  it("a finished log judged as the whole trace (finish('ltlf')) is Spot's LTLf verdict, cut after every letter", () => {
    const problems: string[] = [];
    let checked = 0;
    for (const r of records) {
      const f = parseLtl(r.formula);
      for (const t of r.traces) {
        const m = new ProgressionMonitor([{ name: 'p', formula: f }]);
        t.letters.forEach((letter, i) => {
          m.step(new Set(letter));
          const ours = m.finish('ltlf')[0].verdict;
          const spot = t.ltlf[i] ? 'satisfied' : 'violated';
          checked++;
          if (ours !== spot) problems.push(`${r.formula} [${t.kind} trace cut after ${i + 1} letters]: Spot ${spot}, ours ${ours}`);
        });
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBe(records.reduce((n, r) => n + r.traces.length * TRACE_LENGTH, 0));
  }, 300_000);

  it("the audit's property kinds agree with Spot's safety and liveness classes", async () => {
    const formulas = records.map((r) => parseLtl(r.formula));
    const kinds = await propertyKinds(formulas);
    const problems: string[] = [];
    records.forEach((r, i) => {
      const kind = kinds[i];
      if (kind === 'safety' && !r.safety) problems.push(`${r.formula}: ours safety, Spot: not a safety property`);
      if (kind === 'liveness' && !r.liveness) problems.push(`${r.formula}: ours liveness, Spot: not a liveness property`);
      if (kind === 'other' && (r.liveness || r.safety)) problems.push(`${r.formula}: ours other, Spot: ${r.liveness ? 'a liveness' : 'a safety'} property`);
      const safety = isSafetyProperty(fromSyntax(formulas[i]));
      if (safety !== r.safety) problems.push(`${r.formula}: isSafetyProperty ${String(safety)}, Spot safety ${r.safety}`);
      const violable = new AutomatonMonitor(buildMonitorAutomaton(formulas[i])).violable();
      if (violable !== undefined && violable === r.liveness) problems.push(`${r.formula}: violable() ${violable}, Spot liveness ${r.liveness}`);
    });
    expect(problems).toEqual([]);
  }, 300_000);
});

describe('monitor verdicts: the reference records', () => {
  // Not a check: `SPOT_MONITOR_FIXTURES=write` (scripts/spot-monitor-fixtures.mjs) records them again.
  it.runIf(process.env.SPOT_MONITOR_FIXTURES === 'write')('rewrites the fixture', () => {
    const version = spotVersion();
    if (!version) throw new Error('Spot (ltl2tgba, autfilt, ltlfilt, genltl, randltl) must be on PATH to record the fixture');
    const out = recordMonitorFixture();
    const streams = RANDLTL_STREAMS.map((s) => `${s.name} seed ${s.seed}`).join(', ');
    writeMonitorRecords(out, `Spot's LTL3 verdicts and safety/liveness classes; recorded with ${version} (see README.md); ${streams}; traces of ${TRACE_LENGTH} letters, seed ${TRACE_SEED}`);
  }, 3_600_000);
});
