/**
 * The atomic propositions a formula mentions, collected without recursion (rule formulas may nest
 * thousands deep). One walker for the monitors, shields, audits, the English translator and the CLI.
 */
import type { LtlNode } from './syntax.js';

/** Adds every atom of `formula` to `out` (a fresh set by default) and returns it. */
export function ltlAtoms(formula: LtlNode, out: Set<string> = new Set()): Set<string> {
  const stack: LtlNode[] = [formula];
  while (stack.length > 0) {
    const n = stack.pop()!;
    switch (n.op) {
      case 'ap':
        out.add(n.name);
        break;
      case 'true':
      case 'false':
        break;
      case '!':
      case 'X':
      case 'F':
      case 'G':
        stack.push(n.arg);
        break;
      case '&':
      case '|':
        for (const a of n.args) stack.push(a);
        break;
      default:
        stack.push(n.left, n.right);
    }
  }
  return out;
}
