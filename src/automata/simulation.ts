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
import { type LetterClasses, letterClasses, refine } from './letter-classes.js';

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

/**
 * Most letter classes (letter-classes.ts) for which pairs are checked class by class; beyond it
 * (or past MAX_CLASS_TABLE, or for guards over more than 12 variables) they are checked on the
 * BDDs. Sensor.tlsf's automata have 256.
 */
const MAX_LETTER_CLASSES = 4096;
/** Largest classes × states table of enabled edges (Int32 entries) built for the class checks. */
const MAX_CLASS_TABLE = 4_000_000;

/**
 * sim[q * n + p] = 1 iff p directly simulates q (greatest fixpoint).
 *
 * Refuted pairs are propagated backwards (a worklist over predecessor pairs) instead of passing
 * over all n² pairs until nothing changes, and a pair is checked letter class by letter class
 * (letter-classes.ts), where each state has one or two edges, instead of as a BDD union of the
 * sibling's edges per edge: with 30–50 states of 40 edges each (product automata of TSL specs)
 * those unions were a fifth of such a spec's solving time. The relation is the same: a greatest
 * fixpoint does not depend on the order in which pairs are refuted.
 */
export function directSimulation(
  bdd: BddManager,
  edges: readonly (readonly SimEdge[])[],
  poll: () => void = () => {},
  /** false: check pairs on the BDDs only (the reference the class route is tested against). */
  byLetterClasses = true,
): Uint8Array {
  const n = edges.length;
  const sim = new Uint8Array(n * n).fill(1);
  const classes = byLetterClasses ? letterClasses(bdd, edges.flatMap((es) => es.map((e) => e.guard)), MAX_LETTER_CLASSES, poll) : undefined;
  const covered = (classes && classCover(classes, edges, sim)) ?? bddCover(bdd, edges, sim);
  // A necessary condition, checked once per pair before any per-edge cover: p reads every letter
  // q reads. Pairs failing it would be refuted by the first check anyway, at the price of
  // building a cover for each of q's edges.
  for (let q = 0; q < n; q++) {
    poll();
    for (let p = 0; p < n; p++) if (p !== q && !covered.readsAll(q, p)) sim[q * n + p] = 0;
  }
  const preds: number[][] = Array.from({ length: n }, () => []);
  for (let q = 0; q < n; q++)
    for (const e of edges[q]) {
      const ps = preds[e.to];
      if (ps[ps.length - 1] !== q) ps.push(q);
    }
  const queued = new Uint8Array(n * n);
  const queue: number[] = [];
  for (let q = 0; q < n; q++)
    for (let p = 0; p < n; p++)
      if (p !== q && sim[q * n + p] === 1) {
        queued[q * n + p] = 1;
        queue.push(q * n + p);
      }
  for (let head = 0; head < queue.length; head++) {
    const pair = queue[head];
    queued[pair] = 0;
    if (sim[pair] === 0) continue;
    // A deadline's poll (translate.ts): each check builds a cover per edge.
    poll();
    const q = Math.floor(pair / n);
    const p = pair - q * n;
    if (covered.edgesOf(q, p)) continue;
    sim[pair] = 0;
    // Every pair that may have used (q, p) to match an edge into q by an edge into p.
    for (const q2 of preds[q])
      for (const p2 of preds[p]) {
        const k = q2 * n + p2;
        if (q2 !== p2 && sim[k] === 1 && queued[k] === 0) {
          queued[k] = 1;
          queue.push(k);
        }
      }
  }
  return sim;
}

interface CoverCheck {
  /** p reads every letter q reads. */
  readsAll(q: number, p: number): boolean;
  /** Every edge of q is matched by p's edges with at least its marks into states simulating its target (per `sim`). */
  edgesOf(q: number, p: number): boolean;
}

/**
 * The pair checks on letter classes: per state and class, the edges enabled there (a flat list
 * indexed by class then state). p matches q on a class iff each of q's edges there has a partner
 * among p's with at least its marks into a state simulating its target.
 */
function classCover(classes: LetterClasses, edges: readonly (readonly SimEdge[])[], sim: Uint8Array): CoverCheck | undefined {
  const n = edges.length;
  const L = classes.count;
  // Two tables of classes × states (enabled edges, local class numbers).
  if (L * n > MAX_CLASS_TABLE) return undefined;
  const start = new Int32Array(L * n + 1);
  const lists = edges.map((es) => es.map((e) => classes.classesOf.get(e.guard)!));
  for (let q = 0; q < n; q++) for (const cs of lists[q]) for (const l of cs) start[l * n + q + 1]++;
  for (let i = 0; i < L * n; i++) start[i + 1] += start[i];
  const item = new Int32Array(start[L * n]);
  const fill = start.slice(0, L * n);
  for (let q = 0; q < n; q++) lists[q].forEach((cs, k) => cs.forEach((l) => (item[fill[l * n + q]++] = k)));
  // The classes each state reads, ascending.
  const reads = edges.map((_, q) => {
    const out: number[] = [];
    for (let l = 0; l < L; l++) if (start[l * n + q + 1] > start[l * n + q]) out.push(l);
    return Int32Array.from(out);
  });
  const readsBits = reads.map((ls) => {
    const b = new Uint32Array(Math.ceil(L / 32) || 1);
    for (const l of ls) b[l >>> 5] |= 1 << (l & 31);
    return b;
  });
  // Per state, classes with the same enabled edges get one local number: a pair is checked once
  // per combination of its two states' local classes (few: a state has about as many as edges),
  // not once per class (hundreds, most of them alike for both states). The classes a state does
  // not read share a number of their own.
  let locals = 1;
  const local = lists.map((cs) => {
    const { ids, count } = refine(L, cs);
    locals = Math.max(locals, count);
    return ids;
  });
  // Past a few million combinations, classes are told apart by their own number.
  const combined = locals * locals <= 1 << 22;
  const seen = new Int32Array(combined ? locals * locals : L);
  let stamp = 0;
  // Marks as bit masks where they fit in one word (acceptance sets are few); else the lists.
  const small = edges.every((es) => es.every((e) => e.marks.every((m) => m < 31)));
  const masks = edges.map((es) => es.map((e) => e.marks.reduce((k, m) => k | (1 << m), 0)));
  return {
    readsAll(q, p) {
      const a = readsBits[q];
      const b = readsBits[p];
      for (let i = 0; i < a.length; i++) if ((a[i] & ~b[i]) !== 0) return false;
      return true;
    },
    edgesOf(q, p) {
      const eq = edges[q];
      const ep = edges[p];
      const mq = masks[q];
      const mp = masks[p];
      const lq = local[q];
      const lp = local[p];
      stamp++;
      for (const l of reads[q]) {
        const combination = combined ? lq[l] * locals + lp[l] : l;
        if (seen[combination] === stamp) continue;
        seen[combination] = stamp;
        const qs = start[l * n + q];
        const qe = start[l * n + q + 1];
        const ps = start[l * n + p];
        const pe = start[l * n + p + 1];
        for (let i = qs; i < qe; i++) {
          const k = item[i];
          const e = eq[k];
          const row = e.to * n;
          let found = false;
          for (let j = ps; j < pe && !found; j++) {
            const h = item[j];
            const f = ep[h];
            found = sim[row + f.to] === 1 && (small ? (mq[k] & ~mp[h]) === 0 : isSubset(e.marks, f.marks));
          }
          if (!found) return false;
        }
      }
      return true;
    },
  };
}

/** The pair checks on the BDDs (too many letter classes for bitsets). */
function bddCover(bdd: BddManager, edges: readonly (readonly SimEdge[])[], sim: Uint8Array): CoverCheck {
  const n = edges.length;
  const reads = edges.map((es) => {
    let any = BDD_FALSE;
    for (const e of es) any = bdd.or(any, e.guard);
    return any;
  });
  return {
    readsAll: (q, p) => bdd.implies(reads[q], reads[p]),
    edgesOf(q, p) {
      for (const e of edges[q]) {
        let cover = BDD_FALSE;
        for (const f of edges[p]) if (sim[e.to * n + f.to] === 1 && isSubset(e.marks, f.marks)) cover = bdd.or(cover, f.guard);
        if (!bdd.implies(e.guard, cover)) return false;
      }
      return true;
    },
  };
}

function isSubset(a: readonly number[], b: readonly number[]): boolean {
  for (const x of a) if (!b.includes(x)) return false;
  return true;
}
