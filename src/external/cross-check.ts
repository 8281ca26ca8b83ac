/**
 * `tslc check --cross-check`: every spec through the builtin engine and every installed external
 * tool, one after another (so times are comparable on a small machine), and a table of verdicts.
 * A disagreement — one back end says realizable, another unrealizable, or a tool's controller
 * fails the independent check — makes the command exit 1.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { GameSpec } from '../game/spec.js';
import { runExternal } from './run.js';
import type { Backend, BuiltinBackend } from './solve.js';
import type { ToolInfo } from './tools.js';
import type { ControllerVerifier } from './verifier.js';
import { nowMs } from '../diagnostics/clock.js';

export type CrossVerdict = 'realizable' | 'unrealizable' | 'unknown' | 'error' | 'wrong';

export interface CrossCheckCell {
  readonly backend: Backend;
  readonly verdict: CrossVerdict;
  readonly timeMs: number;
  /** A controller was produced and passed the independent check. */
  readonly verified: boolean;
  readonly diagnostic?: Diagnostic;
}

export interface CrossCheckRow {
  readonly spec: string;
  readonly cells: readonly CrossCheckCell[];
  readonly agreement: 'agree' | 'disagree' | 'undecided';
}

export interface CrossCheckOptions {
  readonly builtin: BuiltinBackend;
  /** Installed tools (from `findTools()`); unavailable ones are skipped. */
  readonly tools: readonly ToolInfo[];
  readonly timeoutMs: number;
  readonly verify?: ControllerVerifier;
  /** Row label (e.g. the file name); defaults to the spec's name. */
  readonly label?: string;
}

export async function crossCheck(spec: GameSpec, options: CrossCheckOptions): Promise<CrossCheckRow> {
  const cells: CrossCheckCell[] = [];
  const started = nowMs();
  const own = await options.builtin(new AbortController().signal);
  const ownTime = Math.round(nowMs() - started);
  cells.push({
    backend: 'builtin',
    verdict: own.status,
    timeMs: ownTime,
    verified: own.status === 'realizable' && own.machine !== undefined,
    diagnostic: own.status === 'error' ? own.diagnostic : undefined,
  });
  for (const t of options.tools) {
    if (!t.available || !t.location) continue;
    // Synthesis mode, so a REALIZABLE answer comes with a controller we can check.
    const r = await runExternal(t.tool, spec, { mode: 'synthesis', timeoutMs: options.timeoutMs, verify: options.verify, location: t.location });
    const verdict: CrossVerdict =
      r.status === 'realizable' || r.status === 'unrealizable' || r.status === 'wrong'
        ? r.status
        : r.status === 'timeout' || r.status === 'cancelled'
          ? 'unknown'
          : 'error';
    cells.push({
      backend: t.tool,
      verdict,
      timeMs: r.timeMs,
      verified: r.status === 'realizable' && r.verified,
      diagnostic: 'diagnostic' in r ? r.diagnostic : undefined,
    });
  }
  return { spec: options.label ?? spec.name, cells, agreement: agreementOf(cells) };
}

export function agreementOf(cells: readonly CrossCheckCell[]): CrossCheckRow['agreement'] {
  if (cells.some((c) => c.verdict === 'wrong')) return 'disagree';
  const decided = new Set(cells.filter((c) => c.verdict === 'realizable' || c.verdict === 'unrealizable').map((c) => c.verdict));
  if (decided.size > 1) return 'disagree';
  return decided.size === 1 ? 'agree' : 'undecided';
}

function cellText(c: CrossCheckCell | undefined): string {
  if (!c) return '-';
  const seconds = (c.timeMs / 1000).toFixed(2);
  const tag = c.verdict === 'realizable' && c.verified ? 'realizable✓' : c.verdict === 'wrong' ? 'WRONG' : c.verdict;
  return `${tag} ${seconds}s`;
}

/** A plain-text table: one row per spec, one column per back end, then the agreement. */
export function formatCrossCheckTable(rows: readonly CrossCheckRow[]): string {
  const backends: Backend[] = [];
  for (const r of rows) for (const c of r.cells) if (!backends.includes(c.backend)) backends.push(c.backend);
  const header = ['spec', ...backends, 'result'];
  const body = rows.map((r) => [r.spec, ...backends.map((b) => cellText(r.cells.find((c) => c.backend === b))), r.agreement.toUpperCase()]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => [...row[i]].length)));
  const line = (cols: string[]) => cols.map((c, i) => c + ' '.repeat(widths[i] - [...c].length)).join('  ').trimEnd();
  const out = [line(header), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)];
  const agree = rows.filter((r) => r.agreement === 'agree').length;
  const disagree = rows.filter((r) => r.agreement === 'disagree').length;
  out.push('', `${rows.length} spec(s): ${agree} agree, ${disagree} disagree, ${rows.length - agree - disagree} undecided (✓ = controller independently verified)`);
  return out.join('\n');
}

/** Problems worth printing under the table (tools that lied, crashed or were missing). */
export function crossCheckDiagnostics(rows: readonly CrossCheckRow[]): Diagnostic[] {
  return rows.flatMap((r) => r.cells.flatMap((c) => (c.diagnostic ? [{ ...c.diagnostic, message: `${r.spec}: ${c.diagnostic.message}` }] : [])));
}
