/**
 * Emptiness of a generalized Büchi automaton (`SymbolicTgba`): it accepts some word iff a strongly
 * connected component reachable from an initial state has, among the edges inside it (guards not
 * false), an edge of every acceptance set. A component without an internal edge is a single state
 * that does not loop, which no run can stay in.
 */
import { BDD_FALSE } from './bdd.js';
import { acceptingComponents, stronglyConnectedComponents } from './scc.js';
import type { SymbolicTgba } from './translate.js';

export function acceptsSomeWord(a: SymbolicTgba): boolean {
  const live = a.edges.map((out) => out.filter((e) => e.guard !== BDD_FALSE));
  const components = stronglyConnectedComponents(a.stateCount, a.initial, (s) => live[s].map((e) => e.to));
  return acceptingComponents(a.stateCount, components, (s) => live[s], a.accSets).includes(true);
}
