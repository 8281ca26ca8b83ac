/**
 * Strongly connected components (iterative Tarjan, so deep automata and products cannot overflow
 * the JS stack), and which of them are accepting for a generalized Büchi condition. Shared by
 * automaton post-processing, emptiness, lasso acceptance, monitors and the verifier.
 */

export interface SccResult {
  /** comp[s] = component of state s (-1 when unreachable from the given roots). */
  readonly comp: Int32Array;
  /** Number of components; they are numbered in reverse topological order (sinks first). */
  readonly count: number;
}

export function stronglyConnectedComponents(
  stateCount: number,
  roots: Iterable<number>,
  successors: (s: number) => readonly number[],
): SccResult {
  const index = new Int32Array(stateCount).fill(-1);
  const low = new Int32Array(stateCount);
  const comp = new Int32Array(stateCount).fill(-1);
  const onStack = new Uint8Array(stateCount);
  const stack: number[] = [];
  let nextIndex = 0;
  let count = 0;
  const callStack: { s: number; succ: readonly number[]; i: number }[] = [];
  for (const root of roots) {
    if (index[root] !== -1) continue;
    const enter = (s: number) => {
      index[s] = low[s] = nextIndex++;
      stack.push(s);
      onStack[s] = 1;
      callStack.push({ s, succ: successors(s), i: 0 });
    };
    enter(root);
    while (callStack.length > 0) {
      const frame = callStack[callStack.length - 1];
      if (frame.i < frame.succ.length) {
        const t = frame.succ[frame.i++];
        if (index[t] === -1) enter(t);
        else if (onStack[t]) low[frame.s] = Math.min(low[frame.s], index[t]);
        continue;
      }
      callStack.pop();
      const s = frame.s;
      if (callStack.length > 0) {
        const parent = callStack[callStack.length - 1].s;
        low[parent] = Math.min(low[parent], low[s]);
      }
      if (low[s] === index[s]) {
        let t: number;
        do {
          t = stack.pop()!;
          onStack[t] = 0;
          comp[t] = count;
        } while (t !== s);
        count++;
      }
    }
  }
  return { comp, count };
}

/**
 * Which components a run can stay in forever while seeing each of `accSets` acceptance sets: those
 * with an edge inside them (a lone state without a self-loop has none), whose internal edges
 * together carry every mark. `edges(s)` lists the edges of a state the components were computed
 * for (edges with a false guard left out by the caller).
 */
export function acceptingComponents(
  stateCount: number,
  { comp, count }: SccResult,
  edges: (s: number) => Iterable<{ readonly to: number; readonly marks: readonly number[] }>,
  accSets: number,
): boolean[] {
  const marks = Array.from({ length: count }, () => new Set<number>());
  const looping = new Uint8Array(count);
  for (let s = 0; s < stateCount; s++) {
    if (comp[s] < 0) continue;
    for (const e of edges(s)) {
      if (comp[e.to] !== comp[s]) continue;
      looping[comp[s]] = 1;
      for (const m of e.marks) marks[comp[s]].add(m);
    }
  }
  return Array.from({ length: count }, (_, c) => looping[c] === 1 && marks[c].size >= accSets);
}
