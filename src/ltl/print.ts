/**
 * Printing formulas in Spot's LTL syntax (what `ltlsynt -f` reads). Binary operators are always
 * parenthesised so the text means the same under Spot, TLSF and tsltools precedence alike.
 */
import type { Formula } from './formula.js';

const PLAIN_ATOM = /^[a-zA-Z_][a-zA-Z0-9_.]*$/;
/** Spot reads these words as operators/constants, so atoms spelled like them must be quoted. */
const RESERVED = new Set(['true', 'false', 'X', 'F', 'G', 'U', 'W', 'R', 'M', 'xor', 'V', 'O', 'H', 'S', 'Y', 'Z']);

export function spotAtom(name: string): string {
  // Spot may lex a leading F/G/X as an operator (`GFa` is `G F a`), so such atoms are always quoted.
  if (PLAIN_ATOM.test(name) && !RESERVED.has(name) && !/^[XFG]/.test(name)) return name;
  return `"${name.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

const BINARY_SYMBOL = { implies: '->', iff: '<->', xor: 'xor', U: 'U', W: 'W', R: 'R', M: 'M' } as const;

export function toSpot(f: Formula): string {
  switch (f.kind) {
    case 'true':
      return 'true';
    case 'false':
      return 'false';
    case 'ap':
      return spotAtom(f.name);
    case 'not':
      return `!${wrapUnary(f.arg)}`;
    case 'X':
    case 'F':
    case 'G':
      // A space (or parentheses) keeps `G F a` from lexing as the atom `GFa`.
      return isAtomic(f.arg) ? `${f.kind} ${toSpot(f.arg)}` : `${f.kind}${wrapUnary(f.arg)}`;
    case 'and':
      return f.args.map(wrapOperand).join(' & ');
    case 'or':
      return f.args.map(wrapOperand).join(' | ');
    default:
      return `${wrapOperand(f.left)} ${BINARY_SYMBOL[f.kind]} ${wrapOperand(f.right)}`;
  }
}

function isAtomic(f: Formula): boolean {
  return f.kind === 'true' || f.kind === 'false' || f.kind === 'ap';
}
function wrapUnary(f: Formula): string {
  const s = toSpot(f);
  return isAtomic(f) ? s : `(${s})`;
}
function wrapOperand(f: Formula): string {
  const s = toSpot(f);
  return isAtomic(f) || f.kind === 'not' ? s : `(${s})`;
}
