/**
 * Unrealizability cores: a minimal set of controller obligations (guarantees and presets) that is
 * still unrealizable under all the assumptions, found by asking the solver about sub-specs.
 *
 * Why keep every assumption: assumptions only help the controller, so dropping one never turns an
 * unrealizable spec realizable — a "minimal" core would drop them all and lose their meaning.
 * Instead the core keeps them all and reports, as context, the assumptions that talk about the
 * core's propositions (transitively): the ones the core's conflict is stated against.
 *
 * Search: deletion by halves (ddmin/QuickXplain style). A chunk of candidates is removed at once;
 * if the rest is still unrealizable the chunk is gone, otherwise the chunk is split until single
 * members are proven necessary. A member whose removal the solver could not decide in time stays
 * in the core and the core is flagged as possibly not minimal — never wrongly "minimal".
 */
import type { GameSpec, SpecPart } from '../game/spec.js';
import { atoms } from '../ltl/formula.js';
import { checkRealizability } from '../synthesis/index.js';
import { nowMs } from '../diagnostics/clock.js';

export type ObligationKind = 'guarantee' | 'preset';

export interface CoreMember {
  readonly kind: ObligationKind;
  /** Index into `spec.guarantees` or `spec.preset`. */
  readonly index: number;
  readonly part: SpecPart;
}

export interface CoreOptions {
  /** Total wall-clock budget for all solver calls (default 60 s). */
  readonly budgetMs?: number;
  /** Budget of one solver call (default 15 s, capped by what is left of the total). */
  readonly checkTimeoutMs?: number;
  readonly onProgress?: (message: string) => void;
}

export interface CoreResult {
  readonly members: readonly CoreMember[];
  /** Assumptions and INITIALLY parts over the core's propositions (the conflict's context). */
  readonly context: readonly SpecPart[];
  /** True when every member was proven necessary (removing it made the rest realizable). */
  readonly minimal: boolean;
  /** The spec restricted to the core: all assumptions, only the core's obligations. */
  readonly coreSpec: GameSpec;
  readonly solverCalls: number;
  readonly seconds: number;
  readonly budgetMs: number;
}

export function allObligations(spec: GameSpec): CoreMember[] {
  return [
    ...spec.preset.map((part, index) => ({ kind: 'preset' as const, index, part })),
    ...spec.guarantees.map((part, index) => ({ kind: 'guarantee' as const, index, part })),
  ];
}

/** The spec with only `members` as obligations (assumptions, INITIALLY and signals unchanged). */
export function restrictTo(spec: GameSpec, members: readonly CoreMember[]): GameSpec {
  const keep = (kind: ObligationKind) => members.filter((m) => m.kind === kind).sort((a, b) => a.index - b.index).map((m) => m.part);
  return { ...spec, preset: keep('preset'), guarantees: keep('guarantee') };
}

/**
 * Shrink an unrealizable spec's obligations to a core. The caller should already know the full
 * spec is unrealizable; if the solver says otherwise mid-search the search treats it as "needed".
 */
export function findCore(spec: GameSpec, options: CoreOptions = {}): CoreResult {
  const started = nowMs();
  const budgetMs = options.budgetMs ?? 60_000;
  const checkTimeoutMs = options.checkTimeoutMs ?? 15_000;
  const note = options.onProgress ?? (() => {});
  let calls = 0;
  let unproven = false;

  let core = allObligations(spec);
  const remaining = () => budgetMs - (nowMs() - started);
  const stillUnrealizable = (members: readonly CoreMember[]): 'yes' | 'no' | 'unknown' => {
    const left = remaining();
    if (left < 50) return 'unknown';
    calls++;
    const r = checkRealizability(restrictTo(spec, members), { timeoutMs: Math.min(checkTimeoutMs, left) });
    return r.verdict === 'unrealizable' ? 'yes' : r.verdict === 'realizable' ? 'no' : 'unknown';
  };

  const shrink = (chunk: readonly CoreMember[]): void => {
    if (chunk.length === 0) return;
    const rest = core.filter((m) => !chunk.includes(m));
    const answer = stillUnrealizable(rest);
    if (answer === 'yes') {
      note(`dropped ${chunk.length} obligation(s); ${rest.length} left`);
      core = rest;
      return;
    }
    if (chunk.length === 1) {
      if (answer === 'unknown') unproven = true;
      return;
    }
    // An undecided big chunk may still hide removable members: split it like a realizable one.
    const half = Math.ceil(chunk.length / 2);
    shrink(chunk.slice(0, half));
    shrink(chunk.slice(half).filter((m) => core.includes(m)));
  };
  shrink(core);

  const members = core;
  return {
    members,
    context: contextOf(spec, members),
    minimal: !unproven,
    coreSpec: restrictTo(spec, members),
    solverCalls: calls,
    seconds: (nowMs() - started) / 1000,
    budgetMs,
  };
}

/** Assumptions / INITIALLY parts sharing propositions with the core, closed transitively. */
function contextOf(spec: GameSpec, members: readonly CoreMember[]): SpecPart[] {
  const names = new Set<string>();
  for (const m of members) for (const a of atoms(m.part.formula)) names.add(a);
  const candidates = [...spec.initially, ...spec.assumptions];
  const chosen = new Set<SpecPart>();
  let grew = true;
  while (grew) {
    grew = false;
    for (const part of candidates) {
      if (chosen.has(part)) continue;
      const own = atoms(part.formula);
      if ([...own].some((a) => names.has(a))) {
        chosen.add(part);
        for (const a of own) names.add(a);
        grew = true;
      }
    }
  }
  return candidates.filter((p) => chosen.has(p));
}
