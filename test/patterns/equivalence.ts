/**
 * LTL equivalence for tests, by automata rather than by string: over infinite traces, a ≡ b when
 * neither a ∧ ¬b nor ¬a ∧ b has an accepting run (src/automata's TGBA translation, then an SCC
 * check); over finite traces (LTLf, how shields and `--semantics ltlf` audits read rules), when the
 * two formulas' DFAs accept the same non-empty words (a product walk over every letter).
 */
import { fromSyntax } from '../../src/ltl/from-syntax.js';
import { and, not } from '../../src/ltl/formula.js';
import { stronglyConnectedComponents } from '../../src/automata/scc.js';
import { translateLtl } from '../../src/automata/translate.js';
import type { Tgba } from '../../src/automata/types.js';
import type { LtlNode } from '../../runtime/ltl/syntax.js';
import { LtlfDfa, allLetters } from '../../runtime/shield/dfa.js';
import { TermStore } from '../../runtime/monitor/terms.js';

function nonEmpty(t: Tgba): boolean {
  const succ = (s: number) => t.edges[s].filter((e) => e.guard.kind !== 'false').map((e) => e.to);
  const { comp } = stronglyConnectedComponents(t.stateCount, t.initial, succ);
  const marks = new Map<number, Set<number>>();
  const cyclic = new Set<number>();
  for (let s = 0; s < t.stateCount; s++) {
    if (comp[s] < 0) continue;
    for (const e of t.edges[s]) {
      if (e.guard.kind === 'false' || comp[e.to] !== comp[s]) continue;
      cyclic.add(comp[s]);
      let m = marks.get(comp[s]);
      if (!m) marks.set(comp[s], (m = new Set()));
      for (const k of e.marks) m.add(k);
    }
  }
  for (const c of cyclic) if ((marks.get(c)?.size ?? 0) >= t.accSets) return true;
  return false;
}

function atomsOf(n: LtlNode, out: Set<string>): Set<string> {
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
      atomsOf(n.arg, out);
      break;
    case '&':
    case '|':
      for (const a of n.args) atomsOf(a, out);
      break;
    default:
      atomsOf(n.left, out);
      atomsOf(n.right, out);
  }
  return out;
}

/** Infinite-trace equivalence. */
export function equivalentInfinite(a: LtlNode, b: LtlNode): boolean {
  const fa = fromSyntax(a);
  const fb = fromSyntax(b);
  return !nonEmpty(translateLtl(and(fa, not(fb)))) && !nonEmpty(translateLtl(and(not(fa), fb)));
}

/** Finite-trace (LTLf) equivalence on non-empty traces; returns a distinguishing word when they differ. */
export function finiteDifference(a: LtlNode, b: LtlNode): string[][] | undefined {
  const props = [...atomsOf(b, atomsOf(a, new Set()))].sort();
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
