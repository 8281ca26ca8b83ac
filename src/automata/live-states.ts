/**
 * Live states of a generalized Büchi automaton: those from which some accepting run exists, i.e.
 * which reach a component that a run can stay in forever while seeing every acceptance set.
 * The LTL3 monitors decide their verdicts by it, and the safety test (safety-closure.ts) reads
 * the safety closure of a language off it.
 */
import { acceptingComponents, stronglyConnectedComponents } from './scc.js';

/** `edges(s)`: the edges of state s a run can take (callers leave out false guards). */
export function liveStates(
  stateCount: number,
  edges: (s: number) => ReadonlyArray<{ readonly to: number; readonly marks: readonly number[] }>,
  accSets: number,
): boolean[] {
  const all = Array.from({ length: stateCount }, (_, i) => i);
  const components = stronglyConnectedComponents(stateCount, all, (s) => edges(s).map((e) => e.to));
  const good = acceptingComponents(stateCount, components, edges, accSets);
  // Backward closure from the good components.
  const preds: number[][] = Array.from({ length: stateCount }, () => []);
  for (let s = 0; s < stateCount; s++) for (const e of edges(s)) preds[e.to].push(s);
  const live = new Array<boolean>(stateCount).fill(false);
  const queue: number[] = [];
  for (let s = 0; s < stateCount; s++) {
    if (good[components.comp[s]]) {
      live[s] = true;
      queue.push(s);
    }
  }
  while (queue.length > 0) {
    for (const p of preds[queue.pop()!]) {
      if (!live[p]) {
        live[p] = true;
        queue.push(p);
      }
    }
  }
  return live;
}
