// Shared test helpers: a seeded RNG, random formulas and traces, and reference LTL semantics
// (on lasso words and on finite traces) that the monitors are checked against.
import type { LtlNode } from '../../runtime/ltl/syntax.js';

export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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

/** LTLf truth of `f` on a non-empty finite trace (strong X). */
export function evalFinite(f: LtlNode, trace: readonly Letter[], i = 0): boolean {
  const n = trace.length;
  const at = (g: LtlNode, j: number): boolean => evalFinite(g, trace, j);
  switch (f.op) {
    case 'true':
      return true;
    case 'false':
      return false;
    case 'ap':
      return trace[i].has(f.name);
    case '!':
      return !at(f.arg, i);
    case '&':
      return f.args.every((a) => at(a, i));
    case '|':
      return f.args.some((a) => at(a, i));
    case 'X':
      return i + 1 < n && at(f.arg, i + 1);
    case 'F':
      for (let j = i; j < n; j++) if (at(f.arg, j)) return true;
      return false;
    case 'G':
      for (let j = i; j < n; j++) if (!at(f.arg, j)) return false;
      return true;
    case '->':
      return !at(f.left, i) || at(f.right, i);
    case '<->':
      return at(f.left, i) === at(f.right, i);
    case 'xor':
      return at(f.left, i) !== at(f.right, i);
    case 'U':
    case 'W':
    case 'M':
    case 'R': {
      // a U b: b at some j ≥ i with a before; W also accepts a everywhere; R/M are the duals.
      const until = (a: LtlNode, b: LtlNode, weak: boolean): boolean => {
        for (let j = i; j < n; j++) {
          if (at(b, j)) return true;
          if (!at(a, j)) return false;
        }
        return weak;
      };
      if (f.op === 'U') return until(f.left, f.right, false);
      if (f.op === 'W') return until(f.left, f.right, true);
      const nl = not(f.left);
      const nr = not(f.right);
      return f.op === 'R' ? !until(nl, nr, false) : !until(nl, nr, true);
    }
  }
}
