/**
 * Printing formulas in Spot's LTL syntax (what `ltlsynt -f` reads). Binary operators are always
 * parenthesised so the text means the same under Spot, TLSF and tsltools precedence alike.
 */
import { printAtom, quoteAtom } from '../../runtime/ltl/print.js';
import type { Formula } from './formula.js';

/** Past-time operator letters of other LTL dialects: quoted too, so the text travels safely. */
const PAST = new Set(['O', 'H', 'S', 'Y', 'Z']);

/** An atom as Spot's scanner reads it back (runtime/ltl/print.ts owns the rule). */
export function spotAtom(name: string): string {
  return PAST.has(name) ? quoteAtom(name) : printAtom(name);
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
