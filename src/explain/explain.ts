/**
 * `explainUnrealizable`: the whole answer to "why can no controller satisfy this spec?" — the
 * core (which lines conflict, under which assumptions) and the counterplay story on the core.
 * Used by `tslc explain`, `tslc check` on failure and the HTML report.
 */
import type { Counterstrategy } from '../game/counterstrategy.js';
import type { GameSpec, SpecPart } from '../game/spec.js';
import { checkRealizability, synthesize } from '../synthesis/index.js';
import { type CoreOptions, type CoreResult, findCore } from './core.js';
import { renderStory, type Story, tellStory } from './counterplay.js';
import { partLocation, partText } from './words.js';
import { nowMs } from '../diagnostics/clock.js';

export interface UnrealizableExplanation {
  readonly verdict: 'unrealizable';
  readonly core: CoreResult;
  /** The environment's winning strategy against the core (absent if the solver ran out of time). */
  readonly counterstrategy?: Counterstrategy;
  readonly story?: Story;
}

export type ExplainResult =
  | UnrealizableExplanation
  | { readonly verdict: 'realizable' }
  | { readonly verdict: 'unknown'; readonly reason: string };

export interface ExplainOptions extends CoreOptions {
  /** Skip the initial realizability check (the caller already knows it is unrealizable). */
  readonly knownUnrealizable?: boolean;
}

export function explainUnrealizable(spec: GameSpec, options: ExplainOptions = {}): ExplainResult {
  const budgetMs = options.budgetMs ?? 60_000;
  const started = nowMs();
  if (!options.knownUnrealizable) {
    const first = checkRealizability(spec, { timeoutMs: budgetMs });
    if (first.verdict === 'realizable') return { verdict: 'realizable' };
    if (first.verdict === 'unknown') return { verdict: 'unknown', reason: first.reason };
  }
  const left = () => Math.max(1000, budgetMs - (nowMs() - started));
  const core = findCore(spec, { ...options, budgetMs: left() });
  const solved = synthesize(core.coreSpec, { timeoutMs: left() });
  if (solved.verdict !== 'unrealizable') return { verdict: 'unrealizable', core };
  const story = tellStory(core.coreSpec, solved.counterstrategy);
  return { verdict: 'unrealizable', core, counterstrategy: solved.counterstrategy, story };
}

/** "`a.tsl:14` and `b.tsl:3` cannot both hold" — the one-line summary. */
export function coreHeadline(core: CoreResult): string {
  const where = core.members.map((m) => partLocation(m.part));
  if (where.length === 0) return 'the specification is unrealizable even without guarantees (its signal rules alone conflict)';
  if (where.length === 1) return `${where[0]} cannot be guaranteed`;
  const list = where.length === 2 ? where.join(' and ') : `${where.slice(0, -1).join(', ')} and ${where[where.length - 1]}`;
  return `${list} cannot ${where.length === 2 ? 'both' : 'all'} hold`;
}

export function formatExplanation(e: UnrealizableExplanation): string {
  const out: string[] = [];
  const c = e.core;
  out.push(`unrealizable: ${coreHeadline(c)}`);
  out.push('');
  out.push('core (minimal set of guarantees that no controller can satisfy together):');
  for (const m of c.members) out.push(`  ${partLocation(m.part)}  ${m.kind === 'preset' ? '[preset] ' : ''}${partText(m.part)}`);
  if (c.context.length > 0) {
    out.push('under the assumptions:');
    for (const p of c.context) out.push(`  ${partLocation(p)}  ${partText(p)}`);
  }
  out.push(
    c.minimal
      ? `minimal: without any one core line the rest is realizable; other conflicts may remain elsewhere (${c.solverCalls} solver calls, ${c.seconds.toFixed(1)} s of a ${(c.budgetMs / 1000).toFixed(0)} s budget)`
      : `note: the time budget (${(c.budgetMs / 1000).toFixed(0)} s) ran out before every line was proven necessary; the core may not be minimal`,
  );
  if (e.story) {
    out.push('');
    out.push('counterplay (how the environment defeats every controller):');
    out.push(indent(renderStory(e.story), '  '));
    if (e.story.truncated) out.push('  (story shortened; run `tslc play` to explore it step by step)');
  }
  return out.join('\n');
}

const indent = (text: string, by: string) => text.split('\n').map((l) => by + l).join('\n');

export function describePart(part: SpecPart): string {
  return `${partLocation(part)} ${partText(part)}`;
}
