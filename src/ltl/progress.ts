/**
 * LTL formula progression over a finite play, step by step: after each letter the formula that
 * must hold on the rest of the play. It reaching `false` is the exact step a guarantee is broken
 * (what stories and `tslc play` report); `true` means it can no longer be broken.
 * Hash-consed constructors keep progressed formulas small and make them comparable by identity,
 * which loop detection relies on.
 */
import { and, F, FALSE, type Formula, G, iff, implies, M, not, or, R, TRUE, U, W } from './formula.js';

export type Letter = (name: string) => boolean;

export function progress(f: Formula, letter: Letter): Formula {
  switch (f.kind) {
    case 'true':
    case 'false':
      return f;
    case 'ap':
      return letter(f.name) ? TRUE : FALSE;
    case 'not':
      return not(progress(f.arg, letter));
    case 'and':
      return and(...f.args.map((a) => progress(a, letter)));
    case 'or':
      return or(...f.args.map((a) => progress(a, letter)));
    case 'implies':
      return implies(progress(f.left, letter), progress(f.right, letter));
    case 'iff':
      return iff(progress(f.left, letter), progress(f.right, letter));
    case 'xor':
      return not(iff(progress(f.left, letter), progress(f.right, letter)));
    case 'X':
      return f.arg;
    case 'F':
      return or(progress(f.arg, letter), F(f.arg));
    case 'G':
      return and(progress(f.arg, letter), G(f.arg));
    case 'U':
      return or(progress(f.right, letter), and(progress(f.left, letter), U(f.left, f.right)));
    case 'W':
      return or(progress(f.right, letter), and(progress(f.left, letter), W(f.left, f.right)));
    case 'R':
      return and(progress(f.right, letter), or(progress(f.left, letter), R(f.left, f.right)));
    case 'M':
      return and(progress(f.right, letter), or(progress(f.left, letter), M(f.left, f.right)));
  }
}

export type Status = 'violated' | 'satisfied' | 'pending';

export function statusOf(f: Formula): Status {
  return f === FALSE ? 'violated' : f === TRUE ? 'satisfied' : 'pending';
}
