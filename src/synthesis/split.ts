/**
 * Symbolic move enumeration: which letters of a step actually matter.
 *
 * A player's move is a choice in each of its *dimensions*: a free boolean proposition has two
 * options; a TSL signal has one option per update (exactly one update per step), so a spec with
 * signals of 3 updates each is a product of small sets instead of 2^|outputs| valuations. We split
 * the guards of the currently active automaton edges one dimension at a time (Shannon
 * cofactoring on hash-consed formulas) and only on dimensions the remaining guards still mention;
 * options that leave identical residual guards are merged. A spec with 20 predicates thus yields
 * only as many input classes as the guards of the current state distinguish.
 */
import { and, FALSE, type Formula, not, or, rebuild, TRUE, children } from '../ltl/formula.js';
import type { Cube } from '../game/mealy.js';
import { dict, mergeDicts } from '../../runtime/dict.js';
import type { Bdd, Node } from './bdd.js';

export interface Dimension {
  readonly vars: readonly string[];
  /** Each option assigns every var of the dimension. */
  readonly options: readonly Cube[];
  /** The option to use when the dimension does not matter (self-update, or false). */
  readonly preferred: number;
}

export interface SplitPart {
  /** Assignment of the dimensions that mattered (partial over the player's propositions). */
  readonly cube: Cube;
  /** The guards (BDD nodes) with the part's assignment applied. */
  readonly residual: readonly Node[];
  /**
   * Options merged into this part because they behave identically: for each split dimension
   * whose chosen option stood for others, the full list of equivalent options (chosen first).
   * Expanding them gives cubes that cover every valuation the part stands for.
   */
  readonly merged: readonly (readonly Cube[])[];
}

const atomCache = new Map<number, ReadonlySet<string>>();
export function atomsOf(f: Formula): ReadonlySet<string> {
  let hit = atomCache.get(f.id);
  if (hit) return hit;
  if (f.kind === 'ap') hit = new Set([f.name]);
  else {
    const s = new Set<string>();
    for (const c of children(f)) for (const a of atomsOf(c)) s.add(a);
    hit = s;
  }
  atomCache.set(f.id, hit);
  return hit;
}

const cofactorCache = new Map<string, Formula>();
/** f with proposition `name` replaced by `value`, simplified by the constructors. */
export function cofactor(f: Formula, name: string, value: boolean): Formula {
  if (f.kind === 'true' || f.kind === 'false') return f;
  if (!atomsOf(f).has(name)) return f;
  if (f.kind === 'ap') return value ? TRUE : FALSE;
  const key = `${f.id}|${value ? 1 : 0}${name}`;
  const hit = cofactorCache.get(key);
  if (hit) return hit;
  let result: Formula;
  if (f.kind === 'not') result = not(cofactor(f.arg, name, value));
  else if (f.kind === 'and') result = and(...f.args.map((a) => cofactor(a, name, value)));
  else if (f.kind === 'or') result = or(...f.args.map((a) => cofactor(a, name, value)));
  else result = rebuild(f, children(f).map((c) => cofactor(c, name, value)));
  if (cofactorCache.size > 2_000_000) cofactorCache.clear();
  cofactorCache.set(key, result);
  return result;
}

export function cofactorCube(f: Formula, cube: Cube): Formula {
  let g = f;
  for (const name in cube) g = cofactor(g, name, cube[name]);
  return g;
}

/** Dimensions for a player: signal groups first (one-hot options), then free booleans. */
export function dimensionsFor(
  props: readonly string[],
  groups: readonly { readonly updates: readonly string[]; readonly selfUpdate?: string }[],
): Dimension[] {
  const own = new Set(props);
  const grouped = new Set<string>();
  const dims: Dimension[] = [];
  for (const g of groups) {
    if (g.updates.length === 0 || !g.updates.every((u) => own.has(u))) continue;
    if (g.updates.some((u) => grouped.has(u))) continue;
    for (const u of g.updates) grouped.add(u);
    const options = g.updates.map((chosen) => dict(g.updates.map((u) => [u, u === chosen])));
    const self = g.selfUpdate === undefined ? -1 : g.updates.indexOf(g.selfUpdate);
    dims.push({ vars: g.updates, options, preferred: Math.max(0, self) });
  }
  for (const p of props)
    if (!grouped.has(p)) dims.push({ vars: [p], options: [dict([[p, false]]), dict([[p, true]])], preferred: 0 });
  return dims;
}

/** A player's dimensions, indexed for the BDD variable order. */
export interface MoverIndex {
  readonly dims: readonly Dimension[];
  /** Dimension of each BDD level (undefined for the other player's propositions). */
  readonly dimOfLevel: ReadonlyMap<number, number>;
  /** Per dimension: the levels of its vars, and each option's values in that order. */
  readonly levels: readonly (readonly number[])[];
  readonly values: readonly (readonly (readonly boolean[])[])[];
}

export function indexMover(bdd: Bdd, dims: readonly Dimension[]): MoverIndex {
  const dimOfLevel = new Map<number, number>();
  const levels = dims.map((d, i) =>
    d.vars.map((v) => {
      const l = bdd.levelOf.get(v)!;
      dimOfLevel.set(l, i);
      return l;
    }),
  );
  const values = dims.map((d) => d.options.map((o) => d.vars.map((v) => o[v])));
  return { dims, dimOfLevel, levels, values };
}

/**
 * Split the guard BDDs by the mover's dimensions until no guard depends on them. With `merge`,
 * options that leave identical residuals are merged (the cube then records only the preferred
 * one, or nothing for a single boolean); without it every option of a dimension that matters is
 * kept, so the parts cover every valuation that respects the dimensions.
 */
export function splitGuards(
  bdd: Bdd,
  guards: readonly Node[],
  mover: MoverIndex,
  merge: boolean,
  tick: () => void,
  /**
   * Guards whose edge leads into a universal rejecting sink: a branch that enables one loses for
   * the safety player at every bound, so it is cut off early (and reported in `pruned`).
   */
  fatal?: readonly boolean[],
  pruned?: SplitPart[],
  /**
   * Only the parts with inclusion-minimal sets of true guards are wanted (the safety player's
   * own choices: a superset of enabled edges is never better). A branch whose guards already
   * true include a part found earlier can only end in supersets, so it is cut off: with a dozen
   * TSL signals this skips most of the thousands of output combinations.
   */
  minimalOnly = false,
  /**
   * Only the parts with inclusion-maximal sets of true guards are wanted (the adversary's choices
   * in a game solved for the safety player: a subset of enabled edges is never worse for it). A
   * branch whose guards that are true or still open all lie inside a part found earlier can only
   * end in subsets, so it is cut off. Equivalent options are merged as well.
   */
  maximalOnly = false,
  /**
   * What a part keeps of the guard vector at its leaf (default: a copy of all of it). A move
   * table's second mover keeps just its enabled edges: copying hundreds of guards per part was
   * most of the enumeration's garbage.
   */
  summarize: (guardsAtLeaf: readonly Node[]) => readonly Node[] = (g) => g.slice(),
): LazyPart[] {
  const parts: LazyPart[] = [];
  const { dims } = mover;
  const foundTrue: number[][] = [];
  const foundMasks: Uint8Array[] = [];
  const coveredSoFar = (open: readonly number[]): boolean => {
    for (let m = 0; m < foundMasks.length; m++) {
      const mask = foundMasks[m];
      let inside = true;
      for (let o = 0; o < open.length; o++)
        if (mask[open[o]] === 0) {
          inside = false;
          break;
        }
      if (!inside) continue;
      for (let j = 0; j < cur.length && inside; j++) if (cur[j] === 1 && mask[j] === 0) inside = false;
      if (inside) return true;
    }
    return false;
  };
  const dominatedSoFar = (): boolean => {
    for (let s = 0; s < foundTrue.length; s++) {
      const set = foundTrue[s];
      let all = true;
      for (let i = 0; i < set.length; i++)
        if (cur[set[i]] !== 1) {
          all = false;
          break;
        }
      if (all) return true;
    }
    return false;
  };
  // One working vector, changed and restored around each branch (backtracking), and the indices
  // of its non-constant entries: guard vectors run to hundreds of entries, most of them decided
  // after a few splits, so each step costs the open entries only and a copy is made per part.
  const cur = guards.slice();
  // A guard already true and fatal prunes every branch (as soon as there is a split at all).
  const fatalFromStart = fatal !== undefined && guards.some((g, j) => g === 1 && fatal[j]);
  // Only touched entries can have become constant: reuse `open` when none did.
  const stillOpen = (open: readonly number[], touched: readonly number[]): readonly number[] =>
    touched.some((j) => cur[j] <= 1) ? open.filter((j) => cur[j] > 1) : open;
  // The options chosen on the current branch; a part's cube is built from them only when read
  // (spreading a cube object at every branch was a fifth of the enumeration's time, and most
  // parts are never read: only the strategy's choices are).
  const chosen: Cube[] = [];
  const part = (residual: readonly Node[], merged: readonly (readonly Cube[])[]) => new LazyPart(chosen.slice(), residual, merged);
  const rec = (open: readonly number[], merged: Cube[][]): void => {
    tick();
    let best = Infinity;
    for (let o = 0; o < open.length; o++) {
      const l = bdd.level(cur[open[o]]);
      if (l < best && mover.dimOfLevel.has(l)) best = l;
    }
    if (minimalOnly && dominatedSoFar()) return;
    if (maximalOnly && coveredSoFar(open)) return;
    if (best === Infinity) {
      if (minimalOnly) {
        const on: number[] = [];
        for (let j = 0; j < cur.length; j++) if (cur[j] === 1) on.push(j);
        foundTrue.push(on);
      }
      if (maximalOnly) {
        const mask = new Uint8Array(cur.length);
        for (let j = 0; j < cur.length; j++) if (cur[j] === 1) mask[j] = 1;
        foundMasks.push(mask);
      }
      parts.push(part(summarize(cur), merged));
      return;
    }
    const d = mover.dimOfLevel.get(best)!;
    const dim = dims[d];
    const single = dim.vars.length === 1;
    // Below the dimension's deepest level a guard cannot mention it (levels grow downwards).
    const deepest = single ? best : Math.max(...mover.levels[d]);
    const touched = open.filter((j) => (single ? bdd.level(cur[j]) === best : bdd.level(cur[j]) <= deepest));
    const order = orderOf(dim);
    // Two options are equivalent iff they change the same guards to the same nodes (a dimension
    // has a handful of options, so comparing change lists directly beats building string keys).
    type Branch = { option: Cube; changes: number[]; same: Cube[] };
    const branches: Branch[] = [];
    for (let oi = 0; oi < order.length; oi++) {
      const o = order[oi];
      const option = dim.options[o];
      const changes: number[] = [];
      for (let ti = 0; ti < touched.length; ti++) {
        const j = touched[ti];
        const g = cur[j];
        const next = single ? (option[dim.vars[0]] ? bdd.high(g) : bdd.low(g)) : bdd.restrict(g, mover.levels[d], mover.values[d][o], d * 1024 + o);
        if (next === g) continue;
        changes.push(j, next);
      }
      const earlier = merge ? branches.find((b) => sameChanges(b.changes, changes)) : undefined;
      if (earlier) {
        earlier.same.push(option);
        continue;
      }
      branches.push({ option, changes, same: [option] });
    }
    const saved = touched.map((j) => cur[j]);
    const restore = () => {
      for (let i = 0; i < touched.length; i++) cur[touched[i]] = saved[i];
    };
    if (merge && branches.length === 1 && single) {
      const { changes } = branches[0];
      for (let i = 0; i < changes.length; i += 2) cur[changes[i]] = changes[i + 1];
      rec(stillOpen(open, touched), merged);
      restore();
      return;
    }
    for (let bi = 0; bi < branches.length; bi++) {
      const b = branches[bi];
      const { changes } = b;
      let enablesFatal = false;
      for (let i = 0; i < changes.length; i += 2) {
        cur[changes[i]] = changes[i + 1];
        if (changes[i + 1] === 1 && fatal?.[changes[i]]) enablesFatal = true;
      }
      const nextMerged = b.same.length > 1 ? [...merged, b.same] : merged;
      chosen.push(b.option);
      if (enablesFatal || fatalFromStart) pruned?.push(part(cur.slice(), nextMerged));
      else rec(stillOpen(open, touched), nextMerged);
      chosen.pop();
      restore();
    }
  };
  const open: number[] = [];
  for (let j = 0; j < cur.length; j++) if (cur[j] > 1) open.push(j);
  rec(open, []);
  return parts;
}

const NO_RESIDUAL: readonly Node[] = [];

/** A part whose cube is assembled from the chosen options on first use. */
export class LazyPart implements SplitPart {
  #cube: Cube | undefined;
  constructor(
    private readonly options: readonly Cube[],
    readonly residual: readonly Node[],
    readonly merged: readonly (readonly Cube[])[],
  ) {}
  get cube(): Cube {
    this.#cube ??= mergeDicts(...this.options);
    return this.#cube;
  }
  /**
   * The same part without its residual guards, for keeping: a move table holds millions of
   * second-mover parts, whose residuals are dead once their enabled edges are known.
   */
  withoutResidual(): LazyPart {
    return new LazyPart(this.options, NO_RESIDUAL, this.merged);
  }
}

const optionOrder = new WeakMap<Dimension, readonly number[]>();
/** The dimension's options, preferred one first. */
function orderOf(dim: Dimension): readonly number[] {
  let order = optionOrder.get(dim);
  if (!order) optionOrder.set(dim, (order = [dim.preferred, ...[...dim.options.keys()].filter((o) => o !== dim.preferred)]));
  return order;
}

function sameChanges(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Complete a cube with the preferred option of every dimension it leaves open. */
export function completeCube(cube: Cube, dims: readonly Dimension[]): Cube {
  const out = mergeDicts(cube);
  for (const d of dims) {
    if (d.vars.some((v) => Object.hasOwn(out, v))) continue;
    const option = d.options[d.preferred];
    for (const v of Object.keys(option)) out[v] = option[v];
  }
  return out;
}

/** Every cube a part stands for: its cube with each merged dimension expanded. */
export function expandPart(part: SplitPart): Cube[] {
  let cubes: Cube[] = [part.cube];
  for (const options of part.merged) cubes = cubes.flatMap((c) => options.map((o) => mergeDicts(c, o)));
  return cubes;
}
