/**
 * LTL equivalence for the English tests, by automata rather than by string: over infinite traces
 * with the shared conformance judge (test/support/equivalence.ts: product emptiness both ways,
 * cross-checked on random lassos), and over finite traces (LTLf, how shields and `--semantics
 * ltlf` audits read rules) by a product walk of the two formulas' DFAs over every letter.
 */
import { fromSyntax } from '../../src/ltl/from-syntax.js';
import type { LtlNode } from '../../runtime/ltl/syntax.js';
import { LtlfDfa, allLetters } from '../../runtime/shield/dfa.js';
import { TermStore } from '../../runtime/monitor/terms.js';
import { compareFormulas } from '../support/equivalence.js';
import { ltlAtoms } from '../../runtime/ltl/atoms.js';

/** Infinite-trace equivalence: the judge must prove it (a timeout or a difference is false). */
export function equivalentInfinite(a: LtlNode, b: LtlNode): boolean {
  return compareFormulas(fromSyntax(a), fromSyntax(b), { seed: 21 }).verdict === 'equivalent';
}

/** Finite-trace (LTLf) equivalence on non-empty traces; returns a distinguishing word when they differ. */
export function finiteDifference(a: LtlNode, b: LtlNode): string[][] | undefined {
  const props = [...ltlAtoms(b, ltlAtoms(a, new Set()))].sort();
  const letters = allLetters(props);
  const store = new TermStore();
  const da = new LtlfDfa(a, { store, alphabet: letters });
  const db = new LtlfDfa(b, { store, alphabet: letters });
  const seen = new Set<string>(['0,0']);
  const queue: { p: number; q: number; word: string[][] }[] = [{ p: da.start, q: db.start, word: [] }];
  while (queue.length > 0) {
    const { p, q, word } = queue.shift()!;
    for (const l of letters) {
      const p2 = da.step(p, l);
      const q2 = db.step(q, l);
      const w = [...word, [...l]];
      if (da.accepting(p2) !== db.accepting(q2)) return w;
      const key = `${p2},${q2}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (seen.size > 100_000) throw new Error('finite equivalence check too large');
      queue.push({ p: p2, q: q2, word: w });
    }
  }
  return undefined;
}
