// The SYNTCOMP bench's pure parts: reading recorded ltlsynt verdicts, the seeded sample, and the
// counts and medians its report is built from (the runs themselves need ltlsynt and take minutes).
import { describe, expect, it } from 'vitest';
import { median, seededRandom } from '../../bench/measure.js';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseRecorded, report, type Row, type Run, runLtlsynt, sampleOf, secondOpinion, secondOpinionVerdict, summarize } from '../../bench/syntcomp.js';
import { generatedSpec } from '../conformance/generated-specs/generate.js';

const run = (verdict: Run['verdict'], wall: number): Run => ({ verdict, wall });
const row = (key: string, tslc: Run, ltlsynt: Run, status?: Row['status']): Row => ({ key, path: `/x/${key}`, status, tslc, ltlsynt });

describe('syntcomp bench', () => {
  it('reads the recorded verdict table: comments and header skipped, TIMEOUT is unknown', () => {
    const text = [
      '# ltlsynt --tlsf FILE --realizability',
      'file\tverdict_10s\tseconds_10s\tverdict_60s\tseconds_60s\tnote',
      'tlsf/a/x.tlsf\tREALIZABLE\t0.031\t\t\t',
      'tlsf/a/y.tlsf\tUNREALIZABLE\t1.5\t\t\t',
      'tlsf/b/z.tlsf\tTIMEOUT\t10.006\tREALIZABLE\t12.1\t',
      'tlsf/b/w.tlsf\tERROR\t0.01\t\t\t',
    ].join('\n');
    const m = parseRecorded(text);
    expect([...m.keys()]).toEqual(['tlsf/a/x.tlsf', 'tlsf/a/y.tlsf', 'tlsf/b/z.tlsf', 'tlsf/b/w.tlsf']);
    expect(m.get('tlsf/a/x.tlsf')).toEqual({ verdict: 'realizable', wall: 0.031 });
    expect(m.get('tlsf/a/y.tlsf')).toEqual({ verdict: 'unrealizable', wall: 1.5 });
    // The 10-s column decides: a verdict found only at 60 s is not counted at a 10-s limit.
    expect(m.get('tlsf/b/z.tlsf')?.verdict).toBe('unknown');
    expect(m.get('tlsf/b/w.tlsf')?.verdict).toBe('error');
  });

  it('samples the same subset for the same seed, in key order, and another for another seed', () => {
    const rows = Array.from({ length: 50 }, (_, i) => ({ key: `tlsf/f/${String(i).padStart(2, '0')}.tlsf` }));
    const a = sampleOf(rows, 7, 1);
    expect(a).toHaveLength(7);
    expect(sampleOf(rows, 7, 1)).toEqual(a);
    expect(a.map((r) => r.key)).toEqual([...a.map((r) => r.key)].sort());
    expect(new Set(a.map((r) => r.key)).size).toBe(7);
    expect(sampleOf(rows, 7, 2)).not.toEqual(a);
    expect(sampleOf(rows, 80, 1)).toEqual(rows);
  });

  it('counts decided, only-one-side and contradicting specs, and takes the median of per-spec ratios', () => {
    const rows = [
      row('tlsf/a/1.tlsf', run('realizable', 0.1), run('realizable', 0.05)), // ratio 2
      row('tlsf/a/2.tlsf', run('unrealizable', 0.6), run('unrealizable', 0.2)), // ratio 3, slow
      row('tlsf/a/3.tlsf', run('realizable', 0.4), run('realizable', 0.8)), // ratio 0.5, slow
      row('tlsf/b/4.tlsf', run('unknown', 10), run('realizable', 0.3)), // only ltlsynt
      row('tlsf/b/5.tlsf', run('unrealizable', 1), run('unknown', 10)), // only tslc
      row('tlsf/b/6.tlsf', run('realizable', 0.1), run('unrealizable', 0.1)), // contradiction, ratio 1
      row('tlsf/b/7.tlsf', run('unrealizable', 0.1), run('error', 0.01), 'realizable'), // contradicts STATUS
    ];
    const s = summarize(rows, (r) => r.ltlsynt);
    expect(s.both.map((r) => r.key)).toEqual(['tlsf/a/1.tlsf', 'tlsf/a/2.tlsf', 'tlsf/a/3.tlsf', 'tlsf/b/6.tlsf']);
    expect(s.onlyTslc.map((r) => r.key)).toEqual(['tlsf/b/5.tlsf', 'tlsf/b/7.tlsf']);
    expect(s.onlyTheirs.map((r) => r.key)).toEqual(['tlsf/b/4.tlsf']);
    expect(s.contradictions.map((r) => r.key)).toEqual(['tlsf/b/6.tlsf']);
    expect(s.contradictionsStatus.map((r) => r.key)).toEqual(['tlsf/b/7.tlsf']);
    // Ratios 2, 3, 0.5, 1 → median 1.5; of the two slow specs, 3 and 0.5 → 1.75.
    expect(s.medianRatio).toBeCloseTo(1.5, 9);
    expect(s.slow.map((r) => r.key)).toEqual(['tlsf/a/2.tlsf', 'tlsf/a/3.tlsf']);
    expect(s.medianRatioSlow).toBeCloseTo(1.75, 9);
    const md = report(rows, (r) => r.ltlsynt, { timeout: 10, live: true, withStates: true, nodeBefore: 0.05, nodeAfter: 0.05, nodeFloor: 0.05, args: ['syntcomp', '--timeout', '10'] });
    expect(md).toContain('| **contradictions** (tslc vs ltlsynt) | **1** |');
    expect(md).toContain('| b/6.tlsf |  | realizable **CONTRADICTION** |');
    expect(md).toContain('Command: `npm run bench -- syntcomp --timeout 10`');
  });

  it('pairs like with like: verdict-only runs, controller runs, and the quick specs against node -e 0 run just before', () => {
    const rows: Row[] = [
      // Realizable: tslc 0.5 s with a controller, 0.2 s verdict only; ltlsynt 0.1 s verdict, 0.4 s controller.
      { ...row('tlsf/a/1.tlsf', { ...run('realizable', 0.5), states: 3 }, run('realizable', 0.1)), tslcVerdict: run('realizable', 0.2), ltlsyntController: { ...run('realizable', 0.4), states: 5 }, node: 0.05 },
      // Unrealizable: no controller on either side, so the verdict runs pair (0.06 / 0.03 = 2).
      { ...row('tlsf/a/2.tlsf', run('unrealizable', 0.06), run('unrealizable', 0.03)), tslcVerdict: run('unrealizable', 0.06), node: 0.05 },
      // The verdict run decides where the controller run timed out: still decided by tslc, paired in the verdict table only.
      { ...row('tlsf/a/3.tlsf', run('unknown', 10), run('realizable', 0.02)), tslcVerdict: run('realizable', 0.07), node: 0.04 },
      // The two tslc runs disagree: a contradiction even though ltlsynt says nothing.
      { ...row('tlsf/a/4.tlsf', run('realizable', 1), run('unknown', 10)), tslcVerdict: run('unrealizable', 1) },
    ];
    const s = summarize(rows, (r) => r.ltlsynt);
    const [verdictOnly, controller] = s.pairings;
    expect(verdictOnly.label).toContain('verdict only');
    expect(verdictOnly.both.map((r) => r.key)).toEqual(['tlsf/a/1.tlsf', 'tlsf/a/2.tlsf', 'tlsf/a/3.tlsf']);
    // Ratios 2, 2, 3.5 → 2; only a/1 took ltlsynt ≥ 0.05 s (0.2 / 0.1 = 2).
    expect(verdictOnly.medianRatio).toBeCloseTo(2, 9);
    expect(verdictOnly.aboveFloor.map((r) => r.key)).toEqual(['tlsf/a/1.tlsf']);
    expect(verdictOnly.medianRatioAboveFloor).toBeCloseTo(2, 9);
    expect(controller.label).toContain('with a controller');
    expect(controller.both.map((r) => r.key)).toEqual(['tlsf/a/1.tlsf', 'tlsf/a/2.tlsf']);
    // 0.5 / 0.4 = 1.25 and 0.06 / 0.03 = 2 → 1.625.
    expect(controller.medianRatio).toBeCloseTo(1.625, 9);
    expect(s.onlyTslc.map((r) => r.key)).toEqual(['tlsf/a/4.tlsf']);
    expect(s.onlyTheirs).toEqual([]);
    expect(s.contradictions.map((r) => r.key)).toEqual(['tlsf/a/4.tlsf']);
    const md = report(rows, (r) => r.ltlsynt, { timeout: 10, live: true, withStates: true, nodeBefore: 0.05, nodeAfter: 0.05, nodeFloor: 0.05, args: ['syntcomp'] });
    // Quick specs (ltlsynt < 0.05 s) that both decide as the user runs them: a/2 only; 0.06 − 0.05 s.
    expect(md).toContain('took a median **10 ms** more than the `node -e 0` spawned just before it');
    // States come from ltlsynt's controller run.
    expect(md).toContain('median tslc 3, ltlsynt 5');
    expect(md).toContain('| verdict only: tslc check --no-states / ltlsynt --realizability, wall | 3 |');
    // The floor row: `node -e 0` of each spec both decide against ltlsynt's verdict run,
    // 0.05 / 0.1 = 0.5 and 0.05 / 0.03 ≈ 1.67 → median ≈ 1.08.
    expect(md).toMatch(/\| floor: `node -e 0` \(spawned before each spec\) \/ ltlsynt --realizability, wall \| 2 \| 0\.050 \| 0\.065 \| 1\.08 \|/);
  });

  it("a contradiction gets ltlsynt's second opinion, and the report says whom it sides with", () => {
    // ltlsynt's default decomposition answered UNREALIZABLE on a realizable spec; undecomposed and
    // checked, it says REALIZABLE (the case the generated specs found).
    expect(secondOpinionVerdict('REALIZABLE', 'REALIZABLE')).toBe('realizable');
    // Its default algorithm's strategy failed `--verify`; `--algo=ds` says UNREALIZABLE.
    expect(secondOpinionVerdict('REFUTED', 'UNREALIZABLE')).toBe('unrealizable');
    // A strategy that passed its check outweighs an UNREALIZABLE of the other run.
    expect(secondOpinionVerdict('UNREALIZABLE', 'REALIZABLE')).toBe('realizable');
    expect(secondOpinionVerdict('TIMEOUT', 'ERROR')).toBeUndefined();
    const rows: Row[] = [
      { ...row('tlsf/a/1.tlsf', run('realizable', 0.2), run('unrealizable', 0.1)), secondOpinion: { undecomposed: 'REALIZABLE', ds: 'REALIZABLE', verdict: 'realizable' } },
      { ...row('tlsf/a/2.tlsf', run('unrealizable', 0.2), run('realizable', 0.1)), secondOpinion: { undecomposed: 'REALIZABLE', ds: 'TIMEOUT', verdict: 'realizable' } },
    ];
    const md = report(rows, (r) => r.ltlsynt, { timeout: 10, live: true, withStates: true, nodeBefore: 0.05, nodeAfter: 0.05, nodeFloor: 0.05, args: ['syntcomp'] });
    expect(md).toContain('| **contradictions** (tslc vs ltlsynt) | **2** |');
    expect(md).toContain('Second opinion on `a/1.tlsf`: `ltlsynt --verify --decompose=no` REALIZABLE, with `--algo=ds` REALIZABLE — sides with tslc (realizable).');
    expect(md).toContain('Second opinion on `a/2.tlsf`: `ltlsynt --verify --decompose=no` REALIZABLE, with `--algo=ds` TIMEOUT — sides with its first answer (realizable).');
  });

  it.skipIf(spawnSync('ltlsynt', ['--version']).status !== 0 || spawnSync('syfco', ['--version']).status !== 0)(
    "asks an installed ltlsynt for its second opinion where its default decomposition is wrong",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'tslc-second-opinion-'));
      try {
        const path = join(dir, 'spec.tlsf');
        writeFileSync(path, generatedSpec(1001, 1853).tlsf);
        expect((await runLtlsynt(path, 20, false)).verdict).toBe('unrealizable');
        expect(await secondOpinion(path, 20)).toEqual({ undecomposed: 'REALIZABLE', ds: 'REALIZABLE', verdict: 'realizable' });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    60_000,
  );

  it('median and the seeded generator behave', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
    expect(Number.isNaN(median([]))).toBe(true);
    const r1 = seededRandom(5);
    const r2 = seededRandom(5);
    const xs = Array.from({ length: 5 }, () => r1());
    expect(Array.from({ length: 5 }, () => r2())).toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
  });
});
