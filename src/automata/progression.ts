/**
 * Formula progression with states as BDDs: deterministic automata for LTL formulas.
 *
 * A state is a positive Boolean combination of obligations "ψ holds from now on", one BDD
 * variable per obligation ψ (an NNF sub-formula), so states are canonical up to propositional
 * equivalence: equal combinations are the same node. One step *unfolds* every obligation into
 * what the current letter must satisfy and what is owed from the next position on (`G g` becomes
 * `g ∧ X G g`, `a U b` becomes `b ∨ (a ∧ X(a U b))`, …): a BDD over the letters (propositions,
 * first in the variable order) and the next obligations. Fixing the letter leaves the successor.
 *
 * The obligations a state implies (the usual case: a list of invariants and what they owe
 * next) are unfolded obligation by obligation, as separate *factors* whose successors are
 * conjoined only once the letter is fixed; only what is left (e.g. a pending `w ∨ q`) is
 * unfolded as one BDD. The unfolding of the whole conjunction would be one BDD over all letters
 * above all next obligations, exponential in the number of independent `p → X q` conjuncts
 * (every subset of the q's may be owed next).
 *
 * Progression is exact for the two fragments the synthesis route relies on: a syntactic safety
 * formula is violated by a word iff the state becomes `false` after some prefix, and a syntactic
 * co-safety formula is satisfied iff it becomes `true` (every satisfying word has a finite prefix
 * after which nothing is owed; safety is the dual). Other formulas progress correctly too, but
 * whether an eventuality is postponed forever is not visible in the state; the callers build
 * Büchi conditions on top (src/synthesis/components.ts).
 */
import type { Formula } from '../ltl/formula.js';
import { BDD_FALSE, BDD_TRUE, type BddManager, type BddNode } from './bdd.js';

/** Obligation variables are named so that no proposition can collide with them. */
const OBLIGATION_PREFIX = '\u0000ob';

export class Progression {
  private readonly letterCount: number;
  /** Obligation variable index → the formula it stands for. */
  private readonly obligationOf = new Map<number, Formula>();
  private readonly unfolded = new Map<number, BddNode>();
  private readonly composed = new Map<BddNode, BddNode>();
  private readonly factorMemo = new Map<BddNode, readonly BddNode[]>();

  /**
   * `letters`: every proposition a formula may mention, registered first (so they sit above all
   * obligations in the variable order); the manager must have no other variables yet.
   */
  constructor(
    readonly bdd: BddManager,
    letters: readonly string[],
    private readonly tick: () => void = () => {},
  ) {
    for (const name of letters) bdd.varIndex(name);
    this.letterCount = letters.length;
    if (bdd.levels.size !== letters.length) throw new Error('progression: the manager has variables besides the letters');
  }

  /** The state "f holds from now on" (f in negation normal form). */
  state(f: Formula): BddNode {
    if (f.kind === 'true') return BDD_TRUE;
    if (f.kind === 'false') return BDD_FALSE;
    if (f.kind === 'and') return this.bdd.andAll(f.args.map((a) => this.state(a)));
    if (f.kind === 'or') return f.args.reduce((acc, a) => this.bdd.or(acc, this.state(a)), BDD_FALSE);
    return this.obligation(f);
  }

  /** Whether a variable index is a letter (a proposition), not an obligation. */
  isLetter(v: number): boolean {
    return v < this.letterCount;
  }

  /**
   * One step from `state` as factors over letters and next obligations: for each letter, the
   * successor is the conjunction of the factors with the letter fixed.
   */
  factors(state: BddNode): readonly BddNode[] {
    if (state <= 1) return [state];
    const hit = this.factorMemo.get(state);
    if (hit) return hit;
    // The obligations every satisfying path requires are factors of their own, and only what is
    // left (the state with them set true) is unfolded as one BDD. A list of invariants with one
    // pending disjunction (`G(cᵢ → X(w ∨ cᵢ₊₁))` owes `w ∨ cᵢ₊₁` next) is not a cube, and
    // unfolded whole it was exponential in the invariants like any conjunction of them.
    const required = this.required(state);
    const rest = this.setTrue(state, new Set(required), new Map());
    const out = required.map((v) => this.unfold(this.obligationOf.get(v)!));
    if (rest !== BDD_TRUE) out.push(this.compose(rest));
    this.factorMemo.set(state, out);
    return out;
  }

  /** The successor of `state` under a complete letter (for tests and traces). */
  step(state: BddNode, letter: (name: string) => boolean): BddNode {
    const next: BddNode[] = [];
    for (const f of this.factors(state)) {
      let n = f;
      while (n > 1 && this.isLetter(this.bdd.varOf(n))) n = letter(this.bdd.varName(this.bdd.varOf(n))) ? this.bdd.high(n) : this.bdd.low(n);
      next.push(n);
    }
    return this.bdd.andAll(next);
  }

  /**
   * The obligation variables on every path of a (satisfiable) state to `true`, taken as true:
   * those the state implies (a variable a path skips is free on it), ascending.
   */
  private required(n: BddNode): number[] {
    const memo = new Map<BddNode, ReadonlySet<number> | undefined>();
    // undefined: no path to true (every variable is vacuously required).
    const go = (m: BddNode): ReadonlySet<number> | undefined => {
      if (m === BDD_TRUE) return new Set();
      if (m === BDD_FALSE) return undefined;
      if (memo.has(m)) return memo.get(m);
      const lo = go(this.bdd.low(m));
      const hiSet = go(this.bdd.high(m));
      const hi = hiSet === undefined ? undefined : new Set([this.bdd.varOf(m), ...hiSet]);
      const r = lo === undefined ? hi : hi === undefined ? lo : new Set([...lo].filter((v) => hi.has(v)));
      memo.set(m, r);
      return r;
    };
    // A state that owes a list of obligations is a chain of nodes whose low edge is `false`: each
    // such variable is required, and the rest is that of its high child. Walked in a loop, not
    // recursively with a set per node: a list of thousands of invariants was quadratic (new sets
    // of everything below) and deeper than the stack.
    const spine: number[] = [];
    let m = n;
    while (m > 1 && this.bdd.low(m) === BDD_FALSE) {
      spine.push(this.bdd.varOf(m));
      m = this.bdd.high(m);
    }
    const rest = go(m);
    if (rest === undefined) return [];
    return [...spine, ...rest].sort((a, b) => a - b);
  }

  /** n with the variables in `vars` set to true. */
  private setTrue(n: BddNode, vars: ReadonlySet<number>, memo: Map<BddNode, BddNode>): BddNode {
    // A variable set true leaves its high child: followed in a loop (a chain of thousands of
    // required obligations would be as many frames deep).
    while (n > 1 && vars.has(this.bdd.varOf(n))) n = this.bdd.high(n);
    if (n <= 1 || vars.size === 0) return n;
    const hit = memo.get(n);
    if (hit !== undefined) return hit;
    const v = this.bdd.varOf(n);
    const hi = this.setTrue(this.bdd.high(n), vars, memo);
    let r: BddNode;
    if (vars.has(v)) r = hi;
    else {
      const x = this.bdd.variable(this.bdd.varName(v));
      r = this.bdd.or(this.bdd.and(x, hi), this.bdd.and(this.bdd.not(x), this.setTrue(this.bdd.low(n), vars, memo)));
    }
    memo.set(n, r);
    return r;
  }

  /**
   * The state with every obligation ψ replaced by the state of `rewrite(ψ)`: a state of another
   * formula built from the same obligations (the Master Theorem's `af(φ, u)[X]ν`,
   * src/ltl/master-theorem.ts). `memo` belongs to one rewriting.
   */
  substitute(n: BddNode, rewrite: (f: Formula) => Formula, memo: Map<BddNode, BddNode>): BddNode {
    return this.replaceObligations(n, (f) => this.state(rewrite(f)), memo);
  }

  private obligation(f: Formula): BddNode {
    const node = this.bdd.variable(`${OBLIGATION_PREFIX}${f.id}`);
    this.obligationOf.set(this.bdd.varOf(node), f);
    return node;
  }

  /** The state with every obligation replaced by its unfolding: letters, then next obligations. */
  private compose(n: BddNode): BddNode {
    return this.replaceObligations(n, (f) => this.unfold(f), this.composed);
  }

  /** n with each obligation variable replaced by `value` of its formula. */
  private replaceObligations(n: BddNode, value: (f: Formula) => BddNode, memo: Map<BddNode, BddNode>): BddNode {
    if (n <= 1) return n;
    const hit = memo.get(n);
    if (hit !== undefined) return hit;
    this.tick();
    const f = this.obligationOf.get(this.bdd.varOf(n));
    if (f === undefined) throw new Error('progression: a state mentions a letter');
    const u = value(f);
    const hi = this.replaceObligations(this.bdd.high(n), value, memo);
    const lo = this.replaceObligations(this.bdd.low(n), value, memo);
    // States are positive in their obligations (n's low branch implies its high one), so n is
    // (x ∧ high) ∨ low and the substitution needs no ¬u: the complement of an unfolding over
    // letters and next obligations is as large as the unfolding, and building it and the
    // second conjunction was most of a step's cost (finding_nemo_pb_4: 1.4 s of 2.1).
    const n0 = this.bdd.low(n);
    const r = this.bdd.implies(n0, this.bdd.high(n)) ? this.bdd.or(this.bdd.and(u, hi), lo) : this.bdd.or(this.bdd.and(u, hi), this.bdd.and(this.bdd.not(u), lo));
    memo.set(n, r);
    return r;
  }


  /** What `f` requires of the current letter and of the next position (`X ψ` as obligation ψ). */
  private unfold(f: Formula): BddNode {
    const hit = this.unfolded.get(f.id);
    if (hit !== undefined) return hit;
    this.tick();
    const b = this.bdd;
    let r: BddNode;
    switch (f.kind) {
      case 'true':
        r = BDD_TRUE;
        break;
      case 'false':
        r = BDD_FALSE;
        break;
      case 'ap':
        r = b.variable(f.name);
        break;
      case 'not':
        if (f.arg.kind !== 'ap') throw new Error('progression: formula not in negation normal form');
        r = b.not(b.variable(f.arg.name));
        break;
      case 'and':
        r = BDD_TRUE;
        for (const a of f.args) {
          r = b.and(r, this.unfold(a));
          if (r === BDD_FALSE) break;
          this.tick();
        }
        break;
      case 'or':
        r = BDD_FALSE;
        for (const a of f.args) {
          r = b.or(r, this.unfold(a));
          if (r === BDD_TRUE) break;
          this.tick();
        }
        break;
      case 'X':
        r = this.state(f.arg);
        break;
      case 'F':
        r = b.or(this.unfold(f.arg), this.obligation(f));
        break;
      case 'G':
        r = b.and(this.unfold(f.arg), this.obligation(f));
        break;
      case 'U':
      case 'W':
        // b ∨ (a ∧ X(a U b)); U and W differ only in acceptance, which progression leaves to the caller.
        r = b.or(this.unfold(f.right), b.and(this.unfold(f.left), this.obligation(f)));
        break;
      case 'R':
      case 'M':
        // b ∧ (a ∨ X(a R b)).
        r = b.and(this.unfold(f.right), b.or(this.unfold(f.left), this.obligation(f)));
        break;
      default:
        throw new Error(`progression: formula not in negation normal form (${f.kind})`);
    }
    this.unfolded.set(f.id, r);
    return r;
  }
}
