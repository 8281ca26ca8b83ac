/**
 * src/game — the game description every front end produces and every solver consumes.
 *
 * TSL, TLSF and plain Spot-syntax LTL all translate into a `GameSpec`: which atomic propositions
 * the environment controls (inputs) and which the controller controls (outputs), how outputs are
 * grouped into TSL signals (exactly one update per signal per step), and the specification in
 * TLSF's four-part shape. Data flows one way: front end → GameSpec → solver → Mealy machine.
 */
import type { SignalData, TermData } from '../../runtime/table.js';
import type { SourceSpan } from '../diagnostics/diagnostic.js';
import { type Formula, and, ap as atomFormula, G, implies, not, or, TRUE } from '../ltl/formula.js';

/** A named part of the specification, kept separate so explanations can point at source lines. */
export interface SpecPart {
  readonly formula: Formula;
  /** Where the user wrote it (for cores, doc comments, explanations). */
  readonly span?: SourceSpan;
  /** The formula as the user wrote it, for messages. */
  readonly text?: string;
  /** Set on assumptions a theory justifies (`#LIA`, `#UF`) rather than the user's text. */
  readonly theory?: TheoryProvenance;
}

/** The theories a TSL spec can be read in (`#LIA`, `#UF` headers; see docs/theories.md). */
export type TheoryName = 'LIA' | 'UF';

/** Where a theory assumption comes from, in words a user can check. */
export interface TheoryProvenance {
  readonly theory: TheoryName;
  /**
   * consistency: predicates over the same terms that cannot hold together; update: what an
   * update makes true at the next step; reachability: repeating an update reaches a predicate.
   */
  readonly kind: 'consistency' | 'update' | 'reachability';
  /** The fact, e.g. `n < 3 and n >= 3 cannot both hold`. */
  readonly fact: string;
}

/** What a proposition stands for in the user's terms (TSL predicate or update). */
export interface PropositionInfo {
  /** The proposition name used in formulas (and given to external tools). */
  readonly name: string;
  /** TSL: the predicate term (`inCave storyPassage`) or update (`[cell <- f x]`) as written. */
  readonly term?: string;
  /** TSL input propositions: the predicate call they abstract, structured for code generation. */
  readonly predicate?: { readonly fn: string; readonly args: readonly TermData[] };
  /** TSL input propositions that test a boolean signal directly (`room.empty`) instead of a predicate. */
  readonly booleanSignal?: string;
  /** TSL output propositions: the update they abstract. */
  readonly update?: { readonly signal: string; readonly term: TermData; readonly isSelfUpdate: boolean };
}

/** A TSL signal (cell or output): its update propositions, of which exactly one holds per step. */
export interface SignalGroup {
  readonly signal: string;
  /** Output proposition names, one per distinct update of this signal (incl. the self-update). */
  readonly updates: readonly string[];
  /** The proposition of `[signal <- signal]`, when the signal is a cell that may keep its value. */
  readonly selfUpdate?: string;
}

export interface GameSpec {
  /** Display name (file stem or TLSF TITLE). */
  readonly name: string;
  readonly file?: string;
  /** Mealy: the controller sees the current input before choosing outputs (TSL, ltlsynt default). */
  readonly semantics: 'mealy' | 'moore';
  readonly inputs: readonly PropositionInfo[];
  readonly outputs: readonly PropositionInfo[];
  /** Partition of some outputs into exactly-one groups; outputs in no group are free booleans. */
  readonly signals: readonly SignalGroup[];
  /** TLSF INITIALLY: environment conditions on the start; if violated, anything goes. */
  readonly initially: readonly SpecPart[];
  /** TLSF PRESET: controller obligations that hold regardless of the assumptions. */
  readonly preset: readonly SpecPart[];
  /** Environment assumptions (already wrapped in G where they hold always). */
  readonly assumptions: readonly SpecPart[];
  /** Controller guarantees (already wrapped in G where they hold always). */
  readonly guarantees: readonly SpecPart[];
  /** TSL only: every signal name with its role (input / cell / output), for code generation. */
  readonly tslSignals?: readonly SignalData[];
  /**
   * TSL only: the theory the predicates and functions are read in (`#LIA`, `#UF`); its
   * assumptions are among `assumptions`, marked with `theory`. Absent: all are uninterpreted.
   */
  readonly theory?: TheoryName;
}

/** `G` of "exactly one update per signal", for every signal group. */
export function signalConstraint(spec: GameSpec): Formula {
  const perSignal = spec.signals.map((group) => exactlyOne(group.updates));
  return perSignal.length === 0 ? TRUE : G(and(...perSignal));
}

export function exactlyOne(names: readonly string[]): Formula {
  const atomsOf = names.map((n) => atomFormula(n));
  const pairwise: Formula[] = [];
  for (let i = 0; i < atomsOf.length; i++)
    for (let j = i + 1; j < atomsOf.length; j++) pairwise.push(not(and(atomsOf[i], atomsOf[j])));
  return and(or(...atomsOf), ...pairwise);
}

/**
 * The whole specification as one formula, combined exactly as syfco does:
 * `∧I → (∧P ∧ sig ∧ (∧A → ∧G))`, where `sig` is the signal constraint (a preset obligation).
 */
export function specFormula(spec: GameSpec): Formula {
  const conj = (parts: readonly SpecPart[]) => and(...parts.map((p) => p.formula));
  return implies(
    conj(spec.initially),
    and(conj(spec.preset), signalConstraint(spec), implies(conj(spec.assumptions), conj(spec.guarantees))),
  );
}

export function inputNames(spec: GameSpec): string[] {
  return spec.inputs.map((p) => p.name);
}
export function outputNames(spec: GameSpec): string[] {
  return spec.outputs.map((p) => p.name);
}
