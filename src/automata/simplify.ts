/**
 * Cheap, equivalence-preserving LTL rewrites in the spirit of Spot's basic simplifier:
 * operator-specific identities (F G F a ≡ G F a, a U F b ≡ F b, G(a R b) ≡ G b, …), merging
 * of G/F/X across ∧/∨, and pruning of conjuncts/disjuncts by *syntactic implication*
 * (Somenzi–Bloem style rules: sound, incomplete, never expensive). Propositional implication is
 * decided exactly with a BDD. Output is in negation normal form.
 */
import { BDD_FALSE, BDD_TRUE, BddManager } from './bdd.js';
import { type Formula, and, children, F, FALSE, G, isPropositional, mapFormula, M, not, or, R, TRUE, U, W, X } from '../ltl/formula.js';
import { toNnf } from '../ltl/nnf.js';

const PAIR = 2 ** 26;
const impliesMemo = new Map<number, boolean>();
const IMPLIES_MEMO_LIMIT = 4_000_000;
/** Private BDD manager for propositional implication tests (guards only; never exported). */
const bdd = new BddManager();
/** The running `simplify` call's poll (`SimplifyOptions.poll`), also called by every implication test. */
let activePoll: (() => void) | undefined;

/**
 * Sound but incomplete test of `d ⇒ c` (both NNF). `false` means "not proven", not "no".
 */
export function syntacticImplies(d: Formula, c: Formula): boolean {
  // A junction of thousands of operands is millions of tests, each cheap: polled one by one.
  activePoll?.();
  if (d === c || c === TRUE || d === FALSE) return true;
  if (c === FALSE || d === TRUE) return false;
  // Formulas over disjoint propositions imply each other only when d is unsatisfiable or c valid,
  // which is decided exactly for Boolean formulas and left unproven otherwise (still sound). Most
  // operand pairs in a spec-sized conjunction are of this kind.
  if ((atomSignature(d) & atomSignature(c)) === 0)
    return (isPropositional(c) && bdd.fromFormula(c) === BDD_TRUE) || (isPropositional(d) && bdd.fromFormula(d) === BDD_FALSE);
  const key = d.id * PAIR + c.id;
  const hit = impliesMemo.get(key);
  if (hit !== undefined) return hit;
  // Pairs of formulas: a long-lived process (a batch, watch mode) filled this up to V8's limit of
  // 2^24 Map entries, after which every translation failed; start afresh long before that.
  if (impliesMemo.size > IMPLIES_MEMO_LIMIT) impliesMemo.clear();
  impliesMemo.set(key, false); // cycles cannot arise (operands shrink), but be safe
  let r: boolean;
  try {
    r = impliesUncached(d, c);
  } catch (err) {
    // Stopped by the caller's poll: leave no unfinished answer behind, so the same formula is
    // simplified the same way by the next call that has the time.
    impliesMemo.delete(key);
    throw err;
  }
  impliesMemo.set(key, r);
  return r;
}

const signatures = new Map<number, number>();
/**
 * 31 bits, one per class of proposition names (by a string hash): formulas whose signatures share
 * no bit certainly share no proposition.
 */
function atomSignature(f: Formula): number {
  if (f.kind === 'ap') return 1 << (nameHash(f.name) % 31);
  let sig = signatures.get(f.id);
  if (sig === undefined) {
    sig = 0;
    for (const child of children(f)) sig |= atomSignature(child);
    signatures.set(f.id, sig);
  }
  return sig;
}

function nameHash(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function impliesUncached(d: Formula, c: Formula): boolean {
  if (isPropositional(d) && isPropositional(c)) return bdd.implies(bdd.fromFormula(d), bdd.fromFormula(c));
  // Decompose the Boolean structure first.
  if (c.kind === 'and') return c.args.every((a) => syntacticImplies(d, a));
  if (d.kind === 'or') return d.args.every((a) => syntacticImplies(a, c));
  if (c.kind === 'or' && c.args.some((a) => syntacticImplies(d, a))) return true;
  if (d.kind === 'and' && d.args.some((a) => syntacticImplies(a, c))) return true;
  // What d guarantees right now: G y ⇒ y; y U z ⇒ y ∨ z; y R z ⇒ z.
  switch (d.kind) {
    case 'G':
      if (syntacticImplies(d.arg, c)) return true;
      break;
    case 'U':
    case 'W':
      if (syntacticImplies(d.left, c) && syntacticImplies(d.right, c)) return true;
      break;
    case 'R':
    case 'M':
      if (syntacticImplies(d.right, c)) return true;
      break;
  }
  switch (c.kind) {
    case 'F': {
      const x = c.arg;
      if (syntacticImplies(d, x)) return true;
      if (d.kind === 'F' || d.kind === 'X') return syntacticImplies(d.arg, c);
      if (d.kind === 'G') return syntacticImplies(d.arg, c);
      if (d.kind === 'U') return syntacticImplies(d.right, c);
      if (d.kind === 'M') return syntacticImplies(and(d.left, d.right), c);
      return false;
    }
    case 'G':
      if (d.kind === 'G') return syntacticImplies(d.arg, c.arg);
      if (d.kind === 'R' || d.kind === 'M') return d.left === FALSE && syntacticImplies(d.right, c.arg);
      return false;
    case 'X':
      if (d.kind === 'X') return syntacticImplies(d.arg, c.arg);
      if (d.kind === 'G') return syntacticImplies(d, c.arg);
      return false;
    case 'U':
      if (syntacticImplies(d, c.right)) return true;
      if (d.kind === 'U') return syntacticImplies(d.left, c.left) && syntacticImplies(d.right, c.right);
      if (d.kind === 'F') return c.left === TRUE && syntacticImplies(d.arg, c.right);
      return false;
    case 'W':
      if (syntacticImplies(d, c.right)) return true;
      if (d.kind === 'U' || d.kind === 'W') return syntacticImplies(d.left, c.left) && syntacticImplies(d.right, c.right);
      if (d.kind === 'G') return syntacticImplies(d.arg, c.left);
      return false;
    case 'R':
      if (syntacticImplies(d, c.left) && syntacticImplies(d, c.right)) return true;
      if (d.kind === 'R' || d.kind === 'M') return syntacticImplies(d.left, c.left) && syntacticImplies(d.right, c.right);
      if (d.kind === 'G') return syntacticImplies(d.arg, c.right);
      return false;
    case 'M':
      if (syntacticImplies(d, c.left) && syntacticImplies(d, c.right)) return true;
      if (d.kind === 'M') return syntacticImplies(d.left, c.left) && syntacticImplies(d.right, c.right);
      return false;
    default:
      return false;
  }
}

/** Formulas of the shape G F x or F G x: invariant under a leading F or G. */
function isSuspendable(f: Formula): boolean {
  return (f.kind === 'G' && f.arg.kind === 'F') || (f.kind === 'F' && f.arg.kind === 'G');
}

/**
 * Etessami and Holzmann's syntactic classes, as Spot's simplifier uses them. A *purely eventual*
 * formula e satisfies e ≡ F e (wherever it holds later it holds now), so `x U e` and `F e` can be
 * replaced by e; a *purely universal* u satisfies u ≡ G u (once it holds it holds forever), so
 * `x R u` and `G u` can be replaced by u. Read off the syntax, each class is closed under ∧, ∨
 * and X, and contains:
 * - eventual: F x; G e (from some point on e holds, and being eventual at every earlier point
 *   too); x U e (≡ e); e M e' (≡ e' U (e ∧ e'), and e ∧ e' is eventual);
 * - universal, dually: G x; F u; x R u (≡ u); u W u' (≡ u' R (u ∨ u')).
 * The special cases `x U F y → F y`, `F G F y → G F y` and `x R G y → G y` come out of these;
 * so do `x U (F a ∨ G F b)`, `x U X F a` and `x R (G a ∨ G b)`, whose left operand, however large,
 * is dead weight (randomly drawn formulas are full of them).
 */
interface SyntacticClass {
  /** The operator whose every formula is in the class (F, G). */
  readonly anchor: 'F' | 'G';
  /** The unary operator that keeps the class besides X (G for eventual, F for universal). */
  readonly lift: 'F' | 'G';
  /** The binary operator in the class when its right operand is (U, R). */
  readonly right: 'U' | 'R';
  /** The binary operator in the class when both operands are (M, W). */
  readonly both: 'M' | 'W';
  /** Answers by formula id (formulas are hash-consed; an answer depends on the formula alone). */
  readonly memo: Map<number, boolean>;
}
const EVENTUAL: SyntacticClass = { anchor: 'F', lift: 'G', right: 'U', both: 'M', memo: new Map() };
const UNIVERSAL: SyntacticClass = { anchor: 'G', lift: 'F', right: 'R', both: 'W', memo: new Map() };

function inClass(f: Formula, c: SyntacticClass): boolean {
  let r = c.memo.get(f.id);
  if (r === undefined) {
    if (f.kind === 'true' || f.kind === 'false' || f.kind === c.anchor) r = true;
    else if (f.kind === 'X' || f.kind === c.lift) r = inClass(f.arg, c);
    else if (f.kind === 'and' || f.kind === 'or') r = f.args.every((a) => inClass(a, c));
    else if (f.kind === c.right) r = inClass(f.right, c);
    else if (f.kind === c.both) r = inClass(f.left, c) && inClass(f.right, c);
    else r = false;
    c.memo.set(f.id, r);
  }
  return r;
}
const isEventual = (f: Formula): boolean => inClass(f, EVENTUAL);
const isUniversal = (f: Formula): boolean => inClass(f, UNIVERSAL);

export interface SimplifyOptions {
  /**
   * Compare the operands of every ∧/∨ pairwise by syntactic implication: drop implied operands,
   * turn a ∧ ¬a into false (default true). Quadratic in a junction's width: a whole negated spec
   * is one wide junction of its assumptions and guarantees, which the independent checker
   * simplifies without it (on the corpus it never made the checker's product larger, and it
   * took up to half of a check's solving time).
   */
  readonly pairwise?: boolean;
  /**
   * Called once per rewritten node and from the BDD work of implication tests (every 256th new
   * node); it may throw (a translation's deadline) to abandon the simplification. The pairwise
   * tests on a whole spec can cost seconds to minutes (propositional implications between large
   * invariants: 17 to 20 of one spec's guarantees took 3 to 23 s), so a caller with a deadline
   * must be able to stop them. Results are memoized only once complete, so an abandoned call
   * changes no later one.
   */
  readonly poll?: () => void;
}

/**
 * Results of `simplify` and of one `rewrite`, by formula id, per mode. Formulas are hash-consed
 * and both functions are pure, so a spec's formulas, simplified again by every translation and by
 * the independent check, are rewritten once. Entries are stored only once complete.
 */
interface Memo {
  readonly simplified: Map<number, Formula>;
  readonly rewritten: Map<number, Formula>;
}
const withPairs: Memo = { simplified: new Map(), rewritten: new Map() };
const withoutPairs: Memo = { simplified: new Map(), rewritten: new Map() };

export function simplify(f: Formula, options: SimplifyOptions = {}): Formula {
  const pairwise = options.pairwise ?? true;
  const memo = pairwise ? withPairs : withoutPairs;
  const known = memo.simplified.get(f.id);
  if (known) return known;
  const rewriteOnce = (node: Formula): Formula => {
    let r = memo.rewritten.get(node.id);
    if (r === undefined) {
      r = rewrite(node, pairwise);
      memo.rewritten.set(node.id, r);
    }
    return r;
  };
  // Iterate to a fixpoint: one rewrite can enable another higher up (bounded: rewrites shrink).
  const poll = options.poll;
  const outer = { bdd: bdd.poll, active: activePoll };
  bdd.poll = poll;
  activePoll = poll;
  try {
    let cur = toNnf(f);
    for (let round = 0; round < 8; round++) {
      const next = mapFormula(cur, (_orig, node) => {
        poll?.();
        return rewriteOnce(node);
      });
      if (next === cur) break;
      cur = next;
    }
    memo.simplified.set(f.id, cur);
    return cur;
  } finally {
    bdd.poll = outer.bdd;
    activePoll = outer.active;
  }
}

function rewrite(f: Formula, pairwise: boolean): Formula {
  switch (f.kind) {
    case 'and':
      return simplifyJunction(f.args, 'and', pairwise);
    case 'or':
      return simplifyJunction(f.args, 'or', pairwise);
    case 'F': {
      const x = f.arg;
      if (isEventual(x)) return x;
      if (x.kind === 'U') return F(x.right);
      if (x.kind === 'M') return F(and(x.left, x.right));
      if (x.kind === 'X') return X(F(x.arg));
      return f;
    }
    case 'G': {
      const x = f.arg;
      if (isUniversal(x)) return x;
      if (x.kind === 'R') return G(x.right);
      if (x.kind === 'W') return G(or(x.left, x.right));
      if (x.kind === 'X') return X(G(x.arg));
      return f;
    }
    case 'U':
      // The class test first: a memoized walk, where the implication test may compare large operands.
      if (isEventual(f.right) || syntacticImplies(f.left, f.right)) return f.right;
      return f;
    case 'W':
      if (syntacticImplies(f.left, f.right)) return f.right;
      return f;
    case 'R':
      if (isUniversal(f.right) || syntacticImplies(f.right, f.left)) return f.right;
      return f;
    case 'M':
      if (syntacticImplies(f.right, f.left)) return f.right;
      return f;
    default:
      return f;
  }
}

function simplifyJunction(args: readonly Formula[], kind: 'and' | 'or', pairwise: boolean): Formula {
  // G a ∧ G b ≡ G(a ∧ b), X a ∧ X b ≡ X(a ∧ b); dually F and X under ∨.
  const merged = kind === 'and' ? 'G' : 'F';
  const mergeable: Formula[] = [];
  const nexts: Formula[] = [];
  const rest: Formula[] = [];
  for (const a of args) {
    if (a.kind === merged && !isSuspendable(a)) mergeable.push(a.arg);
    else if (a.kind === 'X') nexts.push(a.arg);
    else rest.push(a);
  }
  const join = kind === 'and' ? and : or;
  const parts = [...rest];
  if (mergeable.length > 1) parts.push(kind === 'and' ? G(and(...mergeable)) : F(or(...mergeable)));
  else if (mergeable.length === 1) parts.push(kind === 'and' ? G(mergeable[0]) : F(mergeable[0]));
  if (nexts.length > 1) parts.push(X(join(...nexts)));
  else if (nexts.length === 1) parts.push(X(nexts[0]));
  if (!pairwise) return join(...parts);
  // Prune: in ∧ drop what another operand implies; in ∨ drop what implies another operand.
  const kept: Formula[] = [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    const redundant = parts.some((q, j) => {
      if (j === i) return false;
      if (kept.includes(q) === false && j < i) return false; // already dropped
      const dominated = kind === 'and' ? syntacticImplies(q, p) : syntacticImplies(p, q);
      if (!dominated) return false;
      // Mutually implying operands: keep the first one only.
      const mutual = kind === 'and' ? syntacticImplies(p, q) : syntacticImplies(q, p);
      return !mutual || j < i;
    });
    if (!redundant) kept.push(p);
  }
  // a ∧ b with a ⇒ ¬b is false; a ∨ b with ¬a ⇒ b is true.
  for (let i = 0; i < kept.length; i++)
    for (let j = i + 1; j < kept.length; j++) {
      if (kind === 'and' && syntacticImplies(kept[i], toNnf(not(kept[j])))) return FALSE;
      if (kind === 'or' && syntacticImplies(toNnf(not(kept[i])), kept[j])) return TRUE;
    }
  return join(...kept);
}
