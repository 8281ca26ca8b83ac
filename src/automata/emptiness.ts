/**
 * Emptiness of a generalized Büchi automaton (`SymbolicTgba`): it accepts some word iff a strongly
 * connected component reachable from an initial state has, among the edges inside it (guards not
 * false), an edge of every acceptance set. A component without an internal edge is a single state
 * that does not loop, which no run can stay in.
 */
import { BDD_FALSE } from './bdd.js';
import { stronglyConnectedComponents } from './scc.js';
import type { SymbolicTgba } from './translate.js';

export function acceptsSomeWord(a: SymbolicTgba): boolean {
  const live = a.edges.map((out) => out.filter((e) => e.guard !== BDD_FALSE));
  const { comp, count } = stronglyConnectedComponents(a.stateCount, a.initial, (s) => live[s].map((e) => e.to));
  const marks = Array.from({ length: count }, () => new Set<number>());
  const looping = new Uint8Array(count);
  for (let s = 0; s < a.stateCount; s++) {
    if (comp[s] < 0) continue;
    for (const e of live[s]) {
      if (comp[e.to] !== comp[s]) continue;
      looping[comp[s]] = 1;
      for (const m of e.marks) marks[comp[s]].add(m);
    }
  }
  for (let c = 0; c < count; c++) if (looping[c] && marks[c].size >= a.accSets) return true;
  return false;
}
