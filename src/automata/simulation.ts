/**
 * Direct-simulation reductions for TGBAs with BDD guards (what Spot calls "simulation-based
 * reduction", in its simplest sound form):
 *
 *   p simulates q  iff  every edge q -(g, M)-> q' is matched, letter by letter, by edges
 *   p -(g', M')-> p' with M ⊆ M' and p' simulating q'.
 *
 * Then L(q) ⊆ L(p), so (1) mutually simulating states merge, (2) an edge whose target is
 * simulated by a sibling edge's target with at least its marks is useless on the sibling's
 * letters ("little brothers"), and (3) an initial state simulated by another initial state can be
 * dropped. The relation is a greatest fixpoint over all pairs, so it only runs on automata small
 * enough for that (the verifier explores lazily and never needs it).
 */
import { BDD_FALSE, type BddManager, type BddNode } from './bdd.js';

export interface SimEdge {
  readonly to: number;
  readonly guard: BddNode;
  readonly marks: readonly number[];
}

export interface SimAutomaton<L> {
  readonly edges: readonly (readonly SimEdge[])[];
  readonly initial: readonly number[];
  readonly labels: readonly L[];
}

/** Rough cost bound (pairs × edge pairs) above which we skip the reduction. */
const WORK_LIMIT = 4_000_000;

export function reduceBySimulation<L>(bdd: BddManager, a: SimAutomaton<L>, poll: () => void = () => {}): SimAutomaton<L> {
  const n = a.edges.length;
  const edgeCount = a.edges.reduce((k, es) => k + es.length, 0);
  const avg = edgeCount / Math.max(1, n);
  if (n < 2 || n * n * avg * avg > WORK_LIMIT) return a;
  const sim = directSimulation(bdd, a.edges, poll);
  const simulates = (p: number, q: number) => sim[q * n + p] === 1;

  // (1) Quotient by mutual simulation.
  const cls = new Int32Array(n).fill(-1);
  const reps: number[] = [];
  for (let q = 0; q < n; q++) {
    if (cls[q] !== -1) continue;
    cls[q] = reps.length;
    for (let p = q + 1; p < n; p++) if (cls[p] === -1 && simulates(p, q) && simulates(q, p)) cls[p] = reps.length;
    reps.push(q);
  }
  const m = reps.length;
  const repSim = (p: number, q: number) => simulates(reps[p], reps[q]);

  // (2) Little brothers, on merged edges of each representative.
  const edges: SimEdge[][] = reps.map((q) => {
    const byKey = new Map<string, { to: number; guard: BddNode; marks: readonly number[] }>();
    for (const e of a.edges[q]) {
      const to = cls[e.to];
      const key = `${to}|${e.marks.join(',')}`;
      const g = byKey.get(key);
      if (g) g.guard = bdd.or(g.guard, e.guard);
      else byKey.set(key, { to, guard: e.guard, marks: e.marks });
    }
    const list = [...byKey.values()];
    const dominated = (x: SimEdge, y: SimEdge) => x !== y && isSubset(x.marks, y.marks) && repSim(y.to, x.to);
    for (const x of list)
      for (const y of list) {
        if (x.guard === BDD_FALSE || y.guard === BDD_FALSE) continue;
        if (dominated(x, y) && !dominated(y, x)) x.guard = bdd.and(x.guard, bdd.not(y.guard));
      }
    return list.filter((e) => e.guard !== BDD_FALSE);
  });

  // (3) Initial states simulated by another initial state.
  const init = [...new Set(a.initial.map((q) => cls[q]))];
  const keptInit = init.filter((q, i) => !init.some((p, j) => j !== i && repSim(p, q) && (!repSim(q, p) || j < i)));

  // Drop states no longer reachable.
  const reach = new Int32Array(m).fill(-1);
  const order: number[] = [];
  for (const q of keptInit) if (reach[q] === -1) reach[q] = order.push(q) - 1;
  for (let i = 0; i < order.length; i++)
    for (const e of edges[order[i]]) if (reach[e.to] === -1) reach[e.to] = order.push(e.to) - 1;
  return {
    edges: order.map((q) => edges[q].map((e) => ({ to: reach[e.to], guard: e.guard, marks: e.marks }))),
    initial: keptInit.map((q) => reach[q]),
    labels: order.map((q) => a.labels[reps[q]]),
  };
}

/** sim[q * n + p] = 1 iff p directly simulates q (greatest fixpoint). */
export function directSimulation(bdd: BddManager, edges: readonly (readonly SimEdge[])[], poll: () => void = () => {}): Uint8Array {
  const n = edges.length;
  const sim = new Uint8Array(n * n).fill(1);
  // A necessary condition, checked once per pair before any per-edge cover: p reads every letter
  // q reads. Pairs failing it would be refuted in the first pass anyway, at the price of building
  // a cover for each of q's edges (the BDD work that dominated this function).
  const reads = edges.map((es) => {
    let any = BDD_FALSE;
    for (const e of es) any = bdd.or(any, e.guard);
    return any;
  });
  for (let q = 0; q < n; q++) {
    poll();
    for (let p = 0; p < n; p++) if (p !== q && !bdd.implies(reads[q], reads[p])) sim[q * n + p] = 0;
  }
  let changed = true;
  while (changed) {
    changed = false;
    for (let q = 0; q < n; q++)
      for (let p = 0; p < n; p++) {
        if (p === q || sim[q * n + p] === 0) continue;
        // A deadline's poll (translate.ts): up to n² pairs per pass, each a cover per edge.
        poll();
        for (const e of edges[q]) {
          let cover = BDD_FALSE;
          for (const f of edges[p]) {
            if (sim[e.to * n + f.to] === 1 && isSubset(e.marks, f.marks)) cover = bdd.or(cover, f.guard);
          }
          if (!bdd.implies(e.guard, cover)) {
            sim[q * n + p] = 0;
            changed = true;
            break;
          }
        }
      }
  }
  return sim;
}

function isSubset(a: readonly number[], b: readonly number[]): boolean {
  for (const x of a) if (!b.includes(x)) return false;
  return true;
}
