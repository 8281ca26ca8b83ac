/** Plain-text rendering of an audit report: a summary table, then the violating runs with witnesses. */
import type { AuditReport, RunOutcome } from './audit.js';

export interface RenderOptions {
  /** Print each violating run's witness (the steps where the formula changed). */
  readonly witnesses?: boolean;
  /** At most this many violating runs per property are listed; default 20. */
  readonly maxRuns?: number;
  readonly logName?: string;
  /**
   * The violating runs to list, per property (e.g. from a `ViolationSample` fed by `onRun` when
   * the report keeps no runs); by default taken from `report.runs`.
   */
  readonly listed?: ViolationSample;
}

const DEFAULT_LISTED = 20;

/** The first `limit` violating runs of each property, collected one run at a time. */
export class ViolationSample {
  readonly runs: RunOutcome[][];
  constructor(
    properties: number,
    readonly limit = DEFAULT_LISTED,
  ) {
    this.runs = Array.from({ length: properties }, () => []);
  }

  add(run: RunOutcome): void {
    run.properties.forEach((p, i) => {
      if (p.violations > 0 && this.runs[i].length < this.limit) this.runs[i].push(run);
    });
  }
}

function pct(x: number): string {
  return `${(100 * x).toFixed(2)}%`;
}

/** Text columns (the first `left`) are left-aligned, numbers right-aligned. */
function table(rows: readonly (readonly string[])[], left = 1): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) => r.map((cell, c) => (c < left ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ').trimEnd()).join('\n');
}

export function renderReport(report: AuditReport, options: RenderOptions = {}): string {
  const out: string[] = [];
  const sem =
    report.semantics === 'ltl3'
      ? 'LTL3 (a property neither violated nor satisfied by the end of a run stays pending)'
      : 'LTLf (each run is the whole trace: unmet eventualities and pending next-steps are violations)';
  out.push(`${options.logName ? options.logName + ': ' : ''}${report.events} events in ${report.runCount} run(s); end-of-log semantics ${sem}${report.recovery ? '; recovery on (violations counted after restarts)' : ''}.`);
  out.push('');
  const rows: string[][] = [['property', 'kind', 'runs', 'violated', 'share', 'violations', 'satisfied', 'pending']];
  for (const s of report.summary) {
    rows.push([s.property, s.kind, String(s.runs), String(s.violatedRuns), pct(s.share), String(s.violations), String(s.satisfiedRuns), String(s.pendingRuns)]);
  }
  const runCount = report.runCount;
  // Safety rules (broken at a step) and liveness rules (an obligation never met) are summed apart:
  // the papers count the first as adherence failures and report the second separately.
  for (const kind of ['safety', 'liveness', 'other'] as const) {
    const n = report.summary.filter((s) => s.kind === kind).length;
    if (n === 0) continue;
    const violated = report.violatedRunsByKind[kind];
    rows.push([`(any ${kind} rule)`, '', String(runCount), String(violated), pct(runCount ? violated / runCount : 0), '', '', '']);
  }
  out.push(table(rows, 2));
  const kinds = new Set(report.summary.map((s) => s.kind));
  out.push(
    [
      kinds.has('safety') ? 'safety: broken at a step of the log' : '',
      kinds.has('liveness') ? 'liveness: broken only by an obligation still unmet when a run ends (LTLf)' : '',
      kinds.has('other') ? 'other: neither alone (e.g. a safety part and an eventuality together)' : '',
    ]
      .filter((x) => x !== '')
      .join('; ') + '.',
  );
  const maxRuns = options.maxRuns ?? options.listed?.limit ?? DEFAULT_LISTED;
  const sample = options.listed ?? new ViolationSample(report.summary.length, maxRuns);
  if (!options.listed) for (const r of report.runs) sample.add(r);
  report.summary.forEach((s, i) => {
    if (s.violatedRuns === 0) return;
    out.push('');
    out.push(`${s.property}: violated in ${s.violatedRuns} run(s)`);
    const shown = sample.runs[i].slice(0, maxRuns);
    for (const r of shown) {
      const p = r.properties[i];
      const where = p.firstViolationLine !== undefined ? `step ${p.firstViolationStep} (line ${p.firstViolationLine})` : 'end of run';
      const early = r.closedEarly ? ` [closed early at line ${r.lastLine}]` : '';
      out.push(`  run ${r.run === '' ? '(all)' : r.run}: first violation at ${where}${p.violations > 1 ? `, ${p.violations} violations` : ''}${early}`);
      if (options.witnesses) {
        for (const w of p.witness) {
          out.push(`    step ${w.step}${w.at !== undefined ? ` (line ${w.at})` : ''}  {${w.labels.join(', ')}}  →  ${w.formula}`);
        }
      }
    }
    if (s.violatedRuns > shown.length) out.push(`  … and ${s.violatedRuns - shown.length} more (use --json for all)`);
  });
  if (report.closedEarly.count > 0) {
    out.push('');
    out.push(closedEarlyNote(report));
  }
  if (report.malformed.count > 0) {
    out.push('');
    out.push(`${report.malformed.count} malformed line(s) skipped${report.malformed.count > report.malformed.first.length ? ` (first ${report.malformed.first.length} shown)` : ''}:`);
    for (const m of report.malformed.first) out.push(`  line ${m.line}: ${m.reason}`);
  }
  return out.join('\n');
}

/** The warning for runs closed before the end of the log by the open-run bound. */
export function closedEarlyNote(report: AuditReport): string {
  const { count, reopened, maxOpenRuns } = report.closedEarly;
  return (
    `warning: ${count} run(s) were closed early, because more than ${maxOpenRuns} runs were open at once (--max-open-runs): ` +
    `each was closed when it had been idle longest, with the verdicts of a log ending at its last event` +
    (reopened > 0 ? `; ${reopened} of them had later events, audited as separate runs named id@lineN` : '; none of them had later events') +
    '.'
  );
}
