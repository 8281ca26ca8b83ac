import type { LtlNode } from '../../runtime/ltl/syntax.js';

/** Direct finite-trace (LTLf) semantics, written from the definitions: the test's oracle. */
export function holds(f: LtlNode, w: readonly (readonly string[])[], i = 0): boolean {
  const n = w.length;
  switch (f.op) {
    case 'true':
      return true;
    case 'false':
      return false;
    case 'ap':
      return i < n && w[i].includes(f.name);
    case '!':
      return !holds(f.arg, w, i);
    case '&':
      return f.args.every((a) => holds(a, w, i));
    case '|':
      return f.args.some((a) => holds(a, w, i));
    case 'X':
      return i + 1 < n && holds(f.arg, w, i + 1);
    case 'F':
      for (let j = i; j < n; j++) if (holds(f.arg, w, j)) return true;
      return false;
    case 'G':
      for (let j = i; j < n; j++) if (!holds(f.arg, w, j)) return false;
      return true;
    case '->':
      return !holds(f.left, w, i) || holds(f.right, w, i);
    case '<->':
      return holds(f.left, w, i) === holds(f.right, w, i);
    case 'xor':
      return holds(f.left, w, i) !== holds(f.right, w, i);
    case 'U':
    case 'W':
      for (let j = i; j < n; j++) {
        if (holds(f.right, w, j)) return true;
        if (!holds(f.left, w, j)) return false;
      }
      return f.op === 'W';
    case 'R':
    case 'M':
      for (let j = i; j < n; j++) {
        if (!holds(f.right, w, j)) return false;
        if (holds(f.left, w, j)) return true;
      }
      return f.op === 'R';
  }
}

