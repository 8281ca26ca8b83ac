/** Plain-text rendering of an audit report: a summary table, then the violating runs with witnesses. */
import type { AuditReport } from './audit.js';

export interface RenderOptions {
  /** Print each violating run's witness (the steps where the formula changed). */
  readonly witnesses?: boolean;
  /** At most this many violating runs per property are listed; default 20. */
  readonly maxRuns?: number;
  readonly logName?: string;
}

function pct(x: number): string {
  return `${(100 * x).toFixed(2)}%`;
}

function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ').trimEnd()).join('\n');
}

export function renderReport(report: AuditReport, options: RenderOptions = {}): string {
  const out: string[] = [];
  const sem =
    report.semantics === 'ltl3'
      ? 'LTL3 (a property neither violated nor satisfied by the end of a run stays pending)'
      : 'LTLf (each run is the whole trace: unmet eventualities and pending next-steps are violations)';
  out.push(`${options.logName ? options.logName + ': ' : ''}${report.events} events in ${report.runs.length} run(s); end-of-log semantics ${sem}${report.recovery ? '; recovery on (violations counted after restarts)' : ''}.`);
  out.push('');
  const rows: string[][] = [['property', 'runs', 'violated', 'share', 'violations', 'satisfied', 'pending']];
  for (const s of report.summary) {
    rows.push([s.property, String(s.runs), String(s.violatedRuns), pct(s.share), String(s.violations), String(s.satisfiedRuns), String(s.pendingRuns)]);
  }
  const anyViolated = report.runs.filter((r) => r.properties.some((p) => p.violations > 0)).length;
  rows.push(['(any property)', String(report.runs.length), String(anyViolated), pct(report.runs.length ? anyViolated / report.runs.length : 0), '', '', '']);
  out.push(table(rows));
  const maxRuns = options.maxRuns ?? 20;
  report.summary.forEach((s, i) => {
    if (s.violatedRuns === 0) return;
    out.push('');
    out.push(`${s.property}: violated in ${s.violatedRuns} run(s)`);
    let shown = 0;
    for (const r of report.runs) {
      const p = r.properties[i];
      if (p.violations === 0) continue;
      if (shown++ >= maxRuns) {
        out.push(`  … and ${s.violatedRuns - maxRuns} more (use --json for all)`);
        break;
      }
      const where = p.firstViolationLine !== undefined ? `step ${p.firstViolationStep} (line ${p.firstViolationLine})` : 'end of run';
      out.push(`  run ${r.run === '' ? '(all)' : r.run}: first violation at ${where}${p.violations > 1 ? `, ${p.violations} violations` : ''}`);
      if (options.witnesses) {
        for (const w of p.witness) {
          out.push(`    step ${w.step}${w.at !== undefined ? ` (line ${w.at})` : ''}  {${w.labels.join(', ')}}  →  ${w.formula}`);
        }
      }
    }
  });
  if (report.malformed.count > 0) {
    out.push('');
    out.push(`${report.malformed.count} malformed line(s) skipped${report.malformed.count > report.malformed.first.length ? ` (first ${report.malformed.first.length} shown)` : ''}:`);
    for (const m of report.malformed.first) out.push(`  line ${m.line}: ${m.reason}`);
  }
  return out.join('\n');
}
