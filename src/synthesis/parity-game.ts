/**
 * Parity games, solved with Zielonka's recursive algorithm (max-parity: player 0 wins a play
 * whose largest priority seen infinitely often is even), with positional winning strategies for
 * both players.
 *
 * The game is an explicit graph in compressed rows (`succStart`/`succ`); every vertex needs a
 * successor. Zielonka's algorithm: let p be the largest priority and i = p mod 2; player i
 * attracts to the vertices of priority p (A); solve the rest; if player 1−i wins nothing there,
 * player i wins everything, else player 1−i's region there, and what 1−i attracts to it (B), is
 * 1−i's for good, and the game without B is solved the same way (a loop here, so the recursion is
 * only as deep as the number of priorities).
 */

export interface ParityGame {
  readonly vertexCount: number;
  /** 0 or 1 per vertex. */
  readonly owner: Uint8Array;
  readonly priority: Int32Array;
  /** Successors of v: succ[succStart[v] .. succStart[v + 1]). */
  readonly succStart: Int32Array;
  readonly succ: Int32Array;
}

export interface ParitySolution {
  /** 0 or 1 per vertex: who wins from there. */
  readonly winner: Uint8Array;
  /** For a vertex whose owner wins from it: the successor the owner's strategy takes; else −1. */
  readonly strategy: Int32Array;
}

export function solveParityGame(game: ParityGame, tick: () => void = () => {}): ParitySolution {
  const n = game.vertexCount;
  const { owner, priority, succStart, succ } = game;
  // Predecessors, in compressed rows too.
  const predStart = new Int32Array(n + 1);
  for (let e = 0; e < succ.length; e++) predStart[succ[e] + 1]++;
  for (let v = 0; v < n; v++) predStart[v + 1] += predStart[v];
  const pred = new Int32Array(succ.length);
  const fill = predStart.slice(0, n);
  for (let v = 0; v < n; v++) for (let e = succStart[v]; e < succStart[v + 1]; e++) pred[fill[succ[e]]++] = v;
  for (let v = 0; v < n; v++) if (succStart[v + 1] === succStart[v]) throw new Error(`parity game: vertex ${v} has no successor`);

  const inGame = new Uint8Array(n).fill(1);
  const winner = new Uint8Array(n);
  const strategy = new Int32Array(n).fill(-1);
  // Attractor bookkeeping: per-call stamps instead of clearing arrays.
  const inAttr = new Uint32Array(n);
  const count = new Int32Array(n);
  const counted = new Uint32Array(n);
  let stamp = 0;

  /** Player `player`'s attractor to `target` within the current game (target included). */
  const attractor = (player: number, target: readonly number[]): number[] => {
    stamp++;
    const out: number[] = [];
    for (const t of target) {
      inAttr[t] = stamp;
      out.push(t);
    }
    for (let head = 0; head < out.length; head++) {
      const v = out[head];
      for (let e = predStart[v]; e < predStart[v + 1]; e++) {
        const u = pred[e];
        if (!inGame[u] || inAttr[u] === stamp) continue;
        if (owner[u] === player) {
          inAttr[u] = stamp;
          strategy[u] = v;
          out.push(u);
          continue;
        }
        if (counted[u] !== stamp) {
          counted[u] = stamp;
          let c = 0;
          for (let f = succStart[u]; f < succStart[u + 1]; f++) if (inGame[succ[f]]) c++;
          count[u] = c;
        }
        if (--count[u] === 0) {
          inAttr[u] = stamp;
          out.push(u);
        }
      }
    }
    return out;
  };

  /** Solves the subgame on `vertices` (all in the game); returns [player 0's region, player 1's]. */
  const solve = (vertices: number[]): [number[], number[]] => {
    const won: [number[], number[]] = [[], []];
    const removed: number[] = [];
    let g = vertices;
    while (g.length > 0) {
      tick();
      let p = -1;
      for (const v of g) if (priority[v] > p) p = priority[v];
      const i = p & 1;
      const top = g.filter((v) => priority[v] === p);
      const a = attractor(i, top);
      for (const v of a) inGame[v] = 0;
      const rest = g.filter((v) => inGame[v]);
      const sub = solve(rest);
      for (const v of a) inGame[v] = 1;
      const theirs = sub[1 - i];
      if (theirs.length === 0) {
        // Player i wins all of g: from the top priority anywhere in g, elsewhere as before.
        for (const v of top)
          if (owner[v] === i)
            for (let e = succStart[v]; e < succStart[v + 1]; e++)
              if (inGame[succ[e]]) {
                strategy[v] = succ[e];
                break;
              }
        for (const v of g) won[i].push(v);
        break;
      }
      const b = attractor(1 - i, theirs);
      for (const v of b) {
        won[1 - i].push(v);
        inGame[v] = 0;
        removed.push(v);
      }
      g = g.filter((v) => inGame[v]);
    }
    for (const v of removed) inGame[v] = 1;
    return won;
  };

  const all = Array.from({ length: n }, (_, v) => v);
  const [w0, w1] = solve(all);
  for (const v of w0) winner[v] = 0;
  for (const v of w1) winner[v] = 1;
  for (let v = 0; v < n; v++) if (owner[v] !== winner[v]) strategy[v] = -1;
  return { winner, strategy };
}
