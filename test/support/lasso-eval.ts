/**
 * A direct LTL evaluator on lasso words (prefix · cycle^ω) for conformance tests, sharing no code
 * with `src/` (in particular not `src/automata/lasso.ts`): it is the independent judge that
 * confirms or refutes what our translator claims. Also owns seeded random lasso generation.
 *
 * Speed on huge formulas comes from two choices. Lassos of the same shape (prefix and cycle
 * lengths) are evaluated 32 at a time, one per bit of an Int32 ("lanes"); and the tree's nodes
 * are swept once bottom-up, each node's value vector freed as soon as its last parent is done.
 */
// The project's one seeded generator (runtime/, not src/: it judges nothing, only draws words).
import { mulberry32 } from '../../runtime/random.js';
import { isBinary, type LtlTree, Op } from './ltl-tree.js';

/** One letter: the atoms that hold at that step (all others are false). */
export type Letter = readonly string[];

/** The word prefix · cycle^ω; `cycle` is non-empty. */
export interface Lasso {
  readonly prefix: readonly Letter[];
  readonly cycle: readonly Letter[];
}

/**
 * Up to 32 lassos of one shape. `bits.get(atom)[i]` has bit k set when the atom holds at
 * position i of lasso k; position `prefixLength + cycleLength - 1` is followed by position
 * `prefixLength`.
 */
export interface LassoBatch {
  readonly prefixLength: number;
  readonly cycleLength: number;
  readonly lanes: number;
  readonly bits: ReadonlyMap<string, Int32Array>;
}

export function laneMask(lanes: number): number {
  return lanes >= 32 ? -1 : (1 << lanes) - 1;
}

/** Packs lassos of equal prefix and cycle lengths into one batch. */
export function packLassos(words: readonly Lasso[]): LassoBatch {
  if (words.length === 0 || words.length > 32) throw new Error(`packLassos: need 1..32 lassos, got ${words.length}`);
  const prefixLength = words[0].prefix.length;
  const cycleLength = words[0].cycle.length;
  if (cycleLength === 0) throw new Error('packLassos: empty cycle');
  const n = prefixLength + cycleLength;
  const bits = new Map<string, Int32Array>();
  words.forEach((w, lane) => {
    if (w.prefix.length !== prefixLength || w.cycle.length !== cycleLength) throw new Error('packLassos: lassos of different shapes');
    [...w.prefix, ...w.cycle].forEach((letter, i) => {
      for (const a of letter) {
        let v = bits.get(a);
        if (!v) bits.set(a, (v = new Int32Array(n)));
        v[i] |= 1 << lane;
      }
    });
  });
  return { prefixLength, cycleLength, lanes: words.length, bits };
}

/** Lasso number `lane` of a batch. */
export function unpackLane(batch: LassoBatch, lane: number): Lasso {
  const n = batch.prefixLength + batch.cycleLength;
  const letters: string[][] = Array.from({ length: n }, () => []);
  for (const [a, v] of [...batch.bits].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))
    for (let i = 0; i < n; i++) if ((v[i] >>> lane) & 1) letters[i].push(a);
  return { prefix: letters.slice(0, batch.prefixLength), cycle: letters.slice(batch.prefixLength) };
}

/**
 * The truth of the formula at position 0 of every lasso in the batch, as a lane mask (bit k for
 * lasso k, as an unsigned number). Nodes not below the root are skipped.
 */
export function evaluateBatch(tree: LtlTree, batch: LassoBatch): number {
  const p = batch.prefixLength;
  const n = p + batch.cycleLength;
  const live = tree.reachable();
  const parents = new Int32Array(tree.size);
  for (let i = 0; i <= tree.root; i++) {
    if (!live[i]) continue;
    const op = tree.op[i];
    if (op === Op.ap || op === Op.true || op === Op.false) continue;
    parents[tree.left[i]]++;
    if (isBinary(op)) parents[tree.right[i]]++;
  }
  const ONES = new Int32Array(n).fill(-1);
  const ZEROS = new Int32Array(n);
  const values: (Int32Array | null)[] = new Array(tree.size).fill(null);
  const owned = new Uint8Array(tree.size);
  const pool: Int32Array[] = [];
  const fresh = () => pool.pop() ?? new Int32Array(n);
  const release = (k: number) => {
    if (--parents[k] > 0) return;
    if (owned[k]) pool.push(values[k]!);
    values[k] = null;
  };

  for (let i = 0; i <= tree.root; i++) {
    if (!live[i]) continue;
    const op = tree.op[i];
    if (op === Op.true) values[i] = ONES;
    else if (op === Op.false) values[i] = ZEROS;
    else if (op === Op.ap) values[i] = batch.bits.get(tree.names[tree.left[i]]) ?? ZEROS;
    else {
      const a = values[tree.left[i]]!;
      const b = isBinary(op) ? values[tree.right[i]]! : ZEROS;
      const v = fresh();
      switch (op) {
        case Op.not:
          for (let k = 0; k < n; k++) v[k] = ~a[k];
          break;
        case Op.and:
          for (let k = 0; k < n; k++) v[k] = a[k] & b[k];
          break;
        case Op.or:
          for (let k = 0; k < n; k++) v[k] = a[k] | b[k];
          break;
        case Op.implies:
          for (let k = 0; k < n; k++) v[k] = ~a[k] | b[k];
          break;
        case Op.iff:
          for (let k = 0; k < n; k++) v[k] = ~(a[k] ^ b[k]);
          break;
        case Op.xor:
          for (let k = 0; k < n; k++) v[k] = a[k] ^ b[k];
          break;
        case Op.X:
          for (let k = 0; k < n - 1; k++) v[k] = a[k + 1];
          v[n - 1] = a[p];
          break;
        // All the rest are v = P ∨ (Q ∧ X v), least (F, U, M) or greatest (G, W, R) fixpoints.
        case Op.F:
          untilFixpoint(v, a, ONES, false, p);
          break;
        case Op.G:
          untilFixpoint(v, ZEROS, a, true, p);
          break;
        case Op.U:
          untilFixpoint(v, b, a, false, p);
          break;
        case Op.W:
          untilFixpoint(v, b, a, true, p);
          break;
        // a R b = b ∧ (a ∨ X(a R b)) = (a ∧ b) ∨ (b ∧ X(a R b)).
        case Op.R:
        case Op.M: {
          const both = fresh();
          for (let k = 0; k < n; k++) both[k] = a[k] & b[k];
          untilFixpoint(v, both, b, op === Op.R, p);
          pool.push(both);
          break;
        }
        default:
          throw new Error(`evaluateBatch: unknown operator ${op}`);
      }
      values[i] = v;
      owned[i] = 1;
      release(tree.left[i]);
      if (isBinary(op)) release(tree.right[i]);
    }
  }
  return (values[tree.root]![0] & laneMask(batch.lanes)) >>> 0;
}

/**
 * v[i] = P[i] ∨ (Q[i] ∧ v[i+1]) on the lasso, least or greatest solution. One backward pass
 * round the cycle from the extreme guess makes the loop start exact (its witness, if any, lies
 * within one turn of the cycle), a second pass makes the whole cycle exact, and one pass over
 * the prefix finishes.
 */
function untilFixpoint(v: Int32Array, P: Int32Array, Q: Int32Array, greatest: boolean, p: number): void {
  const n = v.length;
  let carry = greatest ? -1 : 0;
  for (let pass = 0; pass < 2; pass++) {
    for (let k = n - 1; k >= p; k--) carry = v[k] = P[k] | (Q[k] & carry);
    carry = v[p];
  }
  for (let k = p - 1; k >= 0; k--) v[k] = P[k] | (Q[k] & v[k + 1]);
}

/** The truth of the formula on one lasso. */
export function evaluateLasso(tree: LtlTree, w: Lasso): boolean {
  return evaluateBatch(tree, packLassos([w])) === 1;
}

export interface RandomLassoOptions {
  readonly seed?: number;
  /** At least this many lassos (rounded up to whole batches of 32). */
  readonly words?: number;
  /**
   * Groups of atoms of which exactly one holds at each step (TSL's one update per signal): most
   * words respect them, or a spec whose guarantee includes that constraint is false on nearly
   * every random word and the check says nothing.
   */
  readonly oneHot?: readonly (readonly string[])[];
}

/** Shapes as [min prefix, max prefix, min cycle, max cycle], tried in turn. */
const SHAPES: readonly (readonly [number, number, number, number])[] = [
  [0, 3, 1, 3],
  [0, 8, 1, 8],
  [10, 40, 1, 4], // differences only after a long prefix
  [0, 4, 8, 24], // differences only over a long cycle
  [0, 2, 1, 2],
  [2, 12, 2, 12],
];
/** Lane styles' atom densities: balanced, mostly false, mostly true, and near-constant. */
const DENSITIES = [0.5, 0.15, 0.85, 0.03, 0.97, 0.3, 0.7];

/**
 * Random lassos over `atoms`, 32 per batch. Shapes vary from batch to batch; within a batch each
 * lane has its own style: an atom density (most atoms false or true makes guards and assumptions
 * true far more often than coin flips do), per-atom skew, "sticky" words whose letters mostly
 * repeat (so F/G patterns settle), and, when groups are given, one-hot letters.
 */
export function randomLassoBatches(atoms: readonly string[], options: RandomLassoOptions = {}): LassoBatch[] {
  const rand = mulberry32(options.seed ?? 1);
  const count = Math.ceil((options.words ?? 224) / 32);
  const groups = (options.oneHot ?? []).filter((g) => g.length > 0);
  const inGroup = new Set(groups.flat());
  const free = [...new Set(atoms)].filter((a) => !inGroup.has(a)).sort();
  const all = [...free, ...new Set(groups.flat())];
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const batches: LassoBatch[] = [];
  for (let b = 0; b < count; b++) {
    const [p0, p1, c0, c1] = SHAPES[b % SHAPES.length];
    const p = int(p0, p1);
    const n = p + int(c0, c1);
    const bits = new Map<string, Int32Array>(all.map((a) => [a, new Int32Array(n)]));
    for (let lane = 0; lane < 32; lane++) {
      const bit = 1 << lane;
      const density = DENSITIES[int(0, DENSITIES.length - 1)];
      const skew = new Map(free.map((a) => [a, rand() < 0.7 ? density : rand()]));
      const sticky = rand() < 0.3 ? 0.85 : 0;
      const oneHot = groups.length > 0 && rand() < 0.8;
      // Within a group, a favourite member (TSL: mostly keep the value) is chosen more often.
      const favourite = groups.map((g) => int(0, g.length - 1));
      for (let i = 0; i < n; i++) {
        const repeat = i > 0 && rand() < sticky;
        for (const a of free) {
          const v = bits.get(a)!;
          const on = repeat ? (v[i - 1] & bit) !== 0 : rand() < skew.get(a)!;
          if (on) v[i] |= bit;
        }
        groups.forEach((g, k) => {
          if (oneHot) {
            const pick = repeat ? -1 : rand() < 0.5 ? favourite[k] : int(0, g.length - 1);
            g.forEach((a, j) => {
              const v = bits.get(a)!;
              const on = pick < 0 ? (v[i - 1] & bit) !== 0 : j === pick;
              if (on) v[i] |= bit;
            });
          } else {
            for (const a of g) if (rand() < density) bits.get(a)![i] |= bit;
          }
        });
      }
    }
    batches.push({ prefixLength: p, cycleLength: n - p, lanes: 32, bits });
  }
  return batches;
}

/** `{a,b} {} ({b})^ω`: the atoms true at each step. */
export function formatLasso(w: Lasso): string {
  const letter = (l: Letter) => `{${[...l].sort().join(',')}}`;
  const prefix = w.prefix.map(letter).join(' ');
  return `${prefix}${prefix ? ' ' : ''}(${w.cycle.map(letter).join(' ')})^ω`;
}
