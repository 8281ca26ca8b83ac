// Shared test helpers: a seeded RNG, random formulas and traces, and reference LTL semantics
// (on lasso words and on finite traces) that the monitors are checked against.
import type { LtlNode } from '../../runtime/ltl/syntax.js';
import { holds } from '../patterns/ltlf.js';
import { mulberry32 } from '../../runtime/random.js';

/** Seeded PRNG (mulberry32), shared with the rest of the project. */
export const rng = mulberry32;

export const ap = (name: string): LtlNode => ({ op: 'ap', name });
export const not = (arg: LtlNode): LtlNode => ({ op: '!', arg });
export const and = (...args: LtlNode[]): LtlNode => ({ op: '&', args });
export const or = (...args: LtlNode[]): LtlNode => ({ op: '|', args });
export const G = (arg: LtlNode): LtlNode => ({ op: 'G', arg });
export const F = (arg: LtlNode): LtlNode => ({ op: 'F', arg });
export const X = (arg: LtlNode): LtlNode => ({ op: 'X', arg });
export const bin = (op: '->' | '<->' | 'xor' | 'U' | 'W' | 'R' | 'M', left: LtlNode, right: LtlNode): LtlNode => ({
  op,
  left,
  right,
});

export function randomFormula(r: () => number, depth: number, aps: readonly string[], allowX = true): LtlNode {
  if (depth <= 0 || r() < 0.2) {
    const x = r();
    if (x < 0.05) return { op: 'true' };
    if (x < 0.1) return { op: 'false' };
    return ap(aps[Math.floor(r() * aps.length)]);
  }
  const ops = allowX
    ? ['!', 'X', 'F', 'G', '&', '|', '->', '<->', 'xor', 'U', 'W', 'R', 'M']
    : ['!', 'F', 'G', '&', '|', '->', '<->', 'xor', 'U', 'W', 'R', 'M'];
  const op = ops[Math.floor(r() * ops.length)];
  const sub = (): LtlNode => randomFormula(r, depth - 1, aps, allowX);
  switch (op) {
    case '!':
    case 'X':
    case 'F':
    case 'G':
      return { op, arg: sub() } as LtlNode;
    case '&':
    case '|':
      return { op, args: [sub(), sub()] };
    default:
      return bin(op as '->', sub(), sub());
  }
}

export type Letter = ReadonlySet<string>;
export function randomLetter(r: () => number, aps: readonly string[], p = 0.5): Set<string> {
  return new Set(aps.filter(() => r() < p));
}

/** LTL truth of `f` at position 0 of the lasso word prefix · loop^ω (loop non-empty). */
export function evalLasso(f: LtlNode, prefix: readonly Letter[], loop: readonly Letter[]): boolean {
  const word = [...prefix, ...loop];
  const n = word.length;
  const succ = (i: number): number => (i + 1 < n ? i + 1 : prefix.length);
  const go = (g: LtlNode): boolean[] => {
    const fix = (init: boolean, step: (i: number, cur: boolean[]) => boolean): boolean[] => {
      let cur = new Array<boolean>(n).fill(init);
      for (let it = 0; it <= n + 1; it++) {
        const next = cur.map((_, i) => step(i, cur));
        cur = next;
      }
      return cur;
    };
    switch (g.op) {
      case 'true':
        return new Array(n).fill(true);
      case 'false':
        return new Array(n).fill(false);
      case 'ap':
        return word.map((l) => l.has(g.name));
      case '!':
        return go(g.arg).map((b) => !b);
      case '&': {
        const parts = g.args.map(go);
        return word.map((_, i) => parts.every((p) => p[i]));
      }
      case '|': {
        const parts = g.args.map(go);
        return word.map((_, i) => parts.some((p) => p[i]));
      }
      case 'X': {
        const a = go(g.arg);
        return word.map((_, i) => a[succ(i)]);
      }
      case 'F': {
        const a = go(g.arg);
        return fix(false, (i, c) => a[i] || c[succ(i)]);
      }
      case 'G': {
        const a = go(g.arg);
        return fix(true, (i, c) => a[i] && c[succ(i)]);
      }
      default: {
        const a = go(g.left);
        const b = go(g.right);
        switch (g.op) {
          case '->':
            return word.map((_, i) => !a[i] || b[i]);
          case '<->':
            return word.map((_, i) => a[i] === b[i]);
          case 'xor':
            return word.map((_, i) => a[i] !== b[i]);
          case 'U':
            return fix(false, (i, c) => b[i] || (a[i] && c[succ(i)]));
          case 'W':
            return fix(true, (i, c) => b[i] || (a[i] && c[succ(i)]));
          case 'R':
            return fix(true, (i, c) => b[i] && (a[i] || c[succ(i)]));
          case 'M':
            return fix(false, (i, c) => b[i] && (a[i] || c[succ(i)]));
        }
      }
    }
  };
  return go(f)[0];
}

/** LTLf truth of `f` on a non-empty finite trace (strong X): the one LTLf oracle of the tests. */
export function evalFinite(f: LtlNode, trace: readonly Letter[], i = 0): boolean {
  return holds(f, trace.map((l) => [...l]), i);
}
