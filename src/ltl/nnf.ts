/**
 * Negation normal form: negations only on atoms; implies/iff/xor expanded; every temporal
 * operator kept with its dual (U/R, W/M, F/G, X self-dual) so no formula grows beyond the iff
 * expansion. The automaton construction and the simplifier work on NNF only.
 */
import { type Formula, and, F, G, M, not, or, R, U, W, X } from './formula.js';

const memo = new Map<number, Formula>();
const memoNeg = new Map<number, Formula>();

export function toNnf(f: Formula): Formula {
  return pos(f);
}

function pos(f: Formula): Formula {
  const hit = memo.get(f.id);
  if (hit) return hit;
  let r: Formula;
  switch (f.kind) {
    case 'true':
    case 'false':
    case 'ap':
      r = f;
      break;
    case 'not':
      r = neg(f.arg);
      break;
    case 'and':
      r = and(...f.args.map(pos));
      break;
    case 'or':
      r = or(...f.args.map(pos));
      break;
    case 'implies':
      r = or(neg(f.left), pos(f.right));
      break;
    case 'iff':
      r = or(and(pos(f.left), pos(f.right)), and(neg(f.left), neg(f.right)));
      break;
    case 'xor':
      r = or(and(pos(f.left), neg(f.right)), and(neg(f.left), pos(f.right)));
      break;
    case 'X':
      r = X(pos(f.arg));
      break;
    case 'F':
      r = F(pos(f.arg));
      break;
    case 'G':
      r = G(pos(f.arg));
      break;
    case 'U':
      r = U(pos(f.left), pos(f.right));
      break;
    case 'W':
      r = W(pos(f.left), pos(f.right));
      break;
    case 'R':
      r = R(pos(f.left), pos(f.right));
      break;
    case 'M':
      r = M(pos(f.left), pos(f.right));
      break;
  }
  memo.set(f.id, r);
  return r;
}

/** NNF of ¬f. */
function neg(f: Formula): Formula {
  const hit = memoNeg.get(f.id);
  if (hit) return hit;
  let r: Formula;
  switch (f.kind) {
    case 'true':
    case 'false':
    case 'ap':
      r = not(f);
      break;
    case 'not':
      r = pos(f.arg);
      break;
    case 'and':
      r = or(...f.args.map(neg));
      break;
    case 'or':
      r = and(...f.args.map(neg));
      break;
    case 'implies':
      r = and(pos(f.left), neg(f.right));
      break;
    case 'iff':
      r = or(and(pos(f.left), neg(f.right)), and(neg(f.left), pos(f.right)));
      break;
    case 'xor':
      r = or(and(pos(f.left), pos(f.right)), and(neg(f.left), neg(f.right)));
      break;
    case 'X':
      r = X(neg(f.arg));
      break;
    case 'F':
      r = G(neg(f.arg));
      break;
    case 'G':
      r = F(neg(f.arg));
      break;
    case 'U':
      r = R(neg(f.left), neg(f.right));
      break;
    case 'R':
      r = U(neg(f.left), neg(f.right));
      break;
    // W and M are each other's duals: ¬(a W b) ≡ ¬a M ¬b, ¬(a M b) ≡ ¬a W ¬b.
    case 'W':
      r = M(neg(f.left), neg(f.right));
      break;
    case 'M':
      r = W(neg(f.left), neg(f.right));
      break;
  }
  memoNeg.set(f.id, r);
  return r;
}

/** True when `f` is in negation normal form (what `toNnf` produces). */
export function isNnf(f: Formula): boolean {
  switch (f.kind) {
    case 'true':
    case 'false':
    case 'ap':
      return true;
    case 'not':
      return f.arg.kind === 'ap';
    case 'implies':
    case 'iff':
    case 'xor':
      return false;
    case 'and':
    case 'or':
      return f.args.every(isNnf);
    case 'X':
    case 'F':
    case 'G':
      return isNnf(f.arg);
    default:
      return isNnf(f.left) && isNnf(f.right);
  }
}
