/**
 * Degeneralization: a TGBA with k > 1 acceptance sets becomes an equivalent one with a single
 * set, by pairing each state with a level 0..k-1 ("next set I am waiting for"). An edge that
 * completes the round (carries the awaited set k-1) is the accepting one. Only reachable pairs
 * are built. Automata with ≤ 1 set are returned unchanged.
 */
import type { Edge, Tgba } from './types.js';

export function degeneralize(t: Tgba): Tgba {
  const k = t.accSets;
  if (k <= 1) return t;
  const index = new Map<number, number>();
  const pairs: [number, number][] = [];
  const edges: Edge[][] = [];
  const pairOf = (q: number, level: number): number => {
    const key = q * k + level;
    let i = index.get(key);
    if (i === undefined) {
      i = pairs.length;
      index.set(key, i);
      pairs.push([q, level]);
    }
    return i;
  };
  const initial = t.initial.map((q) => pairOf(q, 0));
  for (let p = 0; p < pairs.length; p++) {
    const [q, level] = pairs[p];
    const out: Edge[] = [];
    for (const e of t.edges[q]) {
      const has = new Set(e.marks);
      let next = level;
      while (next < k && has.has(next)) next++;
      let accepting = false;
      if (next === k) {
        accepting = true;
        // The same edge may also count towards the next round.
        next = 0;
        while (next < k - 1 && has.has(next)) next++;
      }
      out.push({ to: pairOf(e.to, next), guard: e.guard, marks: accepting ? [0] : [] });
    }
    edges.push(out);
  }
  const labels = t.stateLabels;
  return {
    aps: t.aps,
    stateCount: pairs.length,
    initial,
    accSets: 1,
    edges,
    stateLabels: labels ? pairs.map(([q, level]) => `${labels[q]} [${level}]`) : undefined,
  };
}
