// A cheap normal form for deciding that two formulas are the same up to how a front end wrote
// them: negation normal form, then X pushed into ∧/∨, G into ∧ and F into ∨. syfco writes
// `G (a ∧ b)` for two invariants, `X (a ∨ X a)` for F[0:1] a and pushes negations inwards where
// tslc keeps `¬(a ∧ b)`; equal normal forms mean equal formulas (every rewrite is an identity).
// Unequal ones prove nothing: that is for the equivalence check. Iterative (no recursion on depth).
import { and, F, type Formula, G, iff, implies, M, not, or, R, U, W, X, xor } from '../../src/ltl/formula.js';
import { toNnf } from '../../src/ltl/nnf.js';

export function normalForm(root: Formula): Formula {
  const start = toNnf(root);
  const done = new Map<number, Formula>();
  const todo: Formula[] = [start];
  while (todo.length > 0) {
    const f = todo[todo.length - 1];
    if (done.has(f.id)) {
      todo.pop();
      continue;
    }
    const kids = children(f);
    let ready = true;
    for (const k of kids) {
      if (!done.has(k.id)) {
        todo.push(k);
        ready = false;
      }
    }
    if (!ready) continue;
    todo.pop();
    const m = (k: Formula) => done.get(k.id)!;
    let r: Formula;
    switch (f.kind) {
      case 'and':
        r = and(...f.args.map(m));
        break;
      case 'or':
        r = or(...f.args.map(m));
        break;
      case 'not':
        r = not(m(f.arg));
        break;
      case 'X': {
        const a = m(f.arg);
        r = a.kind === 'and' ? and(...a.args.map(X)) : a.kind === 'or' ? or(...a.args.map(X)) : X(a);
        break;
      }
      case 'G': {
        const a = m(f.arg);
        r = a.kind === 'and' ? and(...a.args.map(G)) : G(a);
        break;
      }
      case 'F': {
        const a = m(f.arg);
        r = a.kind === 'or' ? or(...a.args.map(F)) : F(a);
        break;
      }
      case 'implies':
        r = implies(m(f.left), m(f.right));
        break;
      case 'iff':
        r = iff(m(f.left), m(f.right));
        break;
      case 'U':
        r = U(m(f.left), m(f.right));
        break;
      case 'W':
        r = W(m(f.left), m(f.right));
        break;
      case 'R':
        r = R(m(f.left), m(f.right));
        break;
      case 'M':
        r = M(m(f.left), m(f.right));
        break;
      case 'xor':
        r = xor(m(f.left), m(f.right));
        break;
      default:
        r = f;
    }
    done.set(f.id, r);
  }
  return done.get(start.id)!;
}

function children(f: Formula): readonly Formula[] {
  switch (f.kind) {
    case 'and':
    case 'or':
      return f.args;
    case 'not':
    case 'X':
    case 'F':
    case 'G':
      return [f.arg];
    case 'true':
    case 'false':
    case 'ap':
      return [];
    default:
      return [f.left, f.right];
  }
}
