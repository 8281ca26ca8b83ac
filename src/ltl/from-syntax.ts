/**
 * Plain LTL syntax (runtime/ltl/syntax.ts) → hash-consed formulas. The constructors apply their
 * cheap rewrites, so `fromSyntax` of `a & true` is just `a`.
 *
 * The walk is post-order on an explicit stack and memoised by node: trees handed in by library
 * users may be deeper than the parser allows, and `F[n..m]` sugar shares sub-trees, which are
 * converted once.
 */
import type { LtlNode } from '../../runtime/ltl/syntax.js';
import { type Formula, and, ap, F, FALSE, G, iff, implies, M, not, or, R, TRUE, U, W, X, xor } from './formula.js';

function childrenOf(node: LtlNode): readonly LtlNode[] {
  switch (node.op) {
    case 'true':
    case 'false':
    case 'ap':
      return [];
    case '!':
    case 'X':
    case 'F':
    case 'G':
      return [node.arg];
    case '&':
    case '|':
      return node.args;
    default:
      return [node.left, node.right];
  }
}

function build(node: LtlNode, kids: readonly Formula[]): Formula {
  switch (node.op) {
    case 'true':
      return TRUE;
    case 'false':
      return FALSE;
    case 'ap':
      return ap(node.name);
    case '!':
      return not(kids[0]);
    case 'X':
      return X(kids[0]);
    case 'F':
      return F(kids[0]);
    case 'G':
      return G(kids[0]);
    case '&':
      return and(...kids);
    case '|':
      return or(...kids);
    case '->':
      return implies(kids[0], kids[1]);
    case '<->':
      return iff(kids[0], kids[1]);
    case 'xor':
      return xor(kids[0], kids[1]);
    case 'U':
      return U(kids[0], kids[1]);
    case 'W':
      return W(kids[0], kids[1]);
    case 'R':
      return R(kids[0], kids[1]);
    case 'M':
      return M(kids[0], kids[1]);
  }
}

export function fromSyntax(root: LtlNode): Formula {
  const done = new Map<LtlNode, Formula>();
  // Nodes whose children are being converted: meeting one again below itself means a cycle.
  const open = new Set<LtlNode>();
  const stack: LtlNode[] = [root];
  while (stack.length > 0) {
    const node = stack[stack.length - 1];
    if (done.has(node)) {
      stack.pop();
      continue;
    }
    const kids = childrenOf(node);
    let ready = true;
    for (let k = kids.length - 1; k >= 0; k--) {
      if (!done.has(kids[k])) {
        if (open.has(kids[k])) throw new Error('fromSyntax: the LTL syntax tree contains a cycle');
        ready = false;
        stack.push(kids[k]);
      }
    }
    if (!ready) {
      open.add(node);
      continue;
    }
    open.delete(node);
    stack.pop();
    done.set(node, build(node, kids.map((k) => done.get(k)!)));
  }
  return done.get(root)!;
}
