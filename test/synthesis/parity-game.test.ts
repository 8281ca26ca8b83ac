// Zielonka's parity-game solver (src/synthesis/parity-game.ts) on random games: the winning regions
// and positional strategies it returns are checked by an independent certificate check below
// (closed regions; in each region, with its owner's strategy fixed, every cycle's largest
// priority has the owner's parity).
import { describe, expect, it } from 'vitest';
import { type ParityGame, solveParityGame } from '../../src/synthesis/parity-game.js';
import { rng } from './helpers.js';

function randomGame(seed: number): ParityGame {
  const r = rng(seed);
  const n = 1 + Math.floor(r() * 14);
  const owner = Uint8Array.from({ length: n }, () => (r() < 0.5 ? 0 : 1));
  const priority = Int32Array.from({ length: n }, () => Math.floor(r() * 6));
  const succs: number[][] = Array.from({ length: n }, () => {
    const k = 1 + Math.floor(r() * 3);
    return [...new Set(Array.from({ length: k }, () => Math.floor(r() * n)))];
  });
  const succStart = new Int32Array(n + 1);
  for (let v = 0; v < n; v++) succStart[v + 1] = succStart[v] + succs[v].length;
  return { vertexCount: n, owner, priority, succStart, succ: Int32Array.from(succs.flat()) };
}

const successors = (g: ParityGame, v: number) => Array.from(g.succ.subarray(g.succStart[v], g.succStart[v + 1]));

/** Whether the graph on `inside` (edges `next`) has a cycle through a vertex of `through`. */
function cycleThrough(inside: readonly number[], next: (v: number) => number[], through: (v: number) => boolean): boolean {
  const set = new Set(inside);
  for (const start of inside) {
    if (!through(start)) continue;
    // Is `start` reachable from one of its successors, staying inside?
    const seen = new Set<number>();
    const stack = next(start).filter((w) => set.has(w));
    while (stack.length > 0) {
      const v = stack.pop()!;
      if (v === start) return true;
      if (seen.has(v)) continue;
      seen.add(v);
      for (const w of next(v)) if (set.has(w)) stack.push(w);
    }
  }
  return false;
}

/** Problems with the solution as a certificate: empty when it proves every vertex's winner. */
function certificateProblems(g: ParityGame, winner: Uint8Array, strategy: Int32Array): string[] {
  const problems: string[] = [];
  for (const p of [0, 1]) {
    const region = Array.from({ length: g.vertexCount }, (_, v) => v).filter((v) => winner[v] === p);
    const next = (v: number) => (g.owner[v] === p ? [strategy[v]] : successors(g, v));
    for (const v of region) {
      if (g.owner[v] === p && !successors(g, v).includes(strategy[v])) problems.push(`player ${p}'s move at ${v} is no edge`);
      for (const w of next(v)) if (winner[w] !== p) problems.push(`player ${p}'s region leaks from ${v} to ${w}`);
    }
    // A cycle whose largest priority q has the other parity: look for a cycle through a vertex of
    // priority q among the vertices of priority ≤ q.
    for (let q = 0; q < 8; q++) {
      if (q % 2 === p) continue;
      const low = region.filter((v) => g.priority[v] <= q);
      if (cycleThrough(low, next, (v) => g.priority[v] === q)) problems.push(`player ${p} loses a cycle of priority ${q}`);
    }
  }
  return problems;
}

describe('Zielonka parity-game solver', () => {
  it('returns a winning region and a winning positional strategy for each player (500 random games)', () => {
    let wins0 = 0;
    for (let seed = 1; seed <= 500; seed++) {
      const g = randomGame(seed);
      const { winner, strategy } = solveParityGame(g);
      expect(certificateProblems(g, winner, strategy), `seed ${seed}`).toEqual([]);
      wins0 += winner.filter((w) => w === 0).length;
    }
    // Both players win somewhere: the games are not one-sided.
    expect(wins0).toBeGreaterThan(500);
  });

  it('the certificate check catches a wrong answer', () => {
    // One vertex of player 0 with a self-loop of odd priority: player 1 wins it.
    const g: ParityGame = { vertexCount: 1, owner: Uint8Array.of(0), priority: Int32Array.of(1), succStart: Int32Array.of(0, 1), succ: Int32Array.of(0) };
    expect(solveParityGame(g).winner[0]).toBe(1);
    expect(certificateProblems(g, Uint8Array.of(0), Int32Array.of(0))).not.toEqual([]);
  });
});
