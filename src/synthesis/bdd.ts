/**
 * A small BDD package for the solver's move enumeration. Guards become BDDs with the first
 * mover's propositions ordered first, so splitting on the first mover is a walk down the
 * diagrams (no formula rebuilding), residuals are compared by node identity, and cofactors on
 * the second mover's one-hot options are memoised restrictions.
 */
import { BDD_FALSE, BDD_TRUE, type BddManager, type BddNode } from '../automata/bdd.js';
import type { Formula } from '../ltl/formula.js';

export type Node = number;
export const ZERO: Node = 0;
export const ONE: Node = 1;

export class Bdd {
  private readonly lvl: number[] = [1 << 30, 1 << 30];
  private readonly lo: number[] = [0, 1];
  private readonly hi: number[] = [0, 1];
  private readonly unique: Map<number, Node>[] = [];
  private readonly andCache = new Map<number, Node>();
  private readonly orCache = new Map<number, Node>();
  private readonly notCache = new Map<number, Node>();
  private readonly restrictCache = new Map<number, Map<Node, Node>>();
  private readonly formulaCache = new Map<number, Node>();

  /** `order` lists every proposition; its index is the variable's level. */
  constructor(readonly order: readonly string[]) {
    this.levelOf = new Map(order.map((n, i) => [n, i]));
    for (let i = 0; i < order.length; i++) this.unique.push(new Map());
  }
  readonly levelOf: ReadonlyMap<string, number>;

  level(n: Node): number {
    return this.lvl[n];
  }
  low(n: Node): Node {
    return this.lo[n];
  }
  high(n: Node): Node {
    return this.hi[n];
  }

  private mk(v: number, lo: Node, hi: Node): Node {
    if (lo === hi) return lo;
    const key = lo * 0x4000000 + hi;
    const table = this.unique[v];
    const found = table.get(key);
    if (found !== undefined) return found;
    const id = this.lvl.length;
    this.lvl.push(v);
    this.lo.push(lo);
    this.hi.push(hi);
    table.set(key, id);
    return id;
  }

  variable(name: string): Node {
    const v = this.levelOf.get(name);
    if (v === undefined) throw new Error(`proposition '${name}' is neither an input nor an output`);
    return this.mk(v, ZERO, ONE);
  }

  not(f: Node): Node {
    if (f <= 1) return 1 - f;
    const hit = this.notCache.get(f);
    if (hit !== undefined) return hit;
    const r = this.mk(this.lvl[f], this.not(this.lo[f]), this.not(this.hi[f]));
    this.notCache.set(f, r);
    return r;
  }
  and(f: Node, g: Node): Node {
    if (f === ZERO || g === ZERO) return ZERO;
    if (f === ONE) return g;
    if (g === ONE || f === g) return f;
    return this.apply(f, g, this.andCache, this.andOp);
  }
  or(f: Node, g: Node): Node {
    if (f === ONE || g === ONE) return ONE;
    if (f === ZERO) return g;
    if (g === ZERO || f === g) return f;
    return this.apply(f, g, this.orCache, this.orOp);
  }
  private ite(f: Node, g: Node, h: Node): Node {
    return this.or(this.and(f, g), this.and(this.not(f), h));
  }
  // Bound once: a closure per call, and the destructuring swap below, allocate in unoptimized code.
  private readonly andOp = (a: Node, b: Node): Node => this.and(a, b);
  private readonly orOp = (a: Node, b: Node): Node => this.or(a, b);
  private apply(f: Node, g: Node, cache: Map<number, Node>, op: (a: Node, b: Node) => Node): Node {
    if (f > g) {
      const t = f;
      f = g;
      g = t;
    }
    const key = f * 0x4000000 + g;
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    const lf = this.lvl[f];
    const lg = this.lvl[g];
    const v = Math.min(lf, lg);
    const r = this.mk(
      v,
      op(lf === v ? this.lo[f] : f, lg === v ? this.lo[g] : g),
      op(lf === v ? this.hi[f] : f, lg === v ? this.hi[g] : g),
    );
    if (cache.size > 4_000_000) cache.clear();
    cache.set(key, r);
    return r;
  }

  /**
   * A diagram of the automata layer's package (an automaton edge's guard) rebuilt here, variable
   * by variable name. Translations hand over their BDD guards this way: turning them into formulas
   * and back cost more than the rest of many small specs' translations.
   */
  fromForeign(src: BddManager, n: BddNode): Node {
    let memo = this.foreignCache.get(src);
    if (!memo) this.foreignCache.set(src, (memo = new Map()));
    return this.copyForeign(src, n, memo);
  }
  private readonly foreignCache = new WeakMap<BddManager, Map<BddNode, Node>>();
  private copyForeign(src: BddManager, n: BddNode, memo: Map<BddNode, Node>): Node {
    if (n === BDD_FALSE) return ZERO;
    if (n === BDD_TRUE) return ONE;
    const hit = memo.get(n);
    if (hit !== undefined) return hit;
    const name = src.nodeVarName(n);
    const v = this.levelOf.get(name);
    if (v === undefined) throw new Error(`proposition '${name}' is neither an input nor an output`);
    const r = this.branch(v, this.copyForeign(src, src.high(n), memo), this.copyForeign(src, src.low(n), memo));
    memo.set(n, r);
    return r;
  }
  /**
   * ite(variable v, hi, lo) in one pass: the two orders differ (the source's is the translation's,
   * this one puts the first mover first), so v may have to sink below the children's top variables.
   * Where it is above both (the common case) this is one `mk`; before, the general ite (an `and`,
   * a `not`, another `and` and an `or`, each with its own cache) took a second of TwoCountersDisButA9's
   * move table for its 380-state automaton.
   */
  private branch(v: number, hi: Node, lo: Node): Node {
    if (hi === lo) return hi;
    const top = Math.min(this.lvl[hi], this.lvl[lo]);
    if (v < top) return this.mk(v, lo, hi);
    // Per level, keyed by (hi, lo) as mk's unique tables are (node ids stay below 2^26).
    const cache = (this.branchCache[v] ??= new Map());
    const key = hi * 0x4000000 + lo;
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    const hiLo = this.lvl[hi] === top ? this.lo[hi] : hi;
    const hiHi = this.lvl[hi] === top ? this.hi[hi] : hi;
    const loLo = this.lvl[lo] === top ? this.lo[lo] : lo;
    const loHi = this.lvl[lo] === top ? this.hi[lo] : lo;
    const r = v === top ? this.mk(v, loLo, hiHi) : this.mk(top, this.branch(v, hiLo, loLo), this.branch(v, hiHi, loHi));
    cache.set(key, r);
    return r;
  }
  private readonly branchCache: Map<number, Node>[] = [];

  fromFormula(f: Formula): Node {
    const hit = this.formulaCache.get(f.id);
    if (hit !== undefined) return hit;
    let r: Node;
    switch (f.kind) {
      case 'true':
        r = ONE;
        break;
      case 'false':
        r = ZERO;
        break;
      case 'ap':
        r = this.variable(f.name);
        break;
      case 'not':
        r = this.not(this.fromFormula(f.arg));
        break;
      case 'and':
        r = f.args.reduce((acc: Node, a) => this.and(acc, this.fromFormula(a)), ONE);
        break;
      case 'or':
        r = f.args.reduce((acc: Node, a) => this.or(acc, this.fromFormula(a)), ZERO);
        break;
      case 'implies':
        r = this.or(this.not(this.fromFormula(f.left)), this.fromFormula(f.right));
        break;
      case 'iff': {
        const a = this.fromFormula(f.left);
        const b = this.fromFormula(f.right);
        r = this.ite(a, b, this.not(b));
        break;
      }
      case 'xor': {
        const a = this.fromFormula(f.left);
        const b = this.fromFormula(f.right);
        r = this.ite(a, this.not(b), b);
        break;
      }
      default:
        throw new Error(`temporal operator ${f.kind} in a guard`);
    }
    this.formulaCache.set(f.id, r);
    return r;
  }

  /**
   * f with the variables of `levels` fixed to `values`; `key` identifies the assignment (for
   * memoisation across calls).
   */
  restrict(f: Node, levels: readonly number[], values: readonly boolean[], key: number): Node {
    if (f <= 1) return f;
    const max = maxLevel(levels);
    let cache = this.restrictCache.get(key);
    if (!cache) this.restrictCache.set(key, (cache = new Map()));
    return this.restrictWith(f, levels, values, max, cache);
  }
  /**
   * ∃ (or ∀) over a mover's options: for each dimension, the disjunction (conjunction) of f under
   * each of its options. Options, not all valuations: a signal's updates are one-hot.
   */
  quantify(f: Node, dims: readonly { readonly levels: readonly number[]; readonly values: readonly (readonly boolean[])[] }[], exists: boolean): Node {
    for (const { levels, values } of dims) {
      const max = maxLevel(levels);
      let acc: Node = exists ? ZERO : ONE;
      for (const option of values) {
        // A private cache: the shared one is keyed by the split's option numbering.
        const r = this.restrictWith(f, levels, option, max, new Map());
        acc = exists ? this.or(acc, r) : this.and(acc, r);
      }
      f = acc;
    }
    return f;
  }
  private restrictWith(f: Node, levels: readonly number[], values: readonly boolean[], max: number, cache: Map<Node, Node>): Node {
    if (f <= 1 || this.lvl[f] > max) return f;
    const hit = cache.get(f);
    if (hit !== undefined) return hit;
    const v = this.lvl[f];
    const i = levels.indexOf(v);
    const r =
      i >= 0
        ? this.restrictWith(values[i] ? this.hi[f] : this.lo[f], levels, values, max, cache)
        : this.mk(v, this.restrictWith(this.lo[f], levels, values, max, cache), this.restrictWith(this.hi[f], levels, values, max, cache));
    cache.set(f, r);
    return r;
  }
}

function maxLevel(levels: readonly number[]): number {
  let max = -1;
  // Indexed loops here and in split.ts: short runs execute unoptimized code (see
  // IsolatedChecker's deferOptimization), where for-of allocates an iterator result per step.
  for (let i = 0; i < levels.length; i++) if (levels[i] > max) max = levels[i];
  return max;
}
