/**
 * runtime/monitor — runtime monitors for LTL properties over labelled event streams (TRAC-style
 * progression, LTL3 automaton monitors, labelers, prediction and intervention). Usable without the
 * compiler: nothing here imports from src/.
 *
 * terms.ts owns the monitors' internal formula representation: hash-consed terms in negation
 * normal form. Hash-consing makes "did the progressed formula change?" an identity test and lets
 * the monitor memoise progression per (term, label set), which turns a long-running property into
 * a lazily built DFA and is what makes million-event logs cheap.
 */
import { printAtom } from '../ltl/print.js';
import type { LtlNode } from '../ltl/syntax.js';

export enum K {
  True,
  False,
  Lit,
  And,
  Or,
  X,
  /** Weak next: like X on infinite traces; true at the end of a finite trace (LTLf's ¬X¬). */
  WX,
  F,
  G,
  U,
  W,
  R,
  M,
}

export interface Term {
  readonly id: number;
  readonly kind: K;
  /** Lit: index of the atomic proposition in the owning store. */
  readonly ap: number;
  /** Lit: negated literal. */
  readonly neg: boolean;
  /** And/Or: operands (flattened, duplicate-free, sorted by id). X/F/G: [arg]. U/W/R/M: [left, right]. */
  readonly args: readonly Term[];
  /** Number of distinct nodes in the DAG (bounded-growth checks and benchmarks). */
  readonly size: number;
  /** Cached Spot-syntax rendering. */
  text?: string;
}

/**
 * A term store: the intern table plus the atomic propositions it knows. Monitors created together
 * share one store so identical sub-formulas of different properties are shared too.
 */
export class TermStore {
  readonly aps: string[] = [];
  private readonly apIndex = new Map<string, number>();
  private readonly table = new Map<string, Term>();
  /** Terms by id (witness logs store ids, not objects). */
  private readonly byId: Term[] = [];
  private nextId = 0;
  readonly TRUE: Term;
  readonly FALSE: Term;

  constructor() {
    this.TRUE = this.intern('t', K.True, -1, false, []);
    this.FALSE = this.intern('f', K.False, -1, false, []);
  }

  apId(name: string): number {
    let i = this.apIndex.get(name);
    if (i === undefined) {
      i = this.aps.length;
      this.aps.push(name);
      this.apIndex.set(name, i);
    }
    return i;
  }

  get termCount(): number {
    return this.table.size;
  }

  private intern(key: string, kind: K, ap: number, neg: boolean, args: readonly Term[]): Term {
    const found = this.table.get(key);
    if (found) return found;
    let size = 1;
    if (args.length > 0) size += countDistinct(args);
    const t: Term = { id: this.nextId++, kind, ap, neg, args, size };
    this.table.set(key, t);
    this.byId.push(t);
    return t;
  }

  /** The term with this id (ids are dense, from 0). */
  term(id: number): Term {
    const t = this.byId[id];
    if (t === undefined) throw new RangeError(`no term with id ${id}`);
    return t;
  }

  lit(ap: number, neg: boolean): Term {
    return this.intern(`${neg ? '!' : ''}p${ap}`, K.Lit, ap, neg, []);
  }

  and(operands: readonly Term[]): Term {
    return this.nary(K.And, operands);
  }
  or(operands: readonly Term[]): Term {
    return this.nary(K.Or, operands);
  }
  and2(a: Term, b: Term): Term {
    if (a === this.FALSE || b === this.FALSE) return this.FALSE;
    if (a === this.TRUE) return b;
    if (b === this.TRUE || a === b) return a;
    return this.nary(K.And, [a, b]);
  }
  or2(a: Term, b: Term): Term {
    if (a === this.TRUE || b === this.TRUE) return this.TRUE;
    if (a === this.FALSE) return b;
    if (b === this.FALSE || a === b) return a;
    return this.nary(K.Or, [a, b]);
  }

  /**
   * Boolean simplification applied at every construction: constants, flattening, duplicates,
   * complementary literals and one level of absorption (a ∧ (a ∨ b) = a). Together with
   * hash-consing this keeps progressed formulas from growing step after step.
   */
  private nary(kind: K.And | K.Or, operands: readonly Term[]): Term {
    const unit = kind === K.And ? this.TRUE : this.FALSE;
    const zero = kind === K.And ? this.FALSE : this.TRUE;
    const dual = kind === K.And ? K.Or : K.And;
    const seen = new Map<number, Term>();
    const stack = [...operands];
    while (stack.length > 0) {
      const t = stack.pop()!;
      if (t === zero) return zero;
      if (t === unit) continue;
      if (t.kind === kind) {
        for (const a of t.args) stack.push(a);
        continue;
      }
      seen.set(t.id, t);
    }
    let list = [...seen.values()];
    // Complementary literals: p ∧ ¬p = false, p ∨ ¬p = true.
    for (const t of list) {
      if (t.kind === K.Lit) {
        const other = this.table.get(`${t.neg ? '' : '!'}p${t.ap}`);
        if (other && seen.has(other.id)) return zero;
      }
    }
    // Absorption: drop a dual node that contains one of our direct operands.
    if (list.length > 1) list = list.filter((t) => !(t.kind === dual && t.args.some((a) => seen.has(a.id))));
    if (list.length === 0) return unit;
    if (list.length === 1) return list[0];
    list.sort((a, b) => a.id - b.id);
    const key = `${kind === K.And ? '&' : '|'}${list.map((t) => t.id).join(',')}`;
    return this.intern(key, kind, -1, false, list);
  }

  unary(kind: K.X | K.WX | K.F | K.G, arg: Term): Term {
    if (kind !== K.X && kind !== K.WX && (arg === this.TRUE || arg === this.FALSE)) return arg;
    // F F a = F a and G G a = G a keep repeated progression from nesting the same operator.
    if ((kind === K.F || kind === K.G) && arg.kind === kind) return arg;
    return this.intern(`${kind}(${arg.id})`, kind, -1, false, [arg]);
  }

  binary(kind: K.U | K.W | K.R | K.M, left: Term, right: Term): Term {
    const { TRUE, FALSE } = this;
    switch (kind) {
      case K.U:
        if (right === TRUE || right === FALSE) return right;
        if (left === FALSE) return right;
        if (left === TRUE) return this.unary(K.F, right);
        break;
      case K.W:
        if (right === TRUE || left === TRUE) return TRUE;
        if (left === FALSE) return right;
        if (right === FALSE) return this.unary(K.G, left);
        break;
      case K.R:
        if (right === TRUE || right === FALSE) return right;
        if (left === TRUE) return right;
        if (left === FALSE) return this.unary(K.G, right);
        break;
      case K.M:
        if (right === FALSE || left === FALSE) return FALSE;
        if (left === TRUE) return right;
        if (right === TRUE) return this.unary(K.F, left);
        break;
    }
    if (left === right) return left;
    return this.intern(`${kind}(${left.id},${right.id})`, kind, -1, false, [left, right]);
  }

  /** Convert plain syntax to an NNF term; `negate` pushes a negation inwards. */
  fromNode(node: LtlNode, negate = false): Term {
    return this.convert(node, negate, new Map());
  }

  /**
   * `fromNode`, memoised per (node, polarity): `<->` and `xor` need both polarities of both
   * operands, so without it a chain `a xor b xor c …` of n operators took 2^n conversions.
   */
  private convert(node: LtlNode, negate: boolean, memo: Map<LtlNode, [Term | undefined, Term | undefined]>): Term {
    const slot = memo.get(node);
    const hit = slot?.[negate ? 1 : 0];
    if (hit) return hit;
    const term = this.convertOnce(node, negate, memo);
    if (slot) slot[negate ? 1 : 0] = term;
    else memo.set(node, negate ? [undefined, term] : [term, undefined]);
    return term;
  }

  private convertOnce(node: LtlNode, negate: boolean, memo: Map<LtlNode, [Term | undefined, Term | undefined]>): Term {
    const from = (n: LtlNode, neg = false): Term => this.convert(n, neg, memo);
    switch (node.op) {
      case 'true':
        return negate ? this.FALSE : this.TRUE;
      case 'false':
        return negate ? this.TRUE : this.FALSE;
      case 'ap':
        return this.lit(this.apId(node.name), negate);
      case '!':
        return from(node.arg, !negate);
      case '&':
      case '|': {
        const args = node.args.map((a) => from(a, negate));
        return (node.op === '&') !== negate ? this.and(args) : this.or(args);
      }
      case 'X':
        // ¬X a is weak next ¬a: the same on infinite traces, different at the end of a log.
        return this.unary(negate ? K.WX : K.X, from(node.arg, negate));
      case 'F':
        return this.unary(negate ? K.G : K.F, from(node.arg, negate));
      case 'G':
        return this.unary(negate ? K.F : K.G, from(node.arg, negate));
      case '->':
        // a -> b  =  !a | b
        return negate
          ? this.and2(from(node.left), from(node.right, true))
          : this.or2(from(node.left, true), from(node.right));
      case '<->':
      case 'xor': {
        const equal = (node.op === '<->') !== negate;
        const a = from(node.left);
        const na = from(node.left, true);
        const b = from(node.right);
        const nb = from(node.right, true);
        return equal ? this.or2(this.and2(a, b), this.and2(na, nb)) : this.or2(this.and2(a, nb), this.and2(na, b));
      }
      case 'U':
      case 'W':
      case 'R':
      case 'M': {
        const l = from(node.left, negate);
        const r = from(node.right, negate);
        const dualOf = { U: K.R, R: K.U, W: K.M, M: K.W } as const;
        const same = { U: K.U, R: K.R, W: K.W, M: K.M } as const;
        return this.binary(negate ? dualOf[node.op] : same[node.op], l, r);
      }
    }
  }

  /** Back to plain syntax (snapshots, witnesses, reports). */
  toNode(t: Term): LtlNode {
    switch (t.kind) {
      case K.True:
        return { op: 'true' };
      case K.False:
        return { op: 'false' };
      case K.Lit: {
        const a: LtlNode = { op: 'ap', name: this.aps[t.ap] };
        return t.neg ? { op: '!', arg: a } : a;
      }
      case K.And:
        return { op: '&', args: t.args.map((a) => this.toNode(a)) };
      case K.Or:
        return { op: '|', args: t.args.map((a) => this.toNode(a)) };
      case K.X:
        return { op: 'X', arg: this.toNode(t.args[0]) };
      case K.WX:
        return { op: '!', arg: { op: 'X', arg: { op: '!', arg: this.toNode(t.args[0]) } } };
      case K.F:
        return { op: 'F', arg: this.toNode(t.args[0]) };
      case K.G:
        return { op: 'G', arg: this.toNode(t.args[0]) };
      default: {
        const op = ({ [K.U]: 'U', [K.W]: 'W', [K.R]: 'R', [K.M]: 'M' } as Record<number, 'U' | 'W' | 'R' | 'M'>)[t.kind];
        return { op, left: this.toNode(t.args[0]), right: this.toNode(t.args[1]) };
      }
    }
  }

  /**
   * Spot syntax, fully parenthesised where precedence could be misread. Iterative (children
   * first, each term's text cached): a term can be thousands of levels deep.
   */
  print(t: Term): string {
    const stack: Term[] = [t];
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      if (top.text !== undefined) {
        stack.pop();
        continue;
      }
      const waiting = top.args.filter((a) => a.text === undefined);
      if (waiting.length > 0) {
        stack.push(...waiting);
        continue;
      }
      stack.pop();
      top.text = this.printOne(top);
    }
    return t.text!;
  }

  /** One term's text from its operands' texts (all known). */
  private printOne(t: Term): string {
    const operand = (a: Term): string => (a.kind === K.And || a.kind === K.Or || a.kind >= K.U ? `(${a.text!})` : a.text!);
    let s: string;
    switch (t.kind) {
      case K.True:
        s = 'true';
        break;
      case K.False:
        s = 'false';
        break;
      case K.Lit:
        s = (t.neg ? '!' : '') + printAtom(this.aps[t.ap]);
        break;
      case K.And:
      case K.Or:
        s = t.args.map(operand).join(t.kind === K.And ? ' & ' : ' | ');
        break;
      case K.X:
      case K.F:
      case K.G:
        s = `${t.kind === K.X ? 'X' : t.kind === K.F ? 'F' : 'G'} ${operand(t.args[0])}`;
        break;
      case K.WX:
        s = `!X !${operand(t.args[0])}`;
        break;
      default: {
        const op = t.kind === K.U ? 'U' : t.kind === K.W ? 'W' : t.kind === K.R ? 'R' : 'M';
        s = `${operand(t.args[0])} ${op} ${operand(t.args[1])}`;
      }
    }
    // Terms are shared: written out as a tree, `a xor b xor …` doubles with every operator. The
    // text is for people (residual formulas, witnesses), so a long one is cut.
    return s.length > MAX_PRINTED ? `${s.slice(0, MAX_PRINTED)} …` : s;
  }
}

/** Longest text `print` gives for one term, in characters (then `…`). */
const MAX_PRINTED = 20_000;

function countDistinct(args: readonly Term[]): number {
  // Children's sizes already count their sub-DAGs; summing over-counts shared nodes, which is
  // fine for a growth bound and keeps construction O(arity).
  let n = 0;
  for (const a of args) n += a.size;
  return n;
}

/** Atomic-proposition indices occurring in a term. */
export function termAps(t: Term, out = new Set<number>()): Set<number> {
  const seen = new Set<number>();
  const walk = (u: Term): void => {
    if (seen.has(u.id)) return;
    seen.add(u.id);
    if (u.kind === K.Lit) out.add(u.ap);
    for (const a of u.args) walk(a);
  };
  walk(t);
  return out;
}

/**
 * One progression step (the paper's Table 1, extended to W, R, M). `value(ap)` is the truth of
 * an atomic proposition in the current label set.
 */
export function progress(store: TermStore, t: Term, value: (ap: number) => boolean): Term {
  const memo = new Map<number, Term>();
  const go = (u: Term): Term => {
    const hit = memo.get(u.id);
    if (hit) return hit;
    let r: Term;
    switch (u.kind) {
      case K.True:
      case K.False:
        r = u;
        break;
      case K.Lit:
        r = value(u.ap) !== u.neg ? store.TRUE : store.FALSE;
        break;
      case K.And:
        r = store.and(u.args.map(go));
        break;
      case K.Or:
        r = store.or(u.args.map(go));
        break;
      case K.X:
      case K.WX:
        r = u.args[0];
        break;
      case K.F:
        r = store.or2(go(u.args[0]), u);
        break;
      case K.G:
        r = store.and2(go(u.args[0]), u);
        break;
      case K.U:
      case K.W:
        r = store.or2(go(u.args[1]), store.and2(go(u.args[0]), u));
        break;
      default:
        // R and M: the right operand must hold now, and either the left releases it now or the
        // obligation carries over.
        r = store.and2(go(u.args[1]), store.or2(go(u.args[0]), u));
    }
    memo.set(u.id, r);
    return r;
  };
  return go(t);
}

/**
 * Progression through the last letter of a finite trace (LTLf): strong next and unmet eventualities
 * fail, invariants only need to hold now. The result is always `true` or `false`.
 */
export function progressLast(store: TermStore, t: Term, value: (ap: number) => boolean): boolean {
  const memo = new Map<number, boolean>();
  const go = (u: Term): boolean => {
    const hit = memo.get(u.id);
    if (hit !== undefined) return hit;
    let r: boolean;
    switch (u.kind) {
      case K.True:
        r = true;
        break;
      case K.False:
        r = false;
        break;
      case K.Lit:
        r = value(u.ap) !== u.neg;
        break;
      case K.And:
        r = u.args.every(go);
        break;
      case K.Or:
        r = u.args.some(go);
        break;
      case K.X:
        r = false;
        break;
      case K.WX:
        r = true;
        break;
      case K.F:
      case K.G:
        r = go(u.args[0]);
        break;
      case K.U:
      case K.R:
        r = go(u.args[1]);
        break;
      case K.W:
        r = go(u.args[1]) || go(u.args[0]);
        break;
      default:
        r = go(u.args[1]) && go(u.args[0]);
    }
    memo.set(u.id, r);
    return r;
  };
  return go(t);
}

/** LTLf truth of a term on the empty remainder of a trace that has already ended. */
export function acceptsEmpty(t: Term): boolean {
  switch (t.kind) {
    case K.True:
    case K.WX:
    case K.G:
    case K.W:
    case K.R:
      return true;
    case K.And:
      return t.args.every(acceptsEmpty);
    case K.Or:
      return t.args.some(acceptsEmpty);
    default:
      return false;
  }
}

/** Above this many clauses a formula is left as built rather than put in disjunctive normal form. */
const MAX_DNF_CLAUSES = 256;

/**
 * Canonical form for progressed formulas: a subsumption-free disjunction of conjunctions of
 * temporal sub-formulas. Progressed formulas are positive Boolean combinations of a finite set of
 * such sub-formulas, so in this form only finitely many can ever arise and the monitor's state
 * space (and memory) stays bounded on arbitrarily long logs. Only run on memo-table misses.
 */
export function normalize(store: TermStore, t: Term): Term {
  if (t.kind !== K.And && t.kind !== K.Or) return t;
  const dnf = (u: Term): Term[][] | undefined => {
    if (u.kind === K.Or) {
      const out: Term[][] = [];
      for (const a of u.args) {
        const d = dnf(a);
        if (!d) return undefined;
        out.push(...d);
        if (out.length > MAX_DNF_CLAUSES) return undefined;
      }
      return out;
    }
    if (u.kind === K.And) {
      let acc: Term[][] = [[]];
      for (const a of u.args) {
        const d = dnf(a);
        if (!d) return undefined;
        const next: Term[][] = [];
        for (const c of acc) for (const e of d) next.push([...c, ...e]);
        if (next.length > MAX_DNF_CLAUSES) return undefined;
        acc = next;
      }
      return acc;
    }
    return [[u]];
  };
  const clauses = dnf(t);
  if (!clauses) return t;
  const sets = clauses.map((c) => new Set(c.map((x) => x.id)));
  const keep = clauses.filter((_, i) => {
    const ci = sets[i];
    return !sets.some((cj, j) => {
      if (j === i || cj.size > ci.size) return false;
      if (cj.size === ci.size && j > i) return false;
      for (const id of cj) if (!ci.has(id)) return false;
      return true;
    });
  });
  return store.or(keep.map((c) => store.and(c)));
}
