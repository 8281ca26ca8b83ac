/**
 * The LTL → TGBA tableau (Couvreur-style, transition-based, with BDD guards).
 *
 * A state is a hash-consed NNF formula (a conjunction of obligations). Its outgoing edges are the
 * "terms" of its one-step expansion: a guard on the current letter, the obligation for the rest
 * of the word, and the eventualities (U/M/F sub-formulas) this edge *postpones*. A run is
 * accepting iff no eventuality is postponed on all but finitely many edges; acceptance set i of
 * the final TGBA is "edges that do not postpone eventuality i".
 *
 * Propositional sub-formulas become a single BDD guard instead of being split into cubes, so
 * conjunctions of many propositional invariants never explode into DNF. States are expanded
 * lazily and memoised, so the verifier can explore only the part of the automaton a product
 * reaches.
 */
import { type Formula, and, isPropositional, or, TRUE } from '../ltl/formula.js';
import { syntacticImplies } from './simplify.js';
import { BDD_FALSE, BDD_TRUE, type BddManager, type BddNode } from './bdd.js';
import { TimeoutError } from './deadline.js';

export interface Term {
  readonly guard: BddNode;
  readonly next: Formula;
  /** Ids of the eventualities this edge postpones (sorted, no duplicates). */
  readonly pending: readonly number[];
}

/**
 * `normalizeState` results by formula id: a pure function of the (hash-consed) formula, asked of
 * every term's target in every reduction, and quadratic in the conjunction's width.
 */
const normalized = new Map<number, Formula>();

/** Most terms one state's reduction compares pairwise (see `reduce`). */
const DOMINATION_MAX_TERMS = 10_000;
/** Most distinct targets whose implications `reduce` keeps in a matrix (m² bytes: 16 MB). */
const IMPLIED_MATRIX_MAX_TARGETS = 4096;

/**
 * Weights of the work units (`Tableau.work`), a measure of the tableau's running time that reads
 * no clock: a quarter unit per pair of terms a reduction compares, WORK_PER_STEP per poll point
 * (a pair of terms multiplied, a term of a reduction's outer loop), WORK_PER_TERM per term
 * reduced (normalizing its target, grouping, interning), WORK_PER_NODE per BDD node made. Fitted
 * on the corpus and a SYNTCOMP sample (docs/synthesis.md, "Tableau or product"): a million units
 * take about 23 ms (8–61 ms from spec to spec, 5th to 95th percentile, with the machine's load
 * and JIT warm-up in it); no single count comes close (each spreads over a factor of 30–80).
 */
const WORK_PER_STEP = 20;
const WORK_PER_TERM = 150;
const WORK_PER_NODE = 300;

/** Above this many terms in one expansion, the verifier expands per controller transition. */
const FULL_EXPANSION_LIMIT = 256;
class TooManyTerms extends Error {}

/** A term while a conjunction is multiplied out: its targets as a list, conjoined at the end. */
interface PartialTerm {
  readonly guard: BddNode;
  readonly next: FormulaList;
  readonly pending: readonly number[];
}
type FormulaList = { readonly head: Formula; readonly tail: FormulaList } | null;

interface ExpansionContext {
  readonly limit: number;
  readonly memo: Map<number, readonly Term[]>;
  /** Terms whose guard fails this test are dropped as soon as they are formed. */
  readonly keep: (guard: BddNode) => boolean;
}

export class Tableau {
  private readonly expansions = new Map<number, readonly Term[]>();
  private readonly successorMemo = new Map<number, readonly Term[]>();
  /** Work units charged so far, except BDD nodes (counted from the manager, see `work`). */
  private units = 0;
  private readonly nodesBefore: number;

  /**
   * `poll` may throw (e.g. `TimeoutError`) to abandon a long expansion. Past `workLimit` units
   * (`work`) the tableau throws `TimeoutError('work')`: the same point on every machine, at
   * every load, which a clock cannot give.
   */
  constructor(
    readonly bdd: BddManager,
    private readonly clockPoll: () => void = () => {},
    private readonly workLimit = Infinity,
  ) {
    this.nodesBefore = bdd.nodeCount;
  }

  /**
   * Work done so far in clock-free units (see WORK_PER_TERM): a function of the formulas asked
   * and of the BDD manager's nodes before, never of time.
   */
  get work(): number {
    return this.units + (this.bdd.nodeCount - this.nodesBefore) * WORK_PER_NODE;
  }

  /** Called at the same points as the caller's poll: the work budget, then the caller's. */
  private poll(): void {
    this.units += WORK_PER_STEP;
    if (this.work > this.workLimit) throw new TimeoutError('work');
    this.clockPoll();
  }

  /** Reduced outgoing terms of a state (an NNF formula). */
  successors(state: Formula, limit = Infinity): readonly Term[] {
    const hit = this.successorMemo.get(state.id);
    if (hit) return hit;
    const terms = this.reduce(this.expand(state, { memo: this.expansions, keep: () => true, limit }));
    this.successorMemo.set(state.id, terms);
    return terms;
  }

  /**
   * The outgoing terms of a state restricted to letters compatible with a partial assignment
   * (see `BddManager.assignmentArray`). Combinations that the assignment rules out are pruned
   * while multiplying out, so a conjunction of n invariants like G(p_i → X q_i) costs O(n) per
   * concrete controller transition instead of 2^n terms. `compatible` answers whether a guard
   * meets the assignment (default: a BDD walk); a caller that asks about the same letters again
   * and again can memoise it.
   */
  successorsUnder(state: Formula, assignment: Int8Array, compatible?: (guard: BddNode) => boolean): readonly Term[] {
    const keep = compatible ?? ((g: BddNode) => this.bdd.compatibleWith(g, assignment));
    // A state with a conjunct known to be large is large itself: trying it in full first (until
    // the product passes the limit) was half of chain-simple-40's check.
    if (state.kind === 'and' && !this.large.has(state.id) && state.args.some((a) => this.large.has(a.id))) this.large.add(state.id);
    // Small states: expand once for all letters and filter (memoised across transitions).
    if (!this.large.has(state.id)) {
      try {
        return this.successors(state, FULL_EXPANSION_LIMIT).filter((t) => keep(t.guard));
      } catch (e) {
        if (!(e instanceof TooManyTerms)) throw e;
        this.large.add(state.id);
      }
    }
    // What the state requires of the current letter (its propositional conjuncts, e.g. the values
    // an assumption's `X` fixed one step earlier) prunes its expansion: every term of the state
    // carries that guard, so a partial term that contradicts it could only produce terms with an
    // empty guard. Pruned with the letter alone, a conjunct of forty `G(p → X(…))` assumptions
    // came out with hundreds of terms per controller transition (one per valuation of the inputs
    // the transition leaves free), all but a few of them dropped at the end, after a quadratic
    // reduction (chain-simple-20: 33 million implication tests, 8 of 12 s). Pruned so, a large
    // state's expansion is often small: then it is made once for all letters, as a small state's.
    const now = this.nowGuard(state);
    if (now !== BDD_TRUE && !this.largeNow.has(state.id)) {
      try {
        return this.successorsNow(state, now).filter((t) => keep(t.guard));
      } catch (e) {
        if (!(e instanceof TooManyTerms)) throw e;
        this.largeNow.add(state.id);
      }
    }
    const letter = now === BDD_TRUE ? BDD_TRUE : this.bdd.and(now, this.bdd.assignmentCube(assignment));
    const keepNow = letter === BDD_TRUE ? keep : (g: BddNode) => keep(g) && this.bdd.and(g, letter) !== BDD_FALSE;
    if (letter === BDD_FALSE) return [];
    const terms = this.reduce(this.expandUnder(state, { memo: new Map(), keep: keepNow, limit: Infinity }));
    return terms.filter((t) => keep(t.guard));
  }

  /** Large states whose expansion is small within their propositional conjuncts, by id. */
  private readonly nowMemo = new Map<number, readonly Term[]>();
  /** Large states whose expansion is large even within their propositional conjuncts. */
  private readonly largeNow = new Set<number>();

  /**
   * A large state's reduced terms, its expansion pruned by its propositional conjuncts (`now`):
   * the same terms as its full expansion, whose guards all lie within `now` (reduction's
   * domination by a pruned term, whose guard lies outside, changes no guard within).
   */
  private successorsNow(state: Formula, now: BddNode): readonly Term[] {
    const hit = this.nowMemo.get(state.id);
    if (hit) return hit;
    const keep = (g: BddNode) => this.bdd.and(g, now) !== BDD_FALSE;
    const terms = this.reduce(this.expandUnder(state, { memo: new Map(), keep, limit: FULL_EXPANSION_LIMIT }));
    this.nowMemo.set(state.id, terms);
    return terms;
  }

  private readonly nowGuards = new Map<number, BddNode>();
  /** The guard of a state's propositional conjuncts (true when it has none). */
  private nowGuard(state: Formula): BddNode {
    let g = this.nowGuards.get(state.id);
    if (g === undefined) {
      const props = state.kind === 'and' ? this.split(state.args).props : isPropositional(state) ? state : undefined;
      g = props === undefined ? BDD_TRUE : this.bdd.fromFormula(props);
      this.nowGuards.set(state.id, g);
    }
    return g;
  }

  /**
   * A large state's expansion under one letter (`ctx.keep`). A conjunction's conjuncts are
   * expanded once for all letters where that is small (memoised across calls, then filtered by
   * the letter), and only the product is formed per letter: a state of forty `G(p → X(…))`
   * assumptions was expanded from scratch for every controller transition, conjunct by conjunct
   * (chain-simple-20's check ran for minutes). Conjuncts too large themselves are expanded
   * under the letter, as before.
   */
  private expandUnder(f: Formula, ctx: ExpansionContext): readonly Term[] {
    if (f.kind !== 'and') return this.expand(f, ctx);
    return this.conjunction(ctx, f.args, (a) => this.conjunctUnder(a, ctx));
  }

  /**
   * The expansion of the conjunction of `args`: the propositional ones form one guard, the
   * temporal ones (expanded by `expand`) multiply out. Each term's targets are collected
   * in a list and conjoined once at the end: conjoining them step by step re-sorted and
   * re-interned a growing conjunction per step, quadratic in the number of conjuncts (the cost
   * of expanding states of forty `G(p → X(…))` assumptions). The same formulas come out, `and`
   * being canonical.
   */
  private conjunction(ctx: ExpansionContext, args: readonly Formula[], expand: (f: Formula) => readonly Term[]): Term[] {
    const { props, conjuncts } = this.split(args);
    const first: readonly Term[] = props !== undefined ? this.expand(props, ctx) : [{ guard: BDD_TRUE, next: TRUE, pending: [] }];
    let acc: PartialTerm[] = first.map((t) => ({ guard: t.guard, next: t.next === TRUE ? null : { head: t.next, tail: null }, pending: t.pending }));
    for (const a of conjuncts) {
      const ys = expand(a);
      const out: PartialTerm[] = [];
      for (const x of acc)
        for (const y of ys) {
          this.poll();
          const guard = this.bdd.and(x.guard, y.guard);
          if (guard === BDD_FALSE || !ctx.keep(guard)) continue;
          out.push({ guard, next: y.next === TRUE ? x.next : { head: y.next, tail: x.next }, pending: unionSorted(x.pending, y.pending) });
          if (out.length > ctx.limit) throw new TooManyTerms();
        }
      acc = out;
      if (acc.length === 0) break;
    }
    return acc.map((t) => {
      // Each target conjoins every conjunct's (two hundred in robot_grid's states): the clock is
      // polled per term, and no work is charged (that would move the tableau-or-product choice).
      this.clockPoll();
      const nexts: Formula[] = [];
      for (let l = t.next; l !== null; l = l.tail) nexts.push(l.head);
      return { guard: t.guard, next: and(...nexts), pending: t.pending };
    });
  }

  private readonly splits = new WeakMap<readonly Formula[], { readonly props?: Formula; readonly conjuncts: readonly Formula[] }>();
  /** A conjunction's operands as one propositional formula and the temporal rest (once per conjunction). */
  private split(args: readonly Formula[]): { readonly props?: Formula; readonly conjuncts: readonly Formula[] } {
    let hit = this.splits.get(args);
    if (hit === undefined) {
      const props = args.filter(isPropositional);
      hit = { props: props.length > 0 ? and(...props) : undefined, conjuncts: args.filter((a) => !isPropositional(a)) };
      this.splits.set(args, hit);
    }
    return hit;
  }

  private conjunctUnder(f: Formula, ctx: ExpansionContext): readonly Term[] {
    if (!this.large.has(f.id)) {
      try {
        return this.expand(f, { memo: this.expansions, keep: () => true, limit: FULL_EXPANSION_LIMIT }).filter((t) => ctx.keep(t.guard));
      } catch (e) {
        if (!(e instanceof TooManyTerms)) throw e;
        this.large.add(f.id);
      }
    }
    return this.expandUnder(f, ctx);
  }

  /** States whose letter-independent expansion exceeded `FULL_EXPANSION_LIMIT` terms. */
  private readonly large = new Set<number>();

  /**
   * Canonical state for a conjunction of obligations: a conjunct is dropped when another conjunct
   * *re-asserts* it at every step (G a re-asserts a; G F a re-asserts F a; c R a re-asserts a).
   * Plain semantic implication is NOT enough here: dropping F c beside (X F c) W d would lose the
   * promise for c, because the W loop only regenerates F c one step later.
   */
  normalizeState(f: Formula): Formula {
    if (f.kind !== 'and') return f;
    let normal = normalized.get(f.id);
    if (normal === undefined) {
      const args = f.args;
      // The conjuncts some other conjunct reasserts (`markReasserted`), gathered in one walk over
      // all of them: testing every pair was quadratic in the width, and a state of 200
      // assumptions made that seconds per reduction (SYNTCOMP's robot_grid ltl_6: 7 s, unpolled).
      // No formula reasserts itself, so walking every conjunct marks exactly those of the others.
      const reasserted = new Set<number>();
      const mark = (x: Formula): void => {
        if (reasserted.has(x.id)) return;
        reasserted.add(x.id);
        markReasserted(x, mark);
      };
      for (const b of args) markReasserted(b, mark);
      const kept = args.filter((a) => !reasserted.has(a.id));
      normal = kept.length === args.length ? f : and(...kept);
      normalized.set(f.id, normal);
    }
    return normal;
  }

  private expand(f: Formula, ctx: ExpansionContext): readonly Term[] {
    const hit = ctx.memo.get(f.id);
    if (hit) return hit;
    let r = this.expandUncached(f, ctx);
    // Tighten alternatives early (domination makes e.g. ¬p | X q exclusive: ¬p, or p ∧ X q), so
    // later products and per-letter pruning see few, disjoint terms.
    if (r.length > 1) r = this.reduce(r).filter((t) => ctx.keep(t.guard));
    ctx.memo.set(f.id, r);
    return r;
  }

  private postpone(f: Formula, eventuality: boolean): Term {
    return { guard: BDD_TRUE, next: f, pending: eventuality ? [f.id] : [] };
  }

  private expandUncached(f: Formula, ctx: ExpansionContext): readonly Term[] {
    if (f === TRUE) return [{ guard: BDD_TRUE, next: TRUE, pending: [] }];
    if (isPropositional(f)) {
      const guard = this.bdd.fromFormula(f);
      return guard === BDD_FALSE || !ctx.keep(guard) ? [] : [{ guard, next: TRUE, pending: [] }];
    }
    switch (f.kind) {
      case 'and':
        // Under one letter, the conjuncts come from the expansions shared by all letters where
        // those are small (as for a state's conjuncts): a large conjunct such as G(a₁ ∧ … ∧ a₄₀)
        // re-expanded each of its forty parts for every controller transition.
        return this.conjunction(ctx, f.args, ctx.memo === this.expansions ? (a) => this.expand(a, ctx) : (a) => this.conjunctUnder(a, ctx));
      case 'or': {
        const props = f.args.filter(isPropositional);
        const temporal = f.args.filter((a) => !isPropositional(a));
        const out: Term[] = [];
        // Appended one by one: an expansion can have hundreds of thousands of terms, more than a
        // call's arguments may be (`push(...terms)` overflowed the stack on finding_nemo_pb_6).
        if (props.length > 0) for (const t of this.expand(or(...props), ctx)) out.push(t);
        for (const a of temporal) for (const t of this.expand(a, ctx)) out.push(t);
        return out;
      }
      case 'X':
        return [{ guard: BDD_TRUE, next: f.arg, pending: [] }];
      case 'F':
        return [...this.expand(f.arg, ctx), this.postpone(f, true)];
      case 'G':
        return this.product(ctx, this.expand(f.arg, ctx), [this.postpone(f, false)]);
      case 'U':
        return [...this.expand(f.right, ctx), ...this.product(ctx, this.expand(f.left, ctx), [this.postpone(f, true)])];
      case 'W':
        return [...this.expand(f.right, ctx), ...this.product(ctx, this.expand(f.left, ctx), [this.postpone(f, false)])];
      case 'R':
        return [
          ...this.product(ctx, this.expand(f.left, ctx), this.expand(f.right, ctx)),
          ...this.product(ctx, this.expand(f.right, ctx), [this.postpone(f, false)]),
        ];
      case 'M':
        return [
          ...this.product(ctx, this.expand(f.left, ctx), this.expand(f.right, ctx)),
          ...this.product(ctx, this.expand(f.right, ctx), [this.postpone(f, true)]),
        ];
      default:
        throw new Error(`tableau: formula not in NNF (${f.kind})`);
    }
  }

  private product(ctx: ExpansionContext, xs: readonly Term[], ys: readonly Term[]): Term[] {
    const out: Term[] = [];
    for (const x of xs)
      for (const y of ys) {
        this.poll();
        const guard = this.bdd.and(x.guard, y.guard);
        if (guard === BDD_FALSE || !ctx.keep(guard)) continue;
        out.push({ guard, next: and(x.next, y.next), pending: unionSorted(x.pending, y.pending) });
        if (out.length > ctx.limit) throw new TooManyTerms();
      }
    return out;
  }

  /**
   * Merge terms with the same target and postponements (∨ of guards), then shrink guards of
   * dominated terms: a term whose target implies another's and postpones no less is useless on
   * letters the other term accepts.
   */
  private reduce(terms: readonly Term[]): Term[] {
    this.units += terms.length * WORK_PER_TERM;
    const groups = new Map<string, { guard: BddNode; next: Formula; pending: readonly number[] }>();
    for (const t of terms) {
      // The clock alone: charging work here would move the tableau-or-product choice.
      this.clockPoll();
      const next = this.normalizeState(t.next);
      const key = `${next.id}|${t.pending.join(',')}`;
      const g = groups.get(key);
      if (g) g.guard = this.bdd.or(g.guard, t.guard);
      else groups.set(key, { guard: t.guard, next, pending: t.pending });
    }
    const list = [...groups.values()];
    // The domination pass is quadratic in the terms and only shrinks guards (a dominated term is
    // redundant, not wrong): past DOMINATION_MAX_TERMS it would run for hours (finding_nemo_pb_6:
    // 262,144 terms in one state), so the terms are kept as they are.
    if (list.length < 2 || list.length > DOMINATION_MAX_TERMS) return list.filter((t) => t.guard !== BDD_FALSE);
    // Charged before the quadratic pass, so a budget stops it at its first poll rather than after
    // (a quarter unit a pair: most pairs are dismissed on their pending sets or disjoint guards).
    this.units += (list.length * list.length) / 4;
    // The quadratic domination pass is the tableau's hot spot: compare pending sets as bit masks
    // and memoise implication between the (few) distinct targets in a local matrix.
    const pendingIds = [...new Set(list.flatMap((t) => t.pending))];
    const masks = pendingIds.length <= 30 ? list.map((t) => t.pending.reduce((m, p) => m | (1 << pendingIds.indexOf(p)), 0)) : undefined;
    const pendingSubset = masks
      ? (i: number, j: number) => (masks[i] & ~masks[j]) === 0
      : (i: number, j: number) => isSubset(list[i].pending, list[j].pending);
    const nexts: Formula[] = [];
    const nextIndex = new Map<number, number>();
    const nextOf = list.map((t) => {
      let k = nextIndex.get(t.next.id);
      if (k === undefined) nextIndex.set(t.next.id, (k = nexts.push(t.next) - 1));
      return k;
    });
    const m = nexts.length;
    // A matrix for the usual few targets, a map (of the pairs asked) where they run to thousands.
    const matrix = m <= IMPLIED_MATRIX_MAX_TARGETS ? new Int8Array(m * m) : undefined; // 0 unknown, 1 yes, 2 no
    const asked = matrix ? undefined : new Map<number, boolean>();
    const nextImplies = (x: number, y: number) => {
      if (x === y) return true;
      const slot = x * m + y;
      if (matrix) {
        if (matrix[slot] === 0) matrix[slot] = syntacticImplies(nexts[x], nexts[y]) ? 1 : 2;
        return matrix[slot] === 1;
      }
      let r = asked!.get(slot);
      if (r === undefined) asked!.set(slot, (r = syntacticImplies(nexts[x], nexts[y])));
      return r;
    };
    const dominates = (i: number, j: number) => pendingSubset(i, j) && nextImplies(nextOf[j], nextOf[i]);
    for (let i = 0; i < list.length; i++) {
      this.poll();
      const a = list[i];
      for (let j = 0; j < list.length; j++) {
        if (i === j || a.guard === BDD_FALSE) continue;
        const b = list[j];
        if (b.guard === BDD_FALSE) continue;
        // Shrinking b by a is a no-op where their guards are disjoint (terms for different values
        // of the free inputs, most pairs in a large state's expansion): tested before the costly
        // implication between their targets.
        if (!pendingSubset(i, j) || this.bdd.and(a.guard, b.guard) === BDD_FALSE) continue;
        // pendingSubset(i, j) holds here, so i dominates j iff j's target implies i's.
        if (nextImplies(nextOf[j], nextOf[i]) && !dominates(j, i)) b.guard = this.bdd.and(b.guard, this.bdd.not(a.guard));
      }
    }
    return list.filter((t) => t.guard !== BDD_FALSE);
  }
}


export function unionSorted(a: readonly number[], b: readonly number[]): readonly number[] {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i] < b[j])) out.push(a[i++]);
    else if (i >= a.length || b[j] < a[i]) out.push(b[j++]);
    else {
      out.push(a[i++]);
      j++;
    }
  }
  return out;
}

/**
 * Calls `mark` on each formula whose expansion b's expansion contains as a factor of every term
 * (so b ∧ a ≡ b in the tableau for each such a): G's operand, R's and M's right operand, a
 * conjunction's operands; `mark` goes on from each (the relation is transitive).
 */
function markReasserted(b: Formula, mark: (a: Formula) => void): void {
  switch (b.kind) {
    case 'G':
      mark(b.arg);
      break;
    case 'R':
    case 'M':
      mark(b.right);
      break;
    case 'and':
      for (const x of b.args) mark(x);
      break;
  }
}

function isSubset(a: readonly number[], b: readonly number[]): boolean {
  let j = 0;
  for (const x of a) {
    while (j < b.length && b[j] < x) j++;
    if (j >= b.length || b[j] !== x) return false;
  }
  return true;
}
