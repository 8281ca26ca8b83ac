/**
 * A small reduced ordered BDD package for edge guards.
 *
 * Guards over many propositions (TLSF specs have ~20 inputs) must never be handled by enumerating
 * valuations; BDDs give canonical guards (equal functions are the same node), cheap conjunction,
 * implication tests and "is this guard compatible with a partial assignment (cube)?" walks.
 * Nodes are plain integers into parallel arrays (0 = false, 1 = true), so the package stays fast
 * without allocating an object per node. Variables are named; their order is first-come.
 */
import { type Formula, and, ap, FALSE, not, or, TRUE } from '../ltl/formula.js';
import type { Cube } from '../game/mealy.js';

export type BddNode = number;
export const BDD_FALSE: BddNode = 0;
export const BDD_TRUE: BddNode = 1;

/** Pairs of node ids fit a double exactly while ids stay below 2^26. */
const PAIR = 2 ** 26;

/** The computed table starts small (many managers are short-lived) and grows with the nodes. */
const INITIAL_CACHE_BITS = 10;
const MAX_CACHE_BITS = 20;
const OP_AND = 0;
const OP_OR = 1;
/** Slot index (×4) of the pair (f, g) under an operation; a multiplicative hash. */
function cacheSlot(f: number, g: number, op: number, bits: number): number {
  const h = (Math.imul(f, 0x9e3779b1) ^ Math.imul(g + op, 0x85ebca6b)) >>> 0;
  return (h >>> (32 - bits)) * 4;
}

/** Hash of a node's (variable, low, high) for the unique table. */
function uniqueHash(v: number, lo: number, hi: number): number {
  let h = Math.imul(lo, 0x9e3779b1) ^ Math.imul(hi, 0x85ebca6b) ^ Math.imul(v, 0xc2b2ae35);
  h ^= h >>> 15;
  return Math.imul(h, 0x2c1b3c6d) >>> 0;
}

export class BddManager {
  private readonly level: number[] = [Infinity, Infinity];
  private readonly lo: number[] = [0, 1];
  private readonly hi: number[] = [0, 1];
  /**
   * Unique table: open addressing over node ids (0 = empty slot: node 0 is a constant), keyed by
   * (variable, low, high) read from the node arrays. A Map per variable keyed by a double cost
   * an allocation per lookup and was most of the parity route's time (TwoCounters', IntendDemo's
   * moves: 70% in `mk`, a fifth of it garbage collection).
   */
  private uniqueSlots = new Int32Array(1 << 10);
  private uniqueCount = 0;
  /**
   * Lossy computed table for ∧/∨ (CUDD-style): a fixed-size array of (f, g, op, result) slots
   * instead of ever-growing Maps, which dominated run time and GC on large translations. A lost
   * entry is only recomputed (to the same canonical node), so results never depend on it.
   */
  private computed = new Int32Array(4 << INITIAL_CACHE_BITS).fill(-1);
  private cacheBits = INITIAL_CACHE_BITS;
  private readonly notCache = new Map<number, number>();
  private readonly names: string[] = [];
  private readonly indexOf = new Map<string, number>();
  private readonly formulaCache = new Map<number, BddNode>();
  /**
   * Called after every 256th new node, e.g. a solver's clock poll, which may throw to abandon
   * the operation under way: one conjunction of large guards can run for seconds without
   * returning to a caller that polls (the parity route on Automata32S ran 20 s past its slice).
   * Every node and cache entry is complete before it is called, so the manager stays usable.
   */
  poll: (() => void) | undefined;
  private created = 0;

  /** The variable index of a proposition, allocating it (last in the order) on first use. */
  varIndex(name: string): number {
    let v = this.indexOf.get(name);
    if (v === undefined) {
      v = this.names.length;
      this.names.push(name);
      this.indexOf.set(name, v);
    }
    return v;
  }
  hasVar(name: string): boolean {
    return this.indexOf.has(name);
  }
  /** The name of a decision node's variable (not of a constant). */
  nodeVarName(n: BddNode): string {
    return this.names[this.level[n]];
  }
  /** The variable index of a decision node (its level in the order). */
  varOf(n: BddNode): number {
    return this.level[n];
  }
  /** Variable indices by name (the variable order). */
  get levels(): ReadonlyMap<string, number> {
    return this.indexOf;
  }
  /** A decision node's child where its variable is false / true. */
  low(n: BddNode): BddNode {
    return this.lo[n];
  }
  high(n: BddNode): BddNode {
    return this.hi[n];
  }
  varName(v: number): string {
    return this.names[v];
  }
  get nodeCount(): number {
    return this.lo.length;
  }

  private mk(v: number, lo: BddNode, hi: BddNode): BddNode {
    if (lo === hi) return lo;
    const slots = this.uniqueSlots;
    const mask = slots.length - 1;
    let i = uniqueHash(v, lo, hi) & mask;
    for (let id = slots[i]; id !== 0; id = slots[i]) {
      if (this.lo[id] === lo && this.hi[id] === hi && this.level[id] === v) return id;
      i = (i + 1) & mask;
    }
    const id = this.lo.length;
    if (id >= PAIR) throw new Error('BDD node table exhausted');
    this.level.push(v);
    this.lo.push(lo);
    this.hi.push(hi);
    slots[i] = id;
    if (++this.uniqueCount * 2 > slots.length) this.growUnique();
    if (id >= 2 << this.cacheBits && this.cacheBits < MAX_CACHE_BITS) {
      // Grow the computed table; dropping its entries only costs recomputation.
      this.cacheBits++;
      this.computed = new Int32Array(4 << this.cacheBits).fill(-1);
    }
    if ((++this.created & 255) === 0) this.poll?.();
    return id;
  }

  /** Doubles the unique table (kept at most half full, so probe runs stay short). */
  private growUnique(): void {
    const slots = new Int32Array(this.uniqueSlots.length * 2);
    const mask = slots.length - 1;
    for (let id = 2; id < this.lo.length; id++) {
      let i = uniqueHash(this.level[id], this.lo[id], this.hi[id]) & mask;
      while (slots[i] !== 0) i = (i + 1) & mask;
      slots[i] = id;
    }
    this.uniqueSlots = slots;
  }

  variable(name: string): BddNode {
    return this.mk(this.varIndex(name), BDD_FALSE, BDD_TRUE);
  }
  literal(name: string, value: boolean): BddNode {
    const v = this.varIndex(name);
    return value ? this.mk(v, BDD_FALSE, BDD_TRUE) : this.mk(v, BDD_TRUE, BDD_FALSE);
  }

  /**
   * The conjunction of a cube's literals, built bottom-up along the variable order: one node per
   * literal, where conjoining them one by one walks the cube built so far each time (quadratic;
   * the minimization of a controller with thousands of transitions did that for every one).
   */
  cube(c: Cube): BddNode {
    const names = Object.keys(c);
    // Variables new to the manager are allocated in name order, as conjoining sorted literals
    // would (sorting is skipped when there are none: minimization and the checks build a cube per
    // transition, in code a short check runs unoptimized).
    for (let i = 0; i < names.length; i++)
      if (!this.indexOf.has(names[i])) {
        names.sort();
        break;
      }
    const literals: Array<[number, boolean]> = [];
    for (let i = 0; i < names.length; i++) literals.push([this.varIndex(names[i]), c[names[i]]]);
    literals.sort((a, b) => b[0] - a[0]);
    return this.literalsFromBottom(literals);
  }

  /** The conjunction of the literals a partial assignment fixes (by variable index; 0 = free). */
  assignmentCube(assignment: Int8Array): BddNode {
    const literals: Array<[number, boolean]> = [];
    for (let v = assignment.length - 1; v >= 0; v--) if (assignment[v] !== 0) literals.push([v, assignment[v] > 0]);
    return this.literalsFromBottom(literals);
  }

  /** A cube from its literals, lowest variable (highest index) first. */
  private literalsFromBottom(literals: ReadonlyArray<readonly [number, boolean]>): BddNode {
    let node: BddNode = BDD_TRUE;
    // Indexed: unoptimized code runs the iterator protocol for `for (const [v, value] of …)`.
    for (let i = 0; i < literals.length; i++) {
      const literal = literals[i];
      node = literal[1] ? this.mk(literal[0], BDD_FALSE, node) : this.mk(literal[0], node, BDD_FALSE);
    }
    return node;
  }

  not(f: BddNode): BddNode {
    if (f <= 1) return 1 - f;
    const hit = this.notCache.get(f);
    if (hit !== undefined) return hit;
    const r = this.mk(this.level[f], this.not(this.lo[f]), this.not(this.hi[f]));
    this.notCache.set(f, r);
    this.notCache.set(r, f);
    return r;
  }

  and(f: BddNode, g: BddNode): BddNode {
    if (f === BDD_FALSE || g === BDD_FALSE) return BDD_FALSE;
    if (f === BDD_TRUE) return g;
    if (g === BDD_TRUE || f === g) return f;
    if (f > g) {
      // Not a destructuring swap: unoptimized code (short runs) allocates an array for that.
      const t = f;
      f = g;
      g = t;
    }
    const slot = cacheSlot(f, g, OP_AND, this.cacheBits);
    const cache = this.computed;
    if (cache[slot] === f && cache[slot + 1] === g && cache[slot + 2] === OP_AND) return cache[slot + 3];
    const lf = this.level[f];
    const lg = this.level[g];
    let r: BddNode;
    if (lf === lg) r = this.mk(lf, this.and(this.lo[f], this.lo[g]), this.and(this.hi[f], this.hi[g]));
    else if (lf < lg) r = this.mk(lf, this.and(this.lo[f], g), this.and(this.hi[f], g));
    else r = this.mk(lg, this.and(f, this.lo[g]), this.and(f, this.hi[g]));
    cache[slot] = f;
    cache[slot + 1] = g;
    cache[slot + 2] = OP_AND;
    cache[slot + 3] = r;
    return r;
  }

  or(f: BddNode, g: BddNode): BddNode {
    if (f === BDD_TRUE || g === BDD_TRUE) return BDD_TRUE;
    if (f === BDD_FALSE) return g;
    if (g === BDD_FALSE || f === g) return f;
    if (f > g) {
      // Not a destructuring swap: unoptimized code (short runs) allocates an array for that.
      const t = f;
      f = g;
      g = t;
    }
    const slot = cacheSlot(f, g, OP_OR, this.cacheBits);
    const cache = this.computed;
    if (cache[slot] === f && cache[slot + 1] === g && cache[slot + 2] === OP_OR) return cache[slot + 3];
    const lf = this.level[f];
    const lg = this.level[g];
    let r: BddNode;
    if (lf === lg) r = this.mk(lf, this.or(this.lo[f], this.lo[g]), this.or(this.hi[f], this.hi[g]));
    else if (lf < lg) r = this.mk(lf, this.or(this.lo[f], g), this.or(this.hi[f], g));
    else r = this.mk(lg, this.or(f, this.lo[g]), this.or(f, this.hi[g]));
    cache[slot] = f;
    cache[slot + 1] = g;
    cache[slot + 2] = OP_OR;
    cache[slot + 3] = r;
    return r;
  }

  /**
   * The conjunction of `nodes`, deepest top variable first: conjoining a node whose top variable
   * lies above everything built so far makes one node, where the other order rebuilds the whole
   * conjunction below it each time (a cube of n obligations, the initial state of n invariants,
   * was n²/2 nodes and n frames deep: 5,000 guarantees ran seconds past the time limit and then
   * overflowed the stack). The result is the same canonical node either way.
   */
  andAll(nodes: Iterable<BddNode>): BddNode {
    const list = [...nodes].filter((n) => n !== BDD_TRUE);
    if (list.includes(BDD_FALSE)) return BDD_FALSE;
    list.sort((a, b) => this.level[b] - this.level[a]);
    let r = BDD_TRUE;
    for (const n of list) {
      r = this.and(r, n);
      if (r === BDD_FALSE) break;
    }
    return r;
  }

  /** f ⇒ g as functions. */
  implies(f: BddNode, g: BddNode): boolean {
    return this.and(f, this.not(g)) === BDD_FALSE;
  }

  /** Is f ∧ cube satisfiable? A walk that follows the cube's fixed variables; no new nodes. */
  compatible(f: BddNode, cube: Cube): boolean {
    const fixed = this.cubeLevels(cube);
    if (fixed === null) return f !== BDD_FALSE;
    const seen = new Set<number>();
    const go = (n: BddNode): boolean => {
      if (n === BDD_TRUE) return true;
      if (n === BDD_FALSE || seen.has(n)) return false;
      seen.add(n);
      const value = fixed.get(this.level[n]);
      if (value === true) return go(this.hi[n]);
      if (value === false) return go(this.lo[n]);
      return go(this.lo[n]) || go(this.hi[n]);
    };
    return go(f);
  }

  /**
   * A partial assignment as a dense array indexed by variable: 1 = true, -1 = false, 0 = free.
   * Build it once per Mealy transition, then test many guards with `compatibleWith`.
   */
  assignmentArray(cube: Cube): Int8Array {
    const out = new Int8Array(this.names.length);
    for (const name in cube) {
      const v = this.indexOf.get(name);
      if (v !== undefined) out[v] = cube[name] ? 1 : -1;
    }
    return out;
  }

  private visitStamp = new Uint32Array(1024);
  private stamp = 0;

  /** Is f ∧ assignment satisfiable? Allocation-free walk (visited marks by stamp). */
  compatibleWith(f: BddNode, assignment: Int8Array): boolean {
    if (f <= 1) return f === BDD_TRUE;
    if (this.visitStamp.length < this.lo.length) {
      const bigger = new Uint32Array(Math.max(this.lo.length, this.visitStamp.length * 2));
      bigger.set(this.visitStamp);
      this.visitStamp = bigger;
    }
    if (++this.stamp === 0xffffffff) {
      this.visitStamp.fill(0);
      this.stamp = 1;
    }
    const stamp = this.stamp;
    const stack: number[] = [f];
    while (stack.length > 0) {
      const n = stack.pop()!;
      if (n === BDD_TRUE) return true;
      if (n === BDD_FALSE || this.visitStamp[n] === stamp) continue;
      this.visitStamp[n] = stamp;
      const v = this.level[n];
      const value = v < assignment.length ? assignment[v] : 0;
      if (value >= 0) stack.push(this.hi[n]);
      if (value <= 0) stack.push(this.lo[n]);
    }
    return false;
  }

  /**
   * Some assignment satisfying f ∧ cube (over f's variables and the cube's), or null.
   * Variables not fixed by either are left out (the caller picks a default).
   */
  satisfyingAssignment(f: BddNode, cube: Cube = {}): Map<string, boolean> | null {
    const fixed = this.cubeLevels(cube) ?? new Map<number, boolean>();
    const path = new Map<number, boolean>();
    const dead = new Set<number>();
    const go = (n: BddNode): boolean => {
      if (n === BDD_TRUE) return true;
      if (n === BDD_FALSE || dead.has(n)) return false;
      const v = this.level[n];
      const forced = fixed.get(v);
      for (const value of forced === undefined ? [false, true] : [forced]) {
        path.set(v, value);
        if (go(value ? this.hi[n] : this.lo[n])) return true;
        path.delete(v);
      }
      dead.add(n);
      return false;
    };
    if (!go(f)) return null;
    const out = new Map<string, boolean>();
    for (const name in cube) out.set(name, cube[name]);
    for (const [v, value] of path) out.set(this.names[v], value);
    return out;
  }

  /** Evaluate under a total valuation given as a predicate. */
  evaluate(f: BddNode, value: (name: string) => boolean): boolean {
    let n = f;
    while (n > 1) n = value(this.names[this.level[n]]) ? this.hi[n] : this.lo[n];
    return n === BDD_TRUE;
  }

  /** Cube variables that this manager knows, by level; null when none are known. */
  private cubeLevels(cube: Cube): Map<number, boolean> | null {
    let out: Map<number, boolean> | null = null;
    for (const name in cube) {
      const v = this.indexOf.get(name);
      if (v === undefined) continue;
      (out ??= new Map()).set(v, cube[name]);
    }
    return out;
  }

  /** The BDD of a propositional formula (memoised by the formula's hash-cons id). */
  fromFormula(f: Formula): BddNode {
    const hit = this.formulaCache.get(f.id);
    if (hit !== undefined) return hit;
    let r: BddNode;
    switch (f.kind) {
      case 'true':
        r = BDD_TRUE;
        break;
      case 'false':
        r = BDD_FALSE;
        break;
      case 'ap':
        r = this.variable(f.name);
        break;
      case 'not':
        r = this.not(this.fromFormula(f.arg));
        break;
      case 'and':
        r = BDD_TRUE;
        for (const a of this.deepestFirst(f.args)) r = this.and(r, a);
        break;
      case 'or':
        r = BDD_FALSE;
        for (const a of this.deepestFirst(f.args)) r = this.or(r, a);
        break;
      case 'implies':
        r = this.or(this.not(this.fromFormula(f.left)), this.fromFormula(f.right));
        break;
      case 'iff':
      case 'xor': {
        const l = this.fromFormula(f.left);
        const rr = this.fromFormula(f.right);
        const same = this.or(this.and(l, rr), this.and(this.not(l), this.not(rr)));
        r = f.kind === 'iff' ? same : this.not(same);
        break;
      }
      default:
        throw new Error(`BDD of a temporal formula (${f.kind})`);
    }
    this.formulaCache.set(f.id, r);
    return r;
  }

  /**
   * The operands' BDDs, those whose top variable comes latest in the order first (stable). The
   * result is the same BDD in any order, but folding from the bottom of the order up keeps the
   * partial results small: the pairwise clauses ¬(uᵢ ∧ uⱼ) of a TSL cell's one-hot rule
   * (`exactlyOne`, 32 updates in Automata32S) folded in formula order build "which updates were
   * seen so far" diagrams, quadratic in size, where bottom up each partial result is "at most one
   * of the last k", linear (a quarter of that spec's time went there).
   */
  private deepestFirst(args: readonly Formula[]): BddNode[] {
    const nodes = args.map((a) => this.fromFormula(a));
    if (nodes.length <= 2) return nodes;
    const depth = (n: BddNode) => (n <= BDD_TRUE ? Number.MAX_SAFE_INTEGER : this.level[n]);
    return nodes.sort((x, y) => depth(y) - depth(x));
  }

  /**
   * A small formula for f: an irredundant cover (Minato–Morreale), built directly as a shared,
   * factored formula (`!v & (…) | v & (…) | …`) so printed guards stay readable and large guards
   * cost no more than their BDD.
   */
  toFormula(f: BddNode): Formula {
    if (f === BDD_FALSE) return FALSE;
    if (f === BDD_TRUE) return TRUE;
    return this.isop(f, f, new Map()).formula;
  }

  /** Cover of some function between lower and upper, with the function it denotes. */
  private isop(lower: BddNode, upper: BddNode, memo: Map<number, { formula: Formula; fn: BddNode }>): { formula: Formula; fn: BddNode } {
    if (lower === BDD_FALSE) return { formula: FALSE, fn: BDD_FALSE };
    if (upper === BDD_TRUE) return { formula: TRUE, fn: BDD_TRUE };
    const key = lower * PAIR + upper;
    const hit = memo.get(key);
    if (hit) return hit;
    const v = Math.min(this.level[lower], this.level[upper]);
    const [l0, l1] = this.level[lower] === v ? [this.lo[lower], this.hi[lower]] : [lower, lower];
    const [u0, u1] = this.level[upper] === v ? [this.lo[upper], this.hi[upper]] : [upper, upper];
    // Cubes that must mention ¬v / v, then the part both branches share (v left out).
    const r0 = this.isop(this.and(l0, this.not(u1)), u0, memo);
    const r1 = this.isop(this.and(l1, this.not(u0)), u1, memo);
    const lowerRest = this.or(this.and(l0, this.not(r0.fn)), this.and(l1, this.not(r1.fn)));
    const rs = this.isop(lowerRest, this.and(u0, u1), memo);
    const atom = ap(this.names[v]);
    const formula = or(and(not(atom), r0.formula), and(atom, r1.formula), rs.formula);
    const vNode = this.mk(v, BDD_FALSE, BDD_TRUE);
    const fn = this.or(this.or(this.and(this.not(vNode), r0.fn), this.and(vNode, r1.fn)), rs.fn);
    const out = { formula, fn };
    memo.set(key, out);
    return out;
  }
}
