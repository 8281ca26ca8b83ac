/**
 * src/ltl — the formula layer.
 *
 * Owns the one representation of LTL formulas that every later stage (automata, synthesis,
 * verification, explanation) shares. Formulas are hash-consed: structurally equal formulas are
 * the same object, so `a === b` is equality, `id` is a stable key for maps and memo tables, and
 * sub-formulas are shared. The constructors apply only rewrites that are always sound and cheap
 * (constant folding, flattening, duplicate removal, double negation); heavier Spot-style
 * simplification lives in `simplify.ts`.
 *
 * Front ends (TSL, TLSF, Spot syntax) keep their own source ASTs for printing and diagnostics and
 * translate into this layer; nothing here knows about source text.
 */

export type Formula =
  | Const
  | Atom
  | Not
  | NAry
  | Binary
  | Unary;

interface Base {
  /** Unique per structurally distinct formula; stable for the lifetime of the process. */
  readonly id: number;
  /**
   * A structural hash (53 bits) that, unlike `id`, does not depend on which formulas the process
   * built before. Operands of ∧/∨/↔ are ordered by it, so the same spec gives the same automata
   * and controllers whether it is solved first or after others (batch mode, a reused worker).
   */
  readonly rank: number;
}
export interface Const extends Base {
  readonly kind: 'true' | 'false';
}
export interface Atom extends Base {
  readonly kind: 'ap';
  readonly name: string;
}
export interface Not extends Base {
  readonly kind: 'not';
  readonly arg: Formula;
}
/** Conjunction / disjunction: flattened, duplicate-free, operands sorted by id, at least two. */
export interface NAry extends Base {
  readonly kind: 'and' | 'or';
  readonly args: readonly Formula[];
}
export type BinaryKind = 'implies' | 'iff' | 'xor' | 'U' | 'W' | 'R' | 'M';
export interface Binary extends Base {
  readonly kind: BinaryKind;
  readonly left: Formula;
  readonly right: Formula;
}
export type UnaryTemporalKind = 'X' | 'F' | 'G';
export interface Unary extends Base {
  readonly kind: UnaryTemporalKind;
  readonly arg: Formula;
}

const table = new Map<string, Formula>();
let nextId = 0;

function intern<T extends Formula>(key: string, rank: () => number, make: (id: number, rank: number) => T): T {
  const found = table.get(key);
  if (found) return found as T;
  const made = make(nextId++, rank());
  table.set(key, made);
  return made;
}

const TWO_21 = 2 ** 21;
/** Two 32-bit lanes of a string hash folded with the operands' ranks, packed into 53 bits. */
function structuralRank(tag: string, operands: readonly number[]): number {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < tag.length; i++) {
    const c = tag.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 15);
  }
  for (const r of operands) {
    const hi = Math.floor(r / TWO_21);
    const lo = r % TWO_21;
    a = Math.imul(a ^ hi, 0x85ebca6b) ^ (a >>> 13);
    a = Math.imul(a ^ lo, 0xc2b2ae35) ^ (a >>> 16);
    b = Math.imul(b ^ lo, 0x27d4eb2f) ^ (b >>> 15);
    b = Math.imul(b ^ hi, 0x165667b1) ^ (b >>> 13);
  }
  return (a >>> 0) * TWO_21 + ((b >>> 0) >>> 11);
}
/** The canonical operand order: by structure; ids only break (astronomically rare) hash ties. */
function byRank(x: Formula, y: Formula): number {
  return x.rank - y.rank || x.id - y.id;
}

export const TRUE: Const = intern('t', () => structuralRank('t', []), (id, rank) => ({ id, rank, kind: 'true' }));
export const FALSE: Const = intern('f', () => structuralRank('f', []), (id, rank) => ({ id, rank, kind: 'false' }));

export function ap(name: string): Atom {
  return intern(`a${name}`, () => structuralRank(`a${name}`, []), (id, rank) => ({ id, rank, kind: 'ap', name }));
}

export function not(arg: Formula): Formula {
  if (arg === TRUE) return FALSE;
  if (arg === FALSE) return TRUE;
  if (arg.kind === 'not') return arg.arg;
  return intern(`!${arg.id}`, () => structuralRank('!', [arg.rank]), (id, rank) => ({ id, rank, kind: 'not', arg }));
}

/** Operand counts up to which quadratic loops beat allocating (the common case). */
const SMALL_NARY = 32;

function nary(kind: 'and' | 'or', operands: readonly Formula[]): Formula {
  const unit = kind === 'and' ? TRUE : FALSE;
  const zero = kind === 'and' ? FALSE : TRUE;
  // Written for unoptimized code (short runs): no destructuring, closures, maps or sort calls on
  // the common small calls, each of which allocates there.
  const flat: Formula[] = [];
  if (!flatten(kind, operands, unit, zero, flat)) return zero;
  // Operands in canonical order, duplicates dropped: insertion sort for the usual handful, the
  // library sort beyond (a conjunction of thousands of guarantees was quadratic).
  if (flat.length > SMALL_NARY) flat.sort(byRank);
  else
    for (let i = 1; i < flat.length; i++) {
      const f = flat[i];
      let j = i - 1;
      while (j >= 0 && byRank(flat[j], f) > 0) flat[j + 1] = flat[j--];
      flat[j + 1] = f;
    }
  let m = 0;
  for (let i = 0; i < flat.length; i++) if (m === 0 || flat[i] !== flat[m - 1]) flat[m++] = flat[i];
  flat.length = m;
  if (m === 0) return unit;
  if (m === 1) return flat[0];
  // x && !x folds to false (and dually): cheap, and keeps guards small.
  if (m > SMALL_NARY) {
    const present = new Set<Formula>(flat);
    for (let i = 0; i < m; i++) {
      const f = flat[i];
      if (f.kind === 'not' && present.has(f.arg)) return zero;
    }
  } else
    for (let i = 0; i < m; i++) {
      const f = flat[i];
      if (f.kind === 'not' && flat.includes(f.arg)) return zero;
    }
  let key: string = kind;
  for (let i = 0; i < m; i++) key += i === 0 ? `${flat[i].id}` : `,${flat[i].id}`;
  const found = table.get(key);
  if (found) return found;
  const ranks: number[] = [];
  for (let i = 0; i < m; i++) ranks.push(flat[i].rank);
  const made: NAry = { id: nextId++, rank: structuralRank(kind, ranks), kind, args: flat };
  table.set(key, made);
  return made;
}

/** Operands of `kind` spliced in, units dropped; false when a zero makes the whole a zero. */
function flatten(kind: 'and' | 'or', operands: readonly Formula[], unit: Formula, zero: Formula, out: Formula[]): boolean {
  for (let i = 0; i < operands.length; i++) {
    const f = operands[i];
    if (f === zero) return false;
    if (f === unit) continue;
    if (f.kind === kind) {
      if (!flatten(kind, (f as NAry).args, unit, zero, out)) return false;
    } else out.push(f);
  }
  return true;
}

export function and(...operands: readonly Formula[]): Formula {
  return nary('and', operands);
}
export function or(...operands: readonly Formula[]): Formula {
  return nary('or', operands);
}

function binary(kind: BinaryKind, left: Formula, right: Formula): Binary {
  return intern(`${kind}${left.id},${right.id}`, () => structuralRank(kind, [left.rank, right.rank]), (id, rank) => ({ id, rank, kind, left, right }));
}

export function implies(left: Formula, right: Formula): Formula {
  if (left === FALSE || right === TRUE) return TRUE;
  if (left === TRUE) return right;
  if (right === FALSE) return not(left);
  if (left === right) return TRUE;
  return binary('implies', left, right);
}
export function iff(left: Formula, right: Formula): Formula {
  if (left === right) return TRUE;
  if (left === TRUE) return right;
  if (right === TRUE) return left;
  if (left === FALSE) return not(right);
  if (right === FALSE) return not(left);
  return byRank(left, right) < 0 ? binary('iff', left, right) : binary('iff', right, left);
}
export function xor(left: Formula, right: Formula): Formula {
  return not(iff(left, right));
}

export function X(arg: Formula): Formula {
  if (arg === TRUE || arg === FALSE) return arg;
  return intern(`X${arg.id}`, () => structuralRank('X', [arg.rank]), (id, rank) => ({ id, rank, kind: 'X', arg }));
}
export function F(arg: Formula): Formula {
  if (arg === TRUE || arg === FALSE) return arg;
  if (arg.kind === 'F') return arg;
  return intern(`F${arg.id}`, () => structuralRank('F', [arg.rank]), (id, rank) => ({ id, rank, kind: 'F', arg }));
}
export function G(arg: Formula): Formula {
  if (arg === TRUE || arg === FALSE) return arg;
  if (arg.kind === 'G') return arg;
  return intern(`G${arg.id}`, () => structuralRank('G', [arg.rank]), (id, rank) => ({ id, rank, kind: 'G', arg }));
}
/** Strong until: right eventually holds, left holds until then. */
export function U(left: Formula, right: Formula): Formula {
  if (right === TRUE || right === FALSE || left === FALSE) return right;
  if (left === TRUE) return F(right);
  if (left === right) return left;
  return binary('U', left, right);
}
/** Weak until: left U right, or G left. */
export function W(left: Formula, right: Formula): Formula {
  if (right === TRUE || left === TRUE) return TRUE;
  if (left === FALSE) return right;
  if (right === FALSE) return G(left);
  if (left === right) return left;
  return binary('W', left, right);
}
/** Release: right holds until and including the step where left holds, or forever. */
export function R(left: Formula, right: Formula): Formula {
  if (right === TRUE || right === FALSE || left === TRUE) return right;
  if (left === FALSE) return G(right);
  if (left === right) return left;
  return binary('R', left, right);
}
/** Strong release: left R right, and left eventually holds. */
export function M(left: Formula, right: Formula): Formula {
  if (left === FALSE || right === FALSE) return FALSE;
  if (right === TRUE) return F(left);
  if (left === TRUE) return right;
  if (left === right) return left;
  return binary('M', left, right);
}

export const constructors = { and, or, not, implies, iff, xor, X, F, G, U, W, R, M } as const;

/** Rebuild `f` with new children; the constructors re-apply the cheap rewrites. */
export function rebuild(f: Formula, children: readonly Formula[]): Formula {
  switch (f.kind) {
    case 'true':
    case 'false':
    case 'ap':
      return f;
    case 'not':
      return not(children[0]);
    case 'and':
      return and(...children);
    case 'or':
      return or(...children);
    case 'X':
    case 'F':
    case 'G':
      return constructors[f.kind](children[0]);
    default:
      return constructors[f.kind](children[0], children[1]);
  }
}

/** Top-level conjuncts, with `G (a ∧ b)` split into `G a ∧ G b` (and `true` contributing none). */
export function conjuncts(f: Formula): Formula[] {
  if (f.kind === 'and') return f.args.flatMap(conjuncts);
  if (f.kind === 'G' && f.arg.kind === 'and') return f.arg.args.flatMap((a) => conjuncts(G(a)));
  if (f.kind === 'true') return [];
  return [f];
}

export function children(f: Formula): readonly Formula[] {
  switch (f.kind) {
    case 'true':
    case 'false':
    case 'ap':
      return [];
    case 'not':
    case 'X':
    case 'F':
    case 'G':
      return [f.arg];
    case 'and':
    case 'or':
      return f.args;
    default:
      return [f.left, f.right];
  }
}

/** Bottom-up map with memoisation by id (formulas are DAGs; this visits each node once). */
export function mapFormula(f: Formula, visit: (node: Formula, rebuilt: Formula) => Formula): Formula {
  const memo = new Map<number, Formula>();
  const go = (g: Formula): Formula => {
    const hit = memo.get(g.id);
    if (hit) return hit;
    const kids = children(g);
    const rebuilt = kids.length === 0 ? g : rebuild(g, kids.map(go));
    const out = visit(g, rebuilt);
    memo.set(g.id, out);
    return out;
  };
  return go(f);
}

export function atoms(f: Formula): Set<string> {
  const out = new Set<string>();
  const seen = new Set<number>();
  const stack: Formula[] = [f];
  while (stack.length > 0) {
    const g = stack.pop()!;
    if (seen.has(g.id)) continue;
    seen.add(g.id);
    if (g.kind === 'ap') out.add(g.name);
    else stack.push(...children(g));
  }
  return out;
}

/**
 * Propositional-ness of Boolean nodes by id: the simplifier asks it of every pair of operands it
 * compares, and walking a large guard each time made those comparisons quadratic in its size.
 */
const propositional = new Map<number, boolean>();

/** True when the formula has no temporal operator. */
export function isPropositional(f: Formula): boolean {
  switch (f.kind) {
    case 'true':
    case 'false':
    case 'ap':
      return true;
    case 'X':
    case 'F':
    case 'G':
    case 'U':
    case 'W':
    case 'R':
    case 'M':
      return false;
    default: {
      let known = propositional.get(f.id);
      if (known === undefined) {
        known = children(f).every(isPropositional);
        propositional.set(f.id, known);
      }
      return known;
    }
  }
}

/** Evaluate a propositional formula under a valuation (missing atoms are false). */
export function evalPropositional(f: Formula, value: (name: string) => boolean): boolean {
  switch (f.kind) {
    case 'true':
      return true;
    case 'false':
      return false;
    case 'ap':
      return value(f.name);
    case 'not':
      return !evalPropositional(f.arg, value);
    case 'and':
      return f.args.every((a) => evalPropositional(a, value));
    case 'or':
      return f.args.some((a) => evalPropositional(a, value));
    case 'implies':
      return !evalPropositional(f.left, value) || evalPropositional(f.right, value);
    case 'iff':
      return evalPropositional(f.left, value) === evalPropositional(f.right, value);
    case 'xor':
      return evalPropositional(f.left, value) !== evalPropositional(f.right, value);
    default:
      throw new Error(`evalPropositional: temporal operator ${f.kind} in a propositional context`);
  }
}

/** Number of distinct nodes (DAG size). */
export function size(f: Formula): number {
  const seen = new Set<number>();
  const stack: Formula[] = [f];
  while (stack.length > 0) {
    const g = stack.pop()!;
    if (seen.has(g.id)) continue;
    seen.add(g.id);
    stack.push(...children(g));
  }
  return seen.size;
}
