/**
 * Exact minimization of extracted controllers (backtracking, then SAT; for small machines).
 *
 * A controller leaves outputs free (missing from a cube), so two states that never disagree on an
 * output they both fix can merge even though they are not bisimilar: this is minimization of an
 * incompletely specified machine. We look for the fewest classes (colours) such that every class
 * is *compatible* (no two members fix an output differently on a shared input letter) and
 * *closed* (members' successors on a shared letter share a class). The merged machine's runs are
 * runs of the original with output freedom narrowed, so it satisfies whatever the original did;
 * the caller still verifies it independently.
 *
 * The minimum is first sought by backtracking (colouring.ts), which settles the small machines
 * most specs produce without loading MiniSat; only when its node budget runs out is the same
 * question put to the SAT solver.
 *
 * The budgets are deterministic (state, node and clause counts, never wall-clock time): generated
 * modules are compared byte-for-byte by `tslc compile --check`, so the same controller must come
 * out on every machine. MiniSat (logic-solver) is itself deterministic.
 */
import type LogicSolver from 'logic-solver';
import type { Cube, MealyMachine, MealyTransition } from '../game/mealy.js';
import { dict, mergeDicts } from '../../runtime/dict.js';
import { minimumColouring } from './colouring.js';
import { compatibleAt, packCubes } from './cube-bits.js';
import { minimizeMealy } from './extract.js';

/**
 * MiniSat compiled to JS takes ~140 ms to load, more than solving most corpus specs, so it is
 * required (synchronously: synthesis is synchronous) only when a SAT instance is really built.
 * `node:module` itself is fetched only then too: loading it (with Node's ES module loader) was
 * 0.25 ms of every `tslc check`, which rarely needs MiniSat.
 */
let logic: typeof LogicSolver | undefined;
function loadLogic(): typeof LogicSolver {
  logic ??= process.getBuiltinModule('node:module').createRequire(import.meta.url)('logic-solver') as typeof LogicSolver;
  return logic;
}

/**
 * A lower bound on the colours any valid partition needs: the size of a greedily built set of
 * pairwise incompatible states (a clique of the incompatibility graph). When it equals n, the
 * machine is already minimal and no SAT instance is needed.
 */
function incompatibleCliqueSize(incompatible: readonly boolean[][], n: number): number {
  let best = 0;
  for (let start = 0; start < n; start++) {
    const clique = [start];
    for (let s = 0; s < n; s++)
      if (s !== start && clique.every((t) => incompatible[Math.min(s, t)][Math.max(s, t)])) clique.push(s);
    best = Math.max(best, clique.length);
    if (best === n) break;
  }
  return best;
}

export interface ExactBudget {
  /** Largest (bisimulation-minimized) controller we try to shrink. */
  readonly maxStates: number;
  /** Largest SAT instance, in clauses. */
  readonly maxClauses: number;
}

export const DEFAULT_EXACT_BUDGET: ExactBudget = { maxStates: 20, maxClauses: 60_000 };

/** Intersection of two cubes, or undefined when they conflict. */
function meet(a: Cube, b: Cube): Cube | undefined {
  const out = mergeDicts(a);
  for (const k in b) {
    if (Object.hasOwn(out, k) && out[k] !== b[k]) return undefined;
    out[k] = b[k];
  }
  return out;
}

/**
 * Search nodes the backtracking colouring may spend per call before handing the machine to
 * MiniSat. Machines of up to 20 states settle far below this; it only bounds pathological ones.
 */
export const DEFAULT_SEARCH_NODES = 100_000;

/** Internal knobs, for tests. */
export interface ExactOptions {
  /** Node budget of the backtracking search; 0 sends every machine straight to MiniSat. */
  readonly searchNodes?: number;
}

/** A minimum colouring of the bisimulation-minimized machine `m`, and which path found it. */
export interface ExactColouring {
  readonly m: MealyMachine;
  readonly byState: readonly MealyTransition[][];
  readonly k: number;
  readonly colour: Int32Array;
  readonly path: 'search' | 'sat';
  /** Backtracking nodes spent (the whole budget when the SAT path answered). */
  readonly searchNodes: number;
}

let satRuns = 0;
/** How many times the SAT path has run in this process (tests check the search settles small machines). */
export function satRunCount(): number {
  return satRuns;
}

/**
 * The smallest machine found within the budget whose behaviour the (bisimulation-minimized)
 * input allows; `undefined` when the budget is exceeded or nothing smaller exists.
 */
export function exactMinimize(machine: MealyMachine, budget: ExactBudget = DEFAULT_EXACT_BUDGET, options: ExactOptions = {}): MealyMachine | undefined {
  const found = exactColouring(machine, budget, options);
  return found && minimizeMealy(merge(found.m, found.byState, found.colour, found.k));
}

/**
 * The fewest colours (< the bisimulation-minimized state count) for a valid partition, by
 * backtracking within `options.searchNodes`, else by SAT within `budget.maxClauses`.
 */
export function exactColouring(machine: MealyMachine, budget: ExactBudget = DEFAULT_EXACT_BUDGET, options: ExactOptions = {}): ExactColouring | undefined {
  const m = minimizeMealy(machine);
  const n = m.stateCount;
  if (n <= 1 || n > budget.maxStates) return undefined;
  const byState: MealyTransition[][] = Array.from({ length: n }, () => []);
  // The same moves by index into m.transitions, whose cubes are packed for the pairwise tests.
  const movesOf: number[][] = Array.from({ length: n }, () => []);
  m.transitions.forEach((t, i) => {
    byState[t.from].push(t);
    movesOf[t.from].push(i);
  });
  const inputs = packCubes(m.transitions.map((t) => t.input));
  const outputs = packCubes(m.transitions.map((t) => t.output));

  // Pairwise relations: incompatible pairs, and closure obligations (s,t) ⇒ (s',t'). The
  // obligations of an incompatible pair are never read (the pair never shares a colour). With
  // `repeats`, an obligation is listed once per pair of moves that implies it, as the SAT
  // encoding's clause budget has always counted them; the search needs each only once.
  const relations = (repeats: boolean) => {
    const incompatible: boolean[][] = Array.from({ length: n }, () => new Array<boolean>(n).fill(false));
    const implied: [number, number][][][] = Array.from({ length: n }, () => Array.from({ length: n }, () => []));
    for (let s = 0; s < n; s++)
      for (let t = s + 1; t < n; t++) {
        const listed = new Set<number>();
        scan: for (const a of movesOf[s])
          for (const b of movesOf[t]) {
            if (!compatibleAt(inputs, a, b)) continue;
            if (!compatibleAt(outputs, a, b)) {
              incompatible[s][t] = true;
              implied[s][t].length = 0;
              break scan;
            }
            const to = [m.transitions[a].to, m.transitions[b].to];
            if (to[0] === to[1]) continue;
            const [u, v] = to[0] < to[1] ? to : [to[1], to[0]];
            if (!repeats && listed.has(u * n + v)) continue;
            listed.add(u * n + v);
            implied[s][t].push([u, v]);
          }
      }
    return { incompatible, implied };
  };
  const { incompatible, implied } = relations(false);

  const lowerBound = incompatibleCliqueSize(incompatible, n);
  if (lowerBound === n) return undefined;

  const searched = minimumColouring({ n, incompatible, implied }, lowerBound, options.searchNodes ?? DEFAULT_SEARCH_NODES);
  if (searched.kind === 'none') return undefined;
  if (searched.kind === 'found') return { m, byState, k: searched.k, colour: searched.colour, path: 'search', searchNodes: searched.nodes };
  const sat = satColouring(n, incompatible, relations(true).implied, budget);
  return sat && { m, byState, ...sat, path: 'sat', searchNodes: searched.nodes };
}

/** The SAT encoding: fewest colours first, the first satisfiable bound is the minimum. */
function satColouring(
  n: number,
  incompatible: readonly boolean[][],
  implied: readonly [number, number][][][],
  budget: ExactBudget,
): { k: number; colour: Int32Array } | undefined {
  // Colours 0..n-2 (n-1 colours would already beat bisimulation); state 0 (initial) gets colour 0
  // and state i only colours ≤ i (symmetry breaking).
  const colours = n - 1;
  const x = (s: number, c: number) => `x${s}_${c}`;
  const e = (s: number, t: number) => `e${s}_${t}`;
  const clauses: string[][] = [];
  for (let s = 0; s < n; s++) {
    const allowed = Math.min(s + 1, colours);
    clauses.push(Array.from({ length: allowed }, (_, c) => x(s, c)));
    for (let c = allowed; c < colours; c++) clauses.push([`-${x(s, c)}`]);
    for (let c = 0; c < allowed; c++) for (let d = c + 1; d < allowed; d++) clauses.push([`-${x(s, c)}`, `-${x(s, d)}`]);
  }
  for (let s = 0; s < n; s++)
    for (let t = s + 1; t < n; t++) {
      if (incompatible[s][t]) {
        clauses.push([`-${e(s, t)}`]);
        for (let c = 0; c < colours; c++) clauses.push([`-${x(s, c)}`, `-${x(t, c)}`]);
        continue;
      }
      for (let c = 0; c < colours; c++) {
        // e(s,t) ⇔ s and t share a colour.
        clauses.push([`-${x(s, c)}`, `-${x(t, c)}`, e(s, t)]);
        clauses.push([`-${e(s, t)}`, `-${x(s, c)}`, x(t, c)]);
      }
      for (const [u, v] of implied[s][t]) clauses.push([`-${e(s, t)}`, e(u, v)]);
      if (clauses.length > budget.maxClauses) return undefined;
    }
  if (clauses.length > budget.maxClauses) return undefined;

  satRuns++;
  const Logic = loadLogic();
  const solver = new Logic.Solver();
  for (const c of clauses) solver.require(Logic.or(...c));
  for (let k = 1; k < n; k++) {
    const unused: string[] = [];
    for (let s = 0; s < n; s++) for (let c = k; c < colours; c++) unused.push(`-${x(s, c)}`);
    const solution = unused.length > 0 ? solver.solveAssuming(Logic.and(...unused)) : solver.solve();
    if (!solution) continue;
    const colour = new Int32Array(n);
    for (const v of solution.getTrueVars()) {
      const match = /^x(\d+)_(\d+)$/.exec(v);
      if (match) colour[Number(match[1])] = Number(match[2]);
    }
    return { k, colour };
  }
  return undefined;
}

/** The machine whose state c stands for the class of original states coloured c. */
function merge(m: MealyMachine, byState: readonly MealyTransition[][], colour: Int32Array, k: number): MealyMachine {
  const transitions: MealyTransition[] = [];
  for (let c = 0; c < k; c++) {
    const members = [...byState.keys()].filter((s) => colour[s] === c);
    // Refine the members' input cubes into common regions; on each, outputs are compatible and
    // successors share a colour (the SAT constraints), so their meet is a valid move for all.
    let regions: { input: Cube; output: Cube; to: number }[] = [{ input: dict(), output: dict(), to: -1 }];
    for (const s of members) {
      const next: typeof regions = [];
      for (const r of regions)
        for (const t of byState[s]) {
          const input = meet(r.input, t.input);
          if (!input) continue;
          const output = meet(r.output, t.output);
          if (!output) throw new Error('exact minimization: incompatible states merged');
          next.push({ input, output, to: colour[t.to] });
        }
      regions = next;
    }
    for (const r of regions) transitions.push({ from: c, input: r.input, output: r.output, to: r.to });
  }
  return { ...m, stateCount: k, initial: colour[m.initial], transitions };
}
