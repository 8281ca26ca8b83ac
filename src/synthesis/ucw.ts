/**
 * Universal co-Büchi automata for bounded synthesis.
 *
 * A (generalized) Büchi automaton for ¬φ, read universally, rejects exactly the words that
 * violate φ: a word is fine when *every* run visits rejecting edges only finitely often. We
 * degeneralize the TGBA (level counter per state), trim states with an empty language (their runs
 * never matter) and mark an edge rejecting only inside an SCC — an edge between SCCs is taken at
 * most once per run, so counting it would only inflate the bound K without changing the answer.
 */
import { BDD_FALSE, BDD_TRUE, type BddManager, type BddNode } from '../automata/bdd.js';
import type { SymbolicTgba } from '../automata/translate.js';

export interface UcwEdge {
  readonly from: number;
  readonly to: number;
  /** The guard as the translation built it: a node of `bdd` (automata of a union differ in it). */
  readonly guard: BddNode;
  readonly bdd: BddManager;
  readonly rejecting: boolean;
}

export interface Ucw {
  readonly stateCount: number;
  readonly initial: readonly number[];
  readonly edges: readonly UcwEdge[];
  /** out[q] = indices into `edges` of the edges leaving q. */
  readonly out: readonly (readonly number[])[];
  /**
   * True when every rejecting edge leads into a state that accepts every continuation: then one
   * rejecting visit already means the word violates φ, so losing the K = 0 game is final.
   */
  readonly terminal: boolean;
}

interface RawEdge {
  from: number;
  to: number;
  guard: BddNode;
  accepting: boolean;
}

/** Degeneralize, trim and classify. The result may have zero states (¬φ unsatisfiable). */
export function ucwFromTgba(tgba: SymbolicTgba): Ucw {
  const { states, initial, edges } = degeneralize(tgba);
  return trim(states, initial, edges, tgba.bdd);
}

function degeneralize(tgba: SymbolicTgba): { states: number; initial: number[]; edges: RawEdge[] } {
  const m = tgba.accSets;
  const levels = Math.max(1, m);
  const index = new Map<number, number>();
  const queue: Array<[number, number]> = [];
  const idOf = (q: number, level: number): number => {
    const key = q * levels + level;
    let id = index.get(key);
    if (id === undefined) {
      id = index.size;
      index.set(key, id);
      queue.push([q, level]);
    }
    return id;
  };
  const initial = tgba.initial.map((q) => idOf(q, 0));
  const edges: RawEdge[] = [];
  for (let head = 0; head < queue.length; head++) {
    const [q, level] = queue[head];
    const from = head;
    for (const e of tgba.edges[q]) {
      if (e.guard === BDD_FALSE) continue;
      let next = level;
      let accepting = false;
      if (m === 0) accepting = true;
      else {
        const marks = new Set(e.marks);
        while (next < m && marks.has(next)) next++;
        if (next === m) {
          accepting = true;
          next = 0;
          while (next < m && marks.has(next)) next++;
          if (next === m) next = 0;
        }
      }
      edges.push({ from, to: idOf(e.to, next), guard: e.guard, accepting });
    }
  }
  return { states: index.size, initial, edges };
}

/** Tarjan's SCCs (iterative: automata from big specs would overflow the call stack). */
export function sccs(n: number, succ: readonly (readonly number[])[]): Int32Array {
  const comp = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const num = new Int32Array(n).fill(-1);
  const onStack = new Uint8Array(n);
  const stack: number[] = [];
  let counter = 0;
  let compCount = 0;
  for (let root = 0; root < n; root++) {
    if (num[root] >= 0) continue;
    const work: Array<[number, number]> = [[root, 0]];
    num[root] = low[root] = counter++;
    stack.push(root);
    onStack[root] = 1;
    while (work.length > 0) {
      const top = work[work.length - 1];
      const [v, i] = top;
      if (i < succ[v].length) {
        top[1]++;
        const w = succ[v][i];
        if (num[w] < 0) {
          num[w] = low[w] = counter++;
          stack.push(w);
          onStack[w] = 1;
          work.push([w, 0]);
        } else if (onStack[w]) low[v] = Math.min(low[v], num[w]);
      } else {
        work.pop();
        if (work.length > 0) {
          const parent = work[work.length - 1][0];
          low[parent] = Math.min(low[parent], low[v]);
        }
        if (low[v] === num[v]) {
          let w: number;
          do {
            w = stack.pop()!;
            onStack[w] = 0;
            comp[w] = compCount;
          } while (w !== v);
          compCount++;
        }
      }
    }
  }
  return comp;
}

function trim(n: number, initial: number[], raw: RawEdge[], bdd: BddManager): Ucw {
  const succ: number[][] = Array.from({ length: n }, () => []);
  for (const e of raw) succ[e.from].push(e.to);
  const comp = sccs(n, succ);
  // A state is useful when it can reach an accepting edge inside an SCC (an accepting cycle).
  const useful = new Uint8Array(n);
  const pred: number[][] = Array.from({ length: n }, () => []);
  for (const e of raw) pred[e.to].push(e.from);
  const stack: number[] = [];
  for (const e of raw)
    if (e.accepting && comp[e.from] === comp[e.to] && !useful[e.from]) {
      useful[e.from] = 1;
      stack.push(e.from);
    }
  while (stack.length > 0) {
    const v = stack.pop()!;
    for (const p of pred[v])
      if (!useful[p]) {
        useful[p] = 1;
        stack.push(p);
      }
  }
  const renumber = new Int32Array(n).fill(-1);
  let count = 0;
  for (let q = 0; q < n; q++) if (useful[q]) renumber[q] = count++;
  const edges: UcwEdge[] = [];
  const out: number[][] = Array.from({ length: count }, () => []);
  for (const e of raw) {
    if (!useful[e.from] || !useful[e.to]) continue;
    const edge: UcwEdge = {
      from: renumber[e.from],
      to: renumber[e.to],
      guard: e.guard,
      bdd,
      rejecting: e.accepting && comp[e.from] === comp[e.to],
    };
    out[edge.from].push(edges.length);
    edges.push(edge);
  }
  const init = [...new Set(initial.filter((q) => useful[q]).map((q) => renumber[q]))];
  return { stateCount: count, initial: init, edges, out, terminal: isTerminal(count, edges, out) };
}

function isTerminal(n: number, edges: readonly UcwEdge[], out: readonly (readonly number[])[]): boolean {
  const universalSink = (q: number): boolean =>
    out[q].some((i) => edges[i].to === q && edges[i].guard === BDD_TRUE && edges[i].rejecting);
  for (const e of edges) if (e.rejecting && !universalSink(e.to)) return false;
  return n >= 0;
}
