/**
 * Printing plain LTL syntax trees in Spot's syntax, with only the parentheses Spot's precedence
 * needs, so `parseLtl(printLtl(n))` rebuilds `n` (up to flattening of nested `&`/`|`) and Spot
 * reads the text as the same formula (checked against recorded `ltlfilt` output in
 * test/conformance/ltl-spot.test.ts). The walk uses an explicit stack: trees of any depth print.
 */
import type { LtlNode } from './syntax.js';

/** Binding strength, loosest = 1; prefix operators and atoms bind tightest. */
function strength(n: LtlNode): number {
  switch (n.op) {
    case '->':
    case '<->':
      return 1;
    case '|':
      return n.args.length === 0 ? 6 : 2;
    case 'xor':
      return 3;
    case '&':
      return n.args.length === 0 ? 6 : 4;
    case 'U':
    case 'W':
    case 'R':
    case 'M':
      return 5;
    default:
      return 6;
  }
}

/**
 * Atoms printed bare: Spot's atom rule right after an operator or `(` (where the printer puts
 * them), minus what it lexes as operators or constants. Spot would also read `F1` or `X1a` bare,
 * but, like Spot's own printer, we quote every atom starting with F, G or X: `GFa` is `G F a`, and
 * other readers of this syntax split such names too.
 */
const BARE_ATOM = /^[a-zA-EH-WYZ_.][a-zA-Z0-9_.]*$/;
const KEYWORDS = new Set(['xor', 'first_match', 'U', 'R', 'V', 'W', 'M']);

/** An atom as Spot reads it back: bare when its scanner would read the bare name, else quoted. */
export function printAtom(name: string): string {
  if (BARE_ATOM.test(name) && !KEYWORDS.has(name) && !/^(?:true|false)$/i.test(name)) return name;
  return quoteAtom(name);
}

/**
 * `name` in double quotes. Inside quotes Spot drops a run of white space that starts where its
 * scanner resumes (the opening quote, an escape) unless more text follows on that line, reads
 * `/*` there as a comment, and cannot hold a line feed at all; escapes (`\ `, `\/`) avoid the
 * first two, and the last is refused rather than printed as a different atom.
 */
export function quoteAtom(name: string): string {
  if (name.includes('\n')) throw new RangeError(`atom name ${JSON.stringify(name)} contains a line feed, which Spot's syntax cannot express`);
  let out = '"';
  let i = 0;
  while (i < name.length) {
    const c = name[i];
    if (c === '\\' || c === '"' || c === '\r') {
      out += `\\${c}`;
      i++;
      continue;
    }
    // A run Spot reads in one go, starting at a scanner boundary.
    let end = i;
    while (end < name.length && !'\\"\r'.includes(name[end])) end++;
    const run = name.slice(i, end);
    if (/^[ \t]+$/.test(run) || /^\/\*+$/.test(run)) {
      out += `\\${c}`; // escape one character; the rest of the run starts a new boundary
      i++;
      continue;
    }
    out += run;
    i = end;
  }
  return `${out}"`;
}

type Item = string | { readonly n: LtlNode; readonly min: number };

export function printLtl(node: LtlNode): string {
  const out: string[] = [];
  const stack: Item[] = [{ n: node, min: 0 }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item === 'string') {
      out.push(item);
      continue;
    }
    const n = item.n;
    const s = strength(n);
    if (s < item.min) {
      out.push('(');
      stack.push(')', { n, min: 0 });
      continue;
    }
    switch (n.op) {
      case 'true':
      case 'false':
        out.push(n.op);
        break;
      case 'ap':
        out.push(printAtom(n.name));
        break;
      case '!':
        out.push('!');
        stack.push({ n: n.arg, min: 6 });
        break;
      case 'X':
      case 'F':
      case 'G':
        out.push(`${n.op} `);
        stack.push({ n: n.arg, min: 6 });
        break;
      case '&':
      case '|':
        if (n.args.length === 0) out.push(n.op === '&' ? 'true' : 'false');
        else if (n.args.length === 1) stack.push({ n: n.args[0], min: item.min });
        else {
          for (let k = n.args.length - 1; k >= 0; k--) {
            stack.push({ n: n.args[k], min: s + 1 });
            if (k > 0) stack.push(` ${n.op} `);
          }
        }
        break;
      case 'xor':
        // Left-assoc: a chain on the left needs no parentheses, one on the right does.
        stack.push({ n: n.right, min: s + 1 }, ' xor ', { n: n.left, min: s });
        break;
      default:
        // Right-assoc: a chain on the right needs no parentheses, one on the left does.
        stack.push({ n: n.right, min: s }, ` ${n.op} `, { n: n.left, min: s + 1 });
    }
  }
  return out.join('');
}
