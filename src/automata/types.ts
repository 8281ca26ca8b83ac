/**
 * src/automata — ω-automata over atomic propositions: LTL translation, reductions, HOA I/O.
 *
 * The shared shape is a transition-based generalized Büchi automaton (TGBA). A run is accepting
 * when, for every acceptance set 0..accSets-1, it takes infinitely many edges marked with it.
 * A plain state-based Büchi automaton is the special case of one set with marks on every edge
 * leaving an accepting state; `accSets = 0` means every infinite run is accepting.
 *
 * Guards are propositional formulas over `aps` (hash-consed, so equal guards are `===`).
 */
import type { Formula } from '../ltl/formula.js';

export interface Edge {
  readonly to: number;
  readonly guard: Formula;
  /** Acceptance sets this edge belongs to (sorted, no duplicates). */
  readonly marks: readonly number[];
}

export interface Tgba {
  readonly aps: readonly string[];
  readonly stateCount: number;
  readonly initial: readonly number[];
  readonly accSets: number;
  /** edges[s] = edges leaving state s. */
  readonly edges: readonly (readonly Edge[])[];
  /** Optional: the formula each state stands for, for debugging and explanations. */
  readonly stateLabels?: readonly string[];
}
