/**
 * Issue 18 item 10: `tslc audit --group-by` holds a bounded number of open runs, each small.
 * Past `maxOpenRuns` the run idle longest is closed early (reported so, with end-of-log
 * verdicts); the per-run state is small enough that a heap far below what the old auditor needed
 * audits tens of thousands of simultaneously open runs.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseLtl } from '../../runtime/ltl/parse.js';
import { type AuditReport, type RunOutcome, auditLog, defaultMaxOpenRuns } from '../../src/audit/audit.js';
import type { LogItem } from '../../src/audit/logs.js';
import { buildMonitorAutomaton } from '../../src/audit/automaton.js';
import { renderReport } from '../../src/audit/report.js';

const properties = [
  { name: 'resp', formula: parseLtl('G (req -> X ack)') },
  { name: 'done', formula: parseLtl('F done') },
  { name: 'safe', formula: parseLtl('G !(a & b)') },
];

/** Runs in blocks of `block` runs whose events interleave round-robin; every field in every event. */
function blockLog(runs: number, block: number, events: number, seed: number): LogItem[] {
  let s = seed;
  const r = () => ((s = (s * 16807) % 2147483647) / 2147483647);
  const items: LogItem[] = [];
  let line = 0;
  for (let first = 0; first < runs; first += block) {
    for (let e = 0; e < events; e++) {
      for (let k = first; k < Math.min(runs, first + block); k++) {
        const event = { run: `r${k}`, req: r() < 0.4, ack: r() < 0.6, done: r() < 0.15, a: r() < 0.3, b: r() < 0.3 };
        items.push({ kind: 'event', line: ++line, event });
      }
    }
  }
  return items;
}

/** A run's verdicts without the closed-early mark. */
const verdicts = (r: RunOutcome) => ({ ...r, closedEarly: undefined });

describe('bounded open runs', () => {
  it('closes the run idle longest past maxOpenRuns; runs that had ended keep exactly their unbounded verdicts', async () => {
    for (const semantics of ['ltl3', 'ltlf'] as const) {
      const items = blockLog(120, 8, 4, 7);
      const unbounded = await auditLog(items, { properties, groupBy: 'run', semantics, maxOpenRuns: 1_000_000 });
      const bounded = await auditLog(items, { properties, groupBy: 'run', semantics, maxOpenRuns: 8 });
      expect(unbounded.closedEarly.count).toBe(0);
      // Every block but the last is closed early (when the next block's runs open), none reopened.
      expect(bounded.closedEarly).toEqual({ count: 112, reopened: 0, maxOpenRuns: 8 });
      expect(bounded.runs.filter((r) => r.closedEarly)).toHaveLength(112);
      const byName = new Map(unbounded.runs.map((r) => [r.run, r]));
      for (const r of bounded.runs) expect(verdicts(r), `${semantics} ${r.run}`).toEqual(verdicts(byName.get(r.run)!));
      expect(bounded.summary).toEqual(unbounded.summary);
      // Some verdicts are decided at the end of the run, so the equality above is not vacuous.
      expect(unbounded.summary.some((s) => s.violatedRuns > 0)).toBe(true);
    }
  });

  it('a run closed early whose id comes back is audited in parts, and the report says so', async () => {
    // a, b, c interleaved with room for two: c's first event closes a (idle longest).
    const events = [
      { run: 'a', req: true, ack: false, done: false, a: false, b: false },
      { run: 'b', req: false, ack: false, done: true, a: false, b: false },
      { run: 'c', req: false, ack: false, done: false, a: false, b: false },
      { run: 'a', req: false, ack: false, done: false, a: false, b: false },
    ];
    const items: LogItem[] = events.map((event, i) => ({ kind: 'event', line: i + 1, event }));
    const ltlf: AuditReport = await auditLog(items, { properties, groupBy: 'run', semantics: 'ltlf', maxOpenRuns: 2 });
    expect(ltlf.runs.map((r) => [r.run, r.events, r.firstLine, r.lastLine, r.closedEarly ?? false])).toEqual([
      ['a', 1, 1, 1, true],
      ['b', 1, 2, 2, true],
      ['c', 1, 3, 3, false],
      ['a@line4', 1, 4, 4, false],
    ]);
    expect(ltlf.closedEarly).toEqual({ count: 2, reopened: 1, maxOpenRuns: 2 });
    // As at the end of a log ending at line 1: req without its next step fails under LTLf.
    expect(ltlf.runs[0].properties[0]).toMatchObject({ name: 'resp', verdict: 'violated' });
    expect(ltlf.runs[1].properties[1]).toMatchObject({ name: 'done', verdict: 'satisfied' });
    const text = renderReport(ltlf);
    expect(text).toMatch(/warning: 2 run\(s\) were closed early, because more than 2 runs were open at once/);
    expect(text).toMatch(/1 of them had later events, audited as separate runs/);
    expect(text).toMatch(/run a: first violation at .*\[closed early at line 1\]/);
  });

  it('the run closed is the one idle longest, not the one opened first', async () => {
    const ev = (run: string) => ({ run, req: false, ack: false, done: false, a: false, b: false });
    const order = ['a', 'b', 'a', 'c', 'a', 'd', 'c'];
    const items: LogItem[] = order.map((run, i) => ({ kind: 'event', line: i + 1, event: ev(run) }));
    const report = await auditLog(items, { properties, groupBy: 'run', maxOpenRuns: 2 });
    // c opens: b (last seen at line 2) goes, not a (opened first but active at line 3). d opens:
    // c (line 4) goes, not a (line 5). c comes back at line 7: now a (line 5) is idle longest.
    expect(report.runs.map((r) => [r.run, r.events, r.closedEarly ?? false])).toEqual([
      ['b', 1, true],
      ['c', 1, true],
      ['a', 3, true],
      ['d', 1, false],
      ['c@line7', 1, false],
    ]);
    expect(report.closedEarly).toMatchObject({ count: 3, reopened: 1 });
  });

  it('each run has its own automaton state (--complete), closed early or not', async () => {
    const doomed = [{ name: 'doomed', formula: parseLtl('G (a -> X (F b & G !b))') }];
    const automata = [buildMonitorAutomaton(doomed[0].formula)];
    const events = [
      { run: 'x', a: true, b: false },
      { run: 'y', a: false, b: false },
      { run: 'x', a: false, b: false },
      { run: 'y', a: false, b: false },
      { run: 'z', a: false, b: false },
    ];
    const items: LogItem[] = events.map((event, i) => ({ kind: 'event', line: i + 1, event }));
    for (const maxOpenRuns of [1, 3]) {
      const report = await auditLog(items, { properties: doomed, automata, groupBy: 'run', maxOpenRuns });
      const verdicts = report.runs.map((r) => [r.run, r.properties[0].verdict, r.properties[0].decidedBy ?? 'progression']);
      // With room for one run, x and y come back as x@line3 and y@line4 (fresh automata, nothing seen yet).
      expect(verdicts).toEqual(
        maxOpenRuns === 1
          ? [['x', 'violated', 'automaton'], ['y', 'pending', 'progression'], ['x@line3', 'pending', 'progression'], ['y@line4', 'pending', 'progression'], ['z', 'pending', 'progression']]
          : [['x', 'violated', 'automaton'], ['y', 'pending', 'progression'], ['z', 'pending', 'progression']],
      );
      expect(report.runs[0].properties[0].firstViolationLine).toBe(1);
    }
  });

  it('the default bound shrinks with the number of properties and stays positive', () => {
    expect(defaultMaxOpenRuns(2)).toBeGreaterThan(100_000);
    expect(defaultMaxOpenRuns(10)).toBeLessThan(defaultMaxOpenRuns(2));
    expect(defaultMaxOpenRuns(10_000)).toBeGreaterThanOrEqual(1000);
  });
});

const root = join(import.meta.dirname, '../..');
const built = existsSync(join(root, 'dist/src/cli/main.js'));

describe.skipIf(!built)('per-run state is small', () => {
  it('40,000 simultaneously open runs audit in a 64 MB heap (the old auditor needed ~6.5 KB a run, 260 MB)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tslc-open-runs-'));
    const runs = 40_000;
    const lines: string[] = [];
    // Every run's first event, then every run's second: all runs are open at once.
    for (let pass = 0; pass < 2; pass++) {
      for (let i = 0; i < runs; i++) lines.push(JSON.stringify({ run: `run-${i}`, req: pass === 0 && i % 3 === 0, ack: pass === 1 && i % 5 !== 0, a: i % 7 === 0, b: pass === 1 && i % 11 === 0 }));
    }
    const log = join(dir, 'interleaved.jsonl');
    writeFileSync(log, lines.join('\n') + '\n');
    const rules = join(dir, 'rules.ltl');
    writeFileSync(rules, 'resp: G (req -> X ack)\nsafe: G !(a & b)\n');
    const res = spawnSync(
      process.execPath,
      ['--max-old-space-size=64', join(root, 'bin/tslc.js'), 'audit', '--spec', rules, '--group-by', 'run', '--max-open-runs', '1000000', log],
      { encoding: 'utf8', timeout: 120_000 },
    );
    expect(res.stderr).not.toMatch(/heap out of memory|Allocation failed/);
    expect(res.status).toBe(1);
    // resp: req at i % 3 == 0 and no ack at i % 5 == 0 → violated for i % 15 == 0; safe: a & b at i % 77 == 0.
    expect(res.stdout).toMatch(new RegExp(`resp\\s+safety\\s+${runs}\\s+${Math.ceil(runs / 15)}\\s`));
    expect(res.stdout).toMatch(new RegExp(`safe\\s+safety\\s+${runs}\\s+${Math.ceil(runs / 77)}\\s`));
    expect(res.stdout).not.toMatch(/closed early/);
  }, 150_000);
});
