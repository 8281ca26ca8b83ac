/**
 * Fewest colours for a controller's states under compatibility and closure constraints, by plain
 * backtracking (no SAT solver). Used by exact minimization before it falls back to MiniSat:
 * loading MiniSat costs more than the whole search on the small machines most specs produce.
 *
 * Constraints (the same as the SAT encoding in exact-minimize.ts): incompatible states never share
 * a colour; if s and t share a colour, every pair (u, v) their shared moves imply shares one too.
 * States are coloured in index order, each constraint is checked as soon as the last of its states
 * is coloured (a closure obligation whose pair already shares a colour fixes its last state's
 * colour ahead of time), and colours are numbered by first use (state 0 gets colour 0, a state
 * gets at most one more than the largest colour so far): every colouring has exactly one such
 * numbering, so nothing is lost and no permutation is searched twice.
 *
 * The work budget counts search nodes, never time: the chosen colouring feeds generated modules
 * that are compared byte-for-byte, so the same machine must give the same answer everywhere.
 */

export interface ColouringProblem {
  readonly n: number;
  /** `incompatible[s][t]` for s < t. */
  readonly incompatible: readonly (readonly boolean[])[];
  /** `implied[s][t]` for s < t: pairs (u < v) that must share a colour when s and t do. */
  readonly implied: readonly (readonly (readonly (readonly [number, number])[])[])[];
}

export type ColouringResult =
  | { readonly kind: 'found'; readonly k: number; readonly colour: Int32Array; readonly nodes: number }
  /** No valid colouring with fewer than n colours. */
  | { readonly kind: 'none'; readonly nodes: number }
  /** The node budget ran out before the minimum was settled. */
  | { readonly kind: 'budget'; readonly nodes: number };

/** What becomes decidable when state i is coloured (i is the largest coloured state involved). */
interface Checks {
  /** States s < i that must not share i's colour. */
  readonly apart: number[];
  /** Flattened quadruples s, t, u, v: colour(s) = colour(t) ⇒ colour(u) = colour(v). */
  readonly closure: number[];
  /** Same, but v > i is still uncoloured: when s and t share a colour, v is forced to u's. */
  readonly forcing: number[];
}

/**
 * Each obligation (s,t) ⇒ (u,v) with u < v is looked at once max(s, t, u) is coloured: then it
 * either decides (v coloured too) or forces v. Forcing prunes much earlier than waiting for v,
 * which is what proves "no k-colouring" quickly on the infeasible bounds below the minimum.
 */
function indexChecks(p: ColouringProblem): Checks[] {
  const checks: Checks[] = Array.from({ length: p.n }, () => ({ apart: [], closure: [], forcing: [] }));
  for (let s = 0; s < p.n; s++)
    for (let t = s + 1; t < p.n; t++) {
      if (p.incompatible[s][t]) {
        checks[t].apart.push(s);
        continue; // never share a colour, so their implications never fire
      }
      for (const [u, v] of p.implied[s][t]) {
        if (p.incompatible[u][v]) {
          checks[t].apart.push(s); // s,t together would force an incompatible pair together
          continue;
        }
        const at = Math.max(t, u);
        (v <= at ? checks[at].closure : checks[at].forcing).push(s, t, u, v);
      }
    }
  return checks;
}

/**
 * The minimum number of colours k ≥ `lowerBound` (tried in increasing order up to n − 1) and a
 * colouring using exactly k, within `maxNodes` colour assignments over all bounds together.
 */
export function minimumColouring(p: ColouringProblem, lowerBound: number, maxNodes: number): ColouringResult {
  const { n } = p;
  const checks = indexChecks(p);
  const colour = new Int32Array(n);
  // forced[v]: the colour an obligation already demands of uncoloured v, or -1.
  const forced = new Int32Array(n).fill(-1);
  const trail: number[] = [];
  let nodes = 0;

  // Checks the obligations decided by colouring i and records the colours it forces (on `trail`).
  const consistent = (i: number): boolean => {
    const c = colour[i];
    const { apart, closure, forcing } = checks[i];
    for (const s of apart) if (colour[s] === c) return false;
    for (let j = 0; j < closure.length; j += 4)
      if (colour[closure[j]] === colour[closure[j + 1]] && colour[closure[j + 2]] !== colour[closure[j + 3]]) return false;
    for (let j = 0; j < forcing.length; j += 4) {
      if (colour[forcing[j]] !== colour[forcing[j + 1]]) continue;
      const v = forcing[j + 3];
      const want = colour[forcing[j + 2]];
      if (forced[v] === want) continue;
      if (forced[v] !== -1) return false;
      for (const s of checks[v].apart) if (s <= i && colour[s] === want) return false;
      forced[v] = want;
      trail.push(v);
    }
    return true;
  };

  // Colours state i onwards with colours < k, `used` colours being taken by states < i.
  // Returns undefined when the budget runs out.
  const extend = (i: number, used: number, k: number): boolean | undefined => {
    if (i === n) return true;
    const only = forced[i];
    const [first, last] = only >= 0 ? [only, only] : [0, Math.min(used, k - 1)];
    for (let c = first; c <= last; c++) {
      if (++nodes > maxNodes) return undefined;
      colour[i] = c;
      const mark = trail.length;
      const done = consistent(i) ? extend(i + 1, Math.max(used, c + 1), k) : false;
      if (done !== false) return done;
      while (trail.length > mark) forced[trail.pop()!] = -1;
    }
    return false;
  };

  for (let k = Math.max(1, lowerBound); k < n; k++) {
    colour.fill(0);
    forced.fill(-1);
    trail.length = 0;
    const done = extend(0, 0, k);
    if (done === undefined) return { kind: 'budget', nodes: maxNodes };
    if (done) return { kind: 'found', k: Math.max(...colour) + 1, colour, nodes };
  }
  return { kind: 'none', nodes };
}
