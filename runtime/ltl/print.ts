/**
 * Printing plain LTL syntax trees in Spot's syntax, with only the parentheses Spot's precedence
 * needs, so `parseLtl(printLtl(n))` rebuilds `n` (up to flattening of nested `&`/`|`).
 */
import type { LtlNode } from './syntax.js';

/** Binding strength, loosest = 1; prefix operators and atoms bind tightest. */
function strength(n: LtlNode): number {
  switch (n.op) {
    case '->':
    case '<->':
      return 1;
    case '|':
      return 2;
    case 'xor':
      return 3;
    case '&':
      return 4;
    case 'U':
    case 'W':
    case 'R':
    case 'M':
      return 5;
    default:
      return 6;
  }
}

const PLAIN_ATOM = /^[a-zA-Z_][a-zA-Z0-9_.]*$/;
const WORDS = new Set(['true', 'false', 'xor', 'X', 'F', 'G', 'U', 'W', 'R', 'M', 'V']);

/** An atom as Spot reads it back: quoted when it would otherwise lex as operators or constants. */
export function printAtom(name: string): string {
  // Atoms that start with F, G or X are quoted too: Spot splits `GFa` into `G F a`.
  if (PLAIN_ATOM.test(name) && !WORDS.has(name) && !/^[FGX]/.test(name)) return name;
  return `"${name.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

export function printLtl(node: LtlNode): string {
  switch (node.op) {
    case 'true':
    case 'false':
      return node.op;
    case 'ap':
      return printAtom(node.name);
    case '!':
      return `!${operand(node.arg, 6)}`;
    case 'X':
    case 'F':
    case 'G':
      return `${node.op} ${operand(node.arg, 6)}`;
    case '&':
    case '|':
      return node.args.map((a) => operand(a, strength(node) + 1)).join(` ${node.op} `);
    default: {
      const s = strength(node);
      if (node.op === 'xor') return `${operand(node.left, s)} xor ${operand(node.right, s + 1)}`;
      // Right-associative: a chain on the right needs no parentheses, one on the left does.
      return `${operand(node.left, s + 1)} ${node.op} ${operand(node.right, s)}`;
    }
  }
}

function operand(n: LtlNode, minStrength: number): string {
  const s = printLtl(n);
  return strength(n) >= minStrength ? s : `(${s})`;
}
