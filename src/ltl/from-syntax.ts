/**
 * Plain LTL syntax (runtime/ltl/syntax.ts) → hash-consed formulas. The constructors apply their
 * cheap rewrites, so `fromSyntax` of `a & true` is just `a`.
 */
import type { LtlNode } from '../../runtime/ltl/syntax.js';
import { type Formula, and, ap, F, FALSE, G, iff, implies, M, not, or, R, TRUE, U, W, X, xor } from './formula.js';

export function fromSyntax(node: LtlNode): Formula {
  switch (node.op) {
    case 'true':
      return TRUE;
    case 'false':
      return FALSE;
    case 'ap':
      return ap(node.name);
    case '!':
      return not(fromSyntax(node.arg));
    case 'X':
      return X(fromSyntax(node.arg));
    case 'F':
      return F(fromSyntax(node.arg));
    case 'G':
      return G(fromSyntax(node.arg));
    case '&':
      return and(...node.args.map(fromSyntax));
    case '|':
      return or(...node.args.map(fromSyntax));
    case '->':
      return implies(fromSyntax(node.left), fromSyntax(node.right));
    case '<->':
      return iff(fromSyntax(node.left), fromSyntax(node.right));
    case 'xor':
      return xor(fromSyntax(node.left), fromSyntax(node.right));
    case 'U':
      return U(fromSyntax(node.left), fromSyntax(node.right));
    case 'W':
      return W(fromSyntax(node.left), fromSyntax(node.right));
    case 'R':
      return R(fromSyntax(node.left), fromSyntax(node.right));
    case 'M':
      return M(fromSyntax(node.left), fromSyntax(node.right));
  }
}
