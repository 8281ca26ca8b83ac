/**
 * Why a spec is unrealizable, as plain data: the core by file:line, the assumptions it is stated
 * against, whether it is minimal, the counterplay story, and the text `tslc explain` prints. Built
 * from src/explain's result by `check` (for each unrealizable spec) and `explain`.
 */
import type { UnrealizableExplanation } from '../explain/explain.js';
import type { Story } from '../explain/counterplay.js';
import type { ObligationKind } from '../explain/core.js';

/** One line of a spec, as explanations name it. */
export interface SpecLine {
  /** `adventure.tsl:23` (or the part's name when it has no line). */
  readonly location: string;
  readonly file?: string;
  readonly line?: number;
  /** The formula as written. */
  readonly text: string;
}

export interface Explanation {
  /** "`a.tsl:14` and `b.tsl:3` cannot both hold". */
  readonly headline: string;
  /** Guarantees (and presets) no controller can satisfy together. */
  readonly core: readonly (SpecLine & { readonly kind: ObligationKind })[];
  /** The assumptions the core is stated against. */
  readonly assumptions: readonly SpecLine[];
  /** True when every core line was shown necessary within the budget. */
  readonly minimal: boolean;
  readonly solverCalls: number;
  readonly seconds: number;
  readonly budgetSeconds: number;
  /** How the environment defeats every controller (absent when the solver ran out of time). */
  readonly story?: Story;
  /** The explanation as `tslc explain` prints it. */
  readonly text: string;
}

/** The data of an explanation; loads src/explain's wording only when there is one to word. */
export async function summarizeExplanation(e: UnrealizableExplanation): Promise<Explanation> {
  const { coreHeadline, formatExplanation } = await import('../explain/explain.js');
  const { partLocation, partText } = await import('../explain/words.js');
  const line = (p: Parameters<typeof partText>[0]): SpecLine => ({ location: partLocation(p), file: p.span?.file, line: p.span?.line, text: partText(p) });
  return {
    headline: coreHeadline(e.core),
    core: e.core.members.map((m) => ({ kind: m.kind, ...line(m.part) })),
    assumptions: e.core.context.map(line),
    minimal: e.core.minimal,
    solverCalls: e.core.solverCalls,
    seconds: e.core.seconds,
    budgetSeconds: e.core.budgetMs / 1000,
    ...(e.story ? { story: e.story } : {}),
    text: formatExplanation(e),
  };
}
