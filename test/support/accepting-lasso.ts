/**
 * Lassos out of our automata, for the equivalence check: an accepting lasso of a TGBA (or none,
 * when its language is empty), and one lasso combining lassos of formulas over disjoint atoms.
 */
import { stronglyConnectedComponents } from '../../src/automata/scc.js';
import type { SymbolicEdge, SymbolicTgba } from '../../src/automata/translate.js';
import type { Lasso, Letter } from './lasso-eval.js';

/**
 * An accepting lasso of the automaton, or null when its language is empty: a path from an
 * initial state into a reachable SCC whose internal edges carry every acceptance set, then a
 * cycle through that SCC taking an edge of each set.
 */
export function acceptingLasso(aut: SymbolicTgba): Lasso | null {
  const { comp, count } = stronglyConnectedComponents(aut.stateCount, aut.initial, (s) => aut.edges[s].map((e) => e.to));
  const marks: Set<number>[] = Array.from({ length: count }, () => new Set());
  const internal = new Uint8Array(count);
  for (let s = 0; s < aut.stateCount; s++) {
    if (comp[s] < 0) continue;
    for (const e of aut.edges[s]) {
      if (comp[e.to] !== comp[s]) continue;
      internal[comp[s]] = 1;
      for (const m of e.marks) marks[comp[s]].add(m);
    }
  }
  let target = -1;
  for (let c = 0; c < count && target < 0; c++) if (internal[c] && marks[c].size === aut.accSets) target = c;
  if (target < 0) return null;

  const letter = (e: SymbolicEdge): Letter => {
    const assignment = aut.bdd.satisfyingAssignment(e.guard);
    if (!assignment) throw new Error('acceptingLasso: an edge with an unsatisfiable guard');
    return [...assignment].filter(([, v]) => v).map(([k]) => k).sort();
  };
  // Breadth-first from `from` to the first edge `goal` accepts, moving only inside `within`
  // (or anywhere, -1): the edges of the path, that edge last.
  const pathTo = (from: readonly number[], within: number, goal: (s: number, e: SymbolicEdge) => boolean): SymbolicEdge[] => {
    const parent = new Map<number, { s: number; e: SymbolicEdge } | null>(from.map((s) => [s, null]));
    const queue = [...from];
    for (let q = 0; q < queue.length; q++) {
      const s = queue[q];
      for (const e of aut.edges[s]) {
        if (within >= 0 && comp[e.to] !== within) continue;
        if (goal(s, e)) {
          const path = [e];
          for (let p = parent.get(s); p; p = parent.get(p.s)) path.push(p.e);
          return path.reverse();
        }
        if (!parent.has(e.to)) {
          parent.set(e.to, { s, e });
          queue.push(e.to);
        }
      }
    }
    throw new Error('acceptingLasso: no path where the SCC analysis promised one');
  };

  const starts = [...new Set(aut.initial)];
  const entryInitial = starts.find((s) => comp[s] === target);
  const prefix = entryInitial !== undefined ? [] : pathTo(starts, -1, (_, e) => comp[e.to] === target);
  const entry = entryInitial ?? prefix[prefix.length - 1].to;
  const cycle: SymbolicEdge[] = [];
  const covered = new Set<number>();
  let at = entry;
  for (let m = 0; m < aut.accSets; m++) {
    if (covered.has(m)) continue;
    for (const e of pathTo([at], target, (_, e) => e.marks.includes(m))) {
      cycle.push(e);
      for (const k of e.marks) covered.add(k);
      at = e.to;
    }
  }
  if (cycle.length === 0 || at !== entry) cycle.push(...pathTo([at], target, (_, e) => e.to === entry));
  return { prefix: prefix.map(letter), cycle: cycle.map(letter) };
}

/**
 * One lasso whose restriction to each input's atoms is that input (the inputs' atoms must be
 * disjoint): prefix as long as the longest prefix, cycle the least common multiple of the
 * cycles. Null when that cycle would exceed `maxLetters`.
 */
export function mergeLassos(lassos: readonly Lasso[], maxLetters = 100_000): Lasso | null {
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  let p = 0;
  let c = 1;
  for (const w of lassos) {
    p = Math.max(p, w.prefix.length);
    c = (c / gcd(c, w.cycle.length)) * w.cycle.length;
    if (p + c > maxLetters) return null;
  }
  const at = (w: Lasso, i: number): Letter => (i < w.prefix.length ? w.prefix[i] : w.cycle[(i - w.prefix.length) % w.cycle.length]);
  const letters = Array.from({ length: p + c }, (_, i) => lassos.flatMap((w) => at(w, i)).sort());
  return { prefix: letters.slice(0, p), cycle: letters.slice(p) };
}
