/**
 * Strongly connected components (iterative Tarjan, so deep automata and products cannot overflow
 * the JS stack). Shared by automaton post-processing, lasso acceptance and the verifier.
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
