/**
 * Symbolic move classes for the parity route: a mover's letters partitioned by what they leave
 * of a vector of BDDs whose mover variables come first in the order.
 *
 * Each BDD is cut at the mover's levels: its *frontier* maps every node reached just below them
 * (a residual: a function of the later variables only) to the guard of the letters leading there.
 * The classes of a vector are the non-empty intersections of its members' frontier guards, one
 * per distinct residual vector; no letter is enumerated, and letters that leave the same
 * residuals are one class however the BDDs test them (a variable-by-variable split makes a
 * class per path). This is the split ltlsynt makes between a state and its successors, on the
 * product of small automata instead of one deterministic automaton.
 */
import { BDD_FALSE, BDD_TRUE, type BddManager, type BddNode } from '../automata/bdd.js';
import { dict, own } from '../../runtime/dict.js';
import type { Cube } from '../game/mealy.js';

export interface MoveClass {
  /** The mover's letters in this class (a BDD over its variables). */
  readonly guard: BddNode;
  /** What each BDD of the vector is, for these letters. */
  readonly residuals: readonly BddNode[];
}

/** Frontiers of BDDs below one mover's variables (variables with index < `bound`), memoised. */
export class Frontiers {
  private readonly memo = new Map<BddNode, ReadonlyMap<BddNode, BddNode>>();
  constructor(
    readonly bdd: BddManager,
    /** The mover's variables are those with index below `bound` and at least `from`. */
    private readonly from: number,
    private readonly bound: number,
    private readonly tick: () => void,
  ) {}

  /** Residual → guard of the letters leading to it (guards disjoint, covering every letter). */
  of(f: BddNode): ReadonlyMap<BddNode, BddNode> {
    if (f <= 1 || this.bdd.varOf(f) >= this.bound) return new Map([[f, BDD_TRUE]]);
    const hit = this.memo.get(f);
    if (hit) return hit;
    this.tick();
    const v = this.bdd.varOf(f);
    if (v < this.from) throw new Error('partition: a variable of the other mover above this one');
    const name = this.bdd.varName(v);
    const out = new Map<BddNode, BddNode>();
    for (const [side, lit] of [
      [this.bdd.low(f), this.bdd.literal(name, false)],
      [this.bdd.high(f), this.bdd.literal(name, true)],
    ] as const)
      for (const [r, g] of this.of(side)) {
        const guard = this.bdd.and(g, lit);
        const prev = out.get(r);
        out.set(r, prev === undefined ? guard : this.bdd.or(prev, guard));
      }
    this.memo.set(f, out);
    return out;
  }

  /**
   * The classes of `vector` within `within` (a guard over the mover's letters, e.g. one-hot TSL
   * signals): one per distinct residual vector.
   */
  classes(vector: readonly BddNode[], within: BddNode = BDD_TRUE): MoveClass[] {
    let classes: Array<{ guard: BddNode; residuals: BddNode[] }> = [{ guard: within, residuals: [] }];
    for (const f of vector) {
      const frontier = this.of(f);
      if (frontier.size === 1) {
        const r = frontier.keys().next().value as BddNode;
        for (const c of classes) c.residuals.push(r);
        continue;
      }
      const next: typeof classes = [];
      for (const c of classes)
        for (const [r, g] of frontier) {
          const guard = this.bdd.and(c.guard, g);
          if (guard === BDD_FALSE) continue;
          next.push({ guard, residuals: [...c.residuals, r] });
        }
      classes = next;
      this.tick();
    }
    return classes;
  }
}

/**
 * Disjoint cubes covering a guard: its BDD's paths to `true` (each cube mentions the variables
 * its path tests). `poll` is called once per cube: a guard can have hundreds of thousands of
 * paths (the outputs one state of ModdifiedLedMatrix4X's counterstrategy answers: 215,424),
 * and a caller with a deadline must be able to stop there.
 */
export function pathCubes(bdd: BddManager, guard: BddNode, poll: () => void = () => {}): Cube[] {
  const out: Cube[] = [];
  // Names are the user's (a proposition may be called __proto__): null-prototype records.
  const path: Record<string, boolean> = dict();
  const go = (n: BddNode) => {
    if (n === BDD_FALSE) return;
    if (n === BDD_TRUE) {
      poll();
      out.push(dict(Object.entries(path)));
      return;
    }
    const name = bdd.varName(bdd.varOf(n));
    path[name] = false;
    go(bdd.low(n));
    path[name] = true;
    go(bdd.high(n));
    delete path[name];
  };
  go(guard);
  return out;
}

/**
 * One cube inside a (satisfiable) guard, taking the preferred value of each variable it tests
 * where the guard allows (unlisted variables prefer false); untested variables stay open.
 */
export function preferredCube(bdd: BddManager, guard: BddNode, preferred: Cube = dict()): Cube {
  if (guard === BDD_FALSE) throw new Error('partition: a cube of the empty guard');
  const out: Record<string, boolean> = dict();
  let n = guard;
  while (n > 1) {
    const name = bdd.varName(bdd.varOf(n));
    const want = own(preferred, name) ?? false;
    const next = want ? bdd.high(n) : bdd.low(n);
    if (next !== BDD_FALSE) {
      out[name] = want;
      n = next;
    } else {
      out[name] = !want;
      n = want ? bdd.low(n) : bdd.high(n);
    }
  }
  return out;
}
