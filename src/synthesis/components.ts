/**
 * A spec as a product of small deterministic automata with an Emerson–Lei acceptance condition,
 * for the parity-game route (parity-route.ts): no nondeterminism to resolve, so the game is
 * played on the product directly (no bounded counters, no determinization).
 *
 * The spec `I → (P ∧ (A → G))` (spec.ts) is split into conjuncts per part; each conjunct, in
 * negation normal form, is a Boolean combination of *atoms*, each recognised by a deterministic
 * component:
 *
 * - safety formulas (no U, F, M): progression (src/automata/progression.ts); the atom holds
 *   while the state is not `false`. All safety conjuncts of one part share one component;
 * - co-safety formulas (no G, R, W): progression; the atom holds once the state is `true`;
 * - `G c` with c co-safety (`G(r → F g)`, `G F p`, …): a Büchi component that follows every
 *   pending attempt to satisfy c (their conjunction, progressed) and marks a *breakpoint* each
 *   time all attempts started before the previous breakpoint are done (Miyano–Hayashi for a
 *   universal automaton: deterministic). `G F p` with p propositional is one state with `p`
 *   marked;
 * - `F s` with s safety: the complement of the Büchi component of `G ¬s` (Fin of its mark);
 * - `a U b` with a, b safety, as `(a W b) ∧ F b`; `a R b` with a, b co-safety, as `(a M b) ∨ G b`.
 *
 * Equal atoms (and `F G ¬p` for `G F p`) share one component: each is one mark of the condition.
 *
 * A safety or co-safety atom's value is known at every position for as long as the play stays
 * there (`current`), and for good once its state is a sink (`permanent`); a Büchi atom is
 * `Inf(mark)`. Anything else (`G(p ∨ F(q W r))`, `G(r → F G g)`, `X` over liveness) goes
 * through the Master Theorem (src/ltl/master-theorem.ts): a disjunction over guesses of a
 * co-Büchi restart component on the formula's own progression and `G c` / `F s` atoms as above.
 * That is only with `general` (the route taken on request); otherwise, and past the guess
 * limits, `componentsOf` returns undefined and the bounded engine takes the spec.
 */
import { BDD_FALSE, BDD_TRUE, BddManager, type BddNode } from '../automata/bdd.js';
import { Progression } from '../automata/progression.js';
import { type GameSpec, exactlyOne, inputNames, outputNames, type SignalGroup } from '../game/spec.js';
import { and, F, type Formula, G, isPropositional, M, not, or, W } from '../ltl/formula.js';
import { isSyntacticCosafety, isSyntacticSafety } from '../ltl/fragments.js';
import { masterGuesses, type MasterLimits, nuRewrite } from '../ltl/master-theorem.js';
import { toNnf } from '../ltl/nnf.js';

export interface Component {
  readonly kind: 'safety' | 'cosafety' | 'buchi';
  /** Shown in progress messages. */
  readonly label: string;
  readonly initial: number;
  /**
   * One step from a state, as groups of factors: BDDs over the letters (first in the order) and
   * below them anything the component likes (progression obligations). Once a letter is fixed,
   * what is left of each group's factors, conjoined, determines the successor (`successor`).
   */
  groups(state: number): readonly (readonly BddNode[])[];
  /** The successor, and whether the step is marked (Büchi components), from each group's conjunction. */
  successor(state: number, groups: readonly BddNode[]): { readonly to: number; readonly mark: boolean };
  /** The atom's value for every continuation from this state, if that is settled. */
  permanent(state: number): boolean | undefined;
  /** The atom's value if the play stayed in states like this one forever (undefined: Büchi). */
  current(state: number): boolean | undefined;
}

export interface Components {
  /** Propositions, first mover's first (the letter manager's order). */
  readonly letters: readonly string[];
  readonly bdd: BddManager;
  readonly components: readonly Component[];
  /** Acceptance over the atoms: variable `k` of `acceptanceBdd` is component k's atom. */
  readonly acceptance: BddNode;
  readonly acceptanceBdd: BddManager;
}

/**
 * Bounds on the Master Theorem's guesses for one atom outside the fragment: 2^|μ| guesses X,
 * each with the subsets Y of the ν-subformulas below X. Each guess is one more component and
 * mark; the Zielonka tree takes at most 16 non-monotone marks in all (zielonka-tree.ts).
 */
const MASTER_LIMITS: MasterLimits = { maxMu: 4, maxPairs: 64 };

/** Settled states of a progression component. */
const isSink = (s: number) => s === BDD_TRUE || s === BDD_FALSE;

class ProgressionComponent implements Component {
  constructor(
    readonly kind: 'safety' | 'cosafety',
    readonly label: string,
    private readonly progression: Progression,
    readonly initial: number,
  ) {}
  groups(state: number): readonly (readonly BddNode[])[] {
    return [this.progression.factors(state)];
  }
  successor(_state: number, groups: readonly BddNode[]): { to: number; mark: boolean } {
    return { to: groups[0], mark: false };
  }
  permanent(state: number): boolean | undefined {
    if (!isSink(state)) return undefined;
    return state === BDD_TRUE;
  }
  current(state: number): boolean {
    return this.kind === 'safety' ? state !== BDD_FALSE : state === BDD_TRUE;
  }
}

/** States that are pairs of progression states, numbered as they are first seen. */
class PairTable {
  private readonly pairs: Array<readonly [BddNode, BddNode]> = [];
  private readonly ids = new Map<string, number>();
  id(first: BddNode, second: BddNode): number {
    const key = `${first},${second}`;
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.pairs.length;
      this.pairs.push([first, second]);
      this.ids.set(key, id);
    }
    return id;
  }
  pair(id: number): readonly [BddNode, BddNode] {
    return this.pairs[id];
  }
}

/** `G F p` with p propositional: one state, the steps where p holds marked. */
class RecurrenceComponent implements Component {
  readonly kind = 'buchi';
  readonly initial = 0;
  private readonly guard: readonly (readonly BddNode[])[];
  constructor(
    readonly label: string,
    bdd: BddManager,
    p: Formula,
  ) {
    this.guard = [[bdd.fromFormula(p)]];
  }
  groups(): readonly (readonly BddNode[])[] {
    return this.guard;
  }
  successor(_state: number, groups: readonly BddNode[]): { to: number; mark: boolean } {
    return { to: 0, mark: groups[0] === BDD_TRUE };
  }
  permanent(): undefined {
    return undefined;
  }
  current(): undefined {
    return undefined;
  }
}

/**
 * `G c` with c co-safety: states are pairs (B, R) of progression states, R the conjunction of
 * every attempt at c still pending, B those started before the last breakpoint. Each step starts
 * a new attempt (R ∧ c, progressed); when B is done (`true`) the step is marked and B restarts
 * from R. A word satisfies `G c` iff every attempt finishes, iff breakpoints recur. R = `false`
 * (an attempt failed) is a dead state.
 */
class BreakpointComponent implements Component {
  readonly kind = 'buchi';
  readonly initial: number;
  private readonly pairs = new PairTable();
  private readonly memo = new Map<number, readonly (readonly BddNode[])[]>();
  private readonly attempt: BddNode;
  private readonly dead: number;
  constructor(
    readonly label: string,
    private readonly progression: Progression,
    c: Formula,
  ) {
    this.attempt = progression.state(c);
    this.dead = this.id(BDD_FALSE, BDD_FALSE);
    this.initial = this.id(BDD_TRUE, BDD_TRUE);
  }
  private id(b: BddNode, r: BddNode): number {
    return this.pairs.id(r === BDD_FALSE ? BDD_FALSE : b, r);
  }
  groups(state: number): readonly (readonly BddNode[])[] {
    let hit = this.memo.get(state);
    if (!hit) {
      const [b, r] = this.pairs.pair(state);
      hit = [this.progression.factors(b), this.progression.factors(this.progression.bdd.and(r, this.attempt))];
      this.memo.set(state, hit);
    }
    return hit;
  }
  successor(state: number, groups: readonly BddNode[]): { to: number; mark: boolean } {
    if (state === this.dead) return { to: state, mark: false };
    const [b, r] = groups;
    const breakpoint = b === BDD_TRUE && r !== BDD_FALSE;
    return { to: this.id(breakpoint ? r : b, r), mark: breakpoint };
  }
  permanent(state: number): boolean | undefined {
    return state === this.dead ? false : undefined;
  }
  current(state: number): boolean | undefined {
    return this.permanent(state);
  }
}

/**
 * Condition (1) of the Master Theorem (src/ltl/master-theorem.ts) for one guess X: "from some
 * position i on, the suffix satisfies `af(φ, w₀…wᵢ₋₁)[X]ν`". States are pairs (A, D): A the
 * progression of φ, D the progression of the safety formula `A[X]ν` taken at the last restart.
 * When D fails the step is marked and D restarts from the current A. The condition holds iff
 * restarts stop (the atom is `Inf(mark)`, used negated): once some wᵢ satisfies `Aᵢ[X]ν`, every
 * later `Aⱼ[X]ν` holds on wⱼ too, so a restart after i is the last; and D never failing after the
 * last restart means its safety formula holds there. Restarting from the current A, rather than
 * progressing a fresh `Aᵢ[X]ν` from every position, keeps one D instead of a set of them.
 */
class RestartComponent implements Component {
  readonly kind = 'buchi';
  readonly initial: number;
  private readonly pairs = new PairTable();
  private readonly weakened = new Map<BddNode, BddNode>();
  private readonly rewrite: (f: Formula) => Formula;
  constructor(
    readonly label: string,
    private readonly progression: Progression,
    phi: Formula,
    mu: readonly Formula[],
  ) {
    const inX = new Set(mu.map((g) => g.id));
    const memo = new Map<number, Formula>();
    this.rewrite = (f) => nuRewrite(f, inX, memo);
    const a = progression.state(phi);
    this.initial = this.id(a, this.weaken(a));
  }
  private weaken(a: BddNode): BddNode {
    return this.progression.substitute(a, this.rewrite, this.weakened);
  }
  /** Whether no restart can ever happen: D is `true` from the start. */
  get settledAtStart(): boolean {
    return this.pairs.pair(this.initial)[1] === BDD_TRUE;
  }
  private id(a: BddNode, d: BddNode): number {
    // D = `true` never fails again, so A no longer matters: one state for all of them.
    return this.pairs.id(d === BDD_TRUE ? BDD_TRUE : a, d);
  }
  groups(state: number): readonly (readonly BddNode[])[] {
    const [a, d] = this.pairs.pair(state);
    return [this.progression.factors(a), this.progression.factors(d)];
  }
  successor(_state: number, groups: readonly BddNode[]): { to: number; mark: boolean } {
    const [a, d] = groups;
    if (d !== BDD_FALSE) return { to: this.id(a, d), mark: false };
    return { to: this.id(a, this.weaken(a)), mark: true };
  }
  permanent(state: number): boolean | undefined {
    const [a, d] = this.pairs.pair(state);
    // φ violated: every step restarts from `false`. D = `true`: no restart ever.
    if (a === BDD_FALSE) return true;
    if (d === BDD_TRUE) return false;
    return undefined;
  }
  current(state: number): boolean | undefined {
    return this.permanent(state);
  }
}

type Part = 'initially' | 'preset' | 'assumptions' | 'guarantees';

/**
 * The spec's components and acceptance, or undefined when some conjunct is outside the
 * supported fragment (with `general`: past the Master Theorem's guess limits). The first
 * mover's propositions lead the letter order (the environment's for Mealy specs). `enforcedSignals`: TSL signals the move enumeration keeps one-hot, whose
 * exactly-one rule is then left out.
 */
export function componentsOf(
  spec: GameSpec,
  enforcedSignals: readonly SignalGroup[],
  tick: () => void = () => {},
  general = false,
): Components | undefined {
  const inputs = inputNames(spec);
  const outputs = outputNames(spec);
  const mealy = spec.semantics === 'mealy';
  const letters = mealy ? [...inputs, ...outputs] : [...outputs, ...inputs];
  // Both managers poll the solver's clock: building the components of thousands of conjuncts is
  // BDD work of its own, before the parity route installs its move-counting poll.
  const bdd = new BddManager();
  bdd.poll = tick;
  const progression = new Progression(bdd, letters, tick);
  const acceptanceBdd = new BddManager();
  acceptanceBdd.poll = tick;
  const components: Component[] = [];
  const atom = (c: Component): BddNode => {
    components.push(c);
    return acceptanceBdd.variable(String(components.length - 1));
  };
  // One component per distinct atom: `G F p` and `F G ¬p` (an equivalence in the spec has both
  // polarities of every atom under it) are one Büchi mark, used positively and negated. Each mark
  // is a colour of the Emerson–Lei condition, and its Zielonka tree is built over all subsets of
  // them: ltl2dpa22's `(∧ GF aᵢ → GF b) ↔ (GF p0 ∨ (GF p2 ∧ ¬GF p1))` has 18 atoms but 9 marks.
  const shared = new Map<string, BddNode>();
  const sharedAtom = (key: string, make: () => Component): BddNode => {
    let a = shared.get(key);
    if (a === undefined) shared.set(key, (a = atom(make())));
    return a;
  };
  const signalRules = spec.signals.filter((g) => !enforcedSignals.includes(g)).map((g) => G(exactlyOne(g.updates)));

  const part = (name: Part): BddNode | undefined => {
    const formulas = [...spec[name].map((p) => p.formula), ...(name === 'preset' ? signalRules : [])];
    let acc = BDD_TRUE;
    // Safety and co-safety conjuncts of a part share one progression component.
    const groups: Record<'safety' | 'cosafety', Formula[]> = { safety: [], cosafety: [] };
    for (const c of formulas.flatMap((f) => topConjuncts(toNnf(f)))) {
      if (isSyntacticSafety(c)) groups.safety.push(c);
      else if (isSyntacticCosafety(c)) groups.cosafety.push(c);
      else {
        const a = atomOf(c);
        if (a === undefined) return undefined;
        acc = acceptanceBdd.and(acc, a);
      }
    }
    for (const kind of ['safety', 'cosafety'] as const) {
      const fs = groups[kind];
      if (fs.length === 0) continue;
      const state = bdd.andAll(fs.map((f) => progression.state(f)));
      acc = acceptanceBdd.and(acc, atom(new ProgressionComponent(kind, `${name} (${kind}, ${fs.length} conjuncts)`, progression, state)));
    }
    return acc;
  };
  /** The acceptance of one NNF formula below the top-level conjunction, or undefined. */
  const atomOf = (f: Formula): BddNode | undefined => {
    if (isSyntacticSafety(f)) {
      const s = progression.state(f);
      return sharedAtom(`s${s}`, () => new ProgressionComponent('safety', 'safety', progression, s));
    }
    if (isSyntacticCosafety(f)) {
      const s = progression.state(f);
      return sharedAtom(`c${s}`, () => new ProgressionComponent('cosafety', 'co-safety', progression, s));
    }
    if (f.kind === 'G' && f.arg.kind === 'F' && isPropositional(f.arg.arg)) return recurrence('G F p', f.arg.arg);
    if (f.kind === 'F' && f.arg.kind === 'G' && isPropositional(f.arg.arg)) return acceptanceBdd.not(recurrence('F G p', toNnf(not(f.arg.arg))));
    if (f.kind === 'G' && isSyntacticCosafety(f.arg)) return breakpoint('G c', f.arg);
    if (f.kind === 'F' && isSyntacticSafety(f.arg)) return acceptanceBdd.not(breakpoint('F s', toNnf(not(f.arg))));
    // a U b ≡ (a W b) ∧ F b and a R b ≡ (a M b) ∨ G b, in the fragment when a and b are safety
    // (co-safety for R): `alive U G ¬alive`, which the LTLf encodings of SYNTCOMP's ltl_f family
    // put in every spec, is `(alive W G ¬alive) ∧ F G ¬alive`.
    if (f.kind === 'U') return atomOf(and(W(f.left, f.right), F(f.right)));
    if (f.kind === 'R') return atomOf(or(M(f.left, f.right), G(f.right)));
    if (f.kind === 'and' || f.kind === 'or') {
      let acc = f.kind === 'and' ? BDD_TRUE : BDD_FALSE;
      for (const a of f.args) {
        const x = atomOf(a);
        if (x === undefined) return undefined;
        acc = f.kind === 'and' ? acceptanceBdd.and(acc, x) : acceptanceBdd.or(acc, x);
      }
      return acc;
    }
    return general ? master(f) : undefined;
  };
  /**
   * Anything else through the Master Theorem: the disjunction over the guesses X of "restarts
   * stop" ∧ (some Y's `G F c` ∧ `F G s` atoms, all inside the fragment above). Undefined past
   * the guess limits, or if an atom of a guess is itself outside the fragment (it never is).
   */
  const master = (f: Formula): BddNode | undefined => {
    const guesses = masterGuesses(f, MASTER_LIMITS);
    if (guesses === undefined) return undefined;
    const a = acceptanceBdd;
    let acc = BDD_FALSE;
    for (const guess of guesses) {
      const key = `m${f.id}:${guess.mu.map((g) => g.id).join(',')}`;
      let restarts = shared.get(key);
      if (restarts === undefined) {
        const component = new RestartComponent(`restarts of ${guess.mu.length}-guess`, progression, f, guess.mu);
        // A guess whose safety formula is `true` from the start (e.g. X = {F(q W r)} for
        // `G(p ∨ F(q W r))`) never restarts: no component, no mark.
        restarts = component.settledAtStart ? BDD_FALSE : sharedAtom(key, () => component);
      }
      let some = BDD_FALSE;
      for (const alt of guess.alternatives) {
        let all = BDD_TRUE;
        for (const g of [...alt.recurrent.map((c) => G(F(c))), ...alt.persistent.map((s) => F(G(s)))]) {
          const x = atomOfFragment(toNnf(g));
          if (x === undefined) return undefined;
          all = a.and(all, x);
        }
        some = a.or(some, all);
      }
      acc = a.or(acc, a.and(a.not(restarts), some));
    }
    return acc;
  };
  /** atomOf without the Master Theorem fallback (its own atoms are always in the fragment). */
  const atomOfFragment = (f: Formula): BddNode | undefined =>
    (f.kind === 'G' && isSyntacticCosafety(f.arg)) || (f.kind === 'F' && isSyntacticSafety(f.arg)) ? atomOf(f) : undefined;
  /** `G F p`, one mark per set of letters p (a BDD). */
  const recurrence = (label: string, p: Formula): BddNode => {
    const letter = bdd.fromFormula(p);
    return sharedAtom(`r${letter}`, () => new RecurrenceComponent(label, bdd, p));
  };
  /** `G c`, one mark per progression state of c. */
  const breakpoint = (label: string, c: Formula): BddNode => sharedAtom(`b${progression.state(c)}`, () => new BreakpointComponent(label, progression, c));
  const I = part('initially');
  if (I === undefined) return undefined;
  const P = part('preset');
  if (P === undefined) return undefined;
  const A = part('assumptions');
  if (A === undefined) return undefined;
  const Gs = part('guarantees');
  if (Gs === undefined) return undefined;
  const a = acceptanceBdd;
  const acceptance = a.or(a.not(I), a.and(P, a.or(a.not(A), Gs)));
  return { letters, bdd, components, acceptance, acceptanceBdd };
}

/** Top-level conjuncts of an NNF formula, with `G(a ∧ b)` read as `G a ∧ G b`. */
function topConjuncts(f: Formula): Formula[] {
  if (f.kind === 'and') return f.args.flatMap(topConjuncts);
  if (f.kind === 'G' && f.arg.kind === 'and') return f.arg.args.flatMap((a) => topConjuncts(G(a)));
  if (f.kind === 'true') return [];
  return [f];
}
