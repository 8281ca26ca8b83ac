/**
 * The LTL3 automaton monitor (Bauer, Leucker, Schallhart): complete three-valued verdicts where
 * progression can stay pending too long. It runs two Büchi automata given as plain data — one for
 * the property, one for its negation — with each state marked live when an accepting run is still
 * possible from it. After a prefix, the property is violated when no live state of the positive
 * automaton is reachable, and satisfied when none of the negative one is. Subset steps are
 * memoised per (subset, labels), so the monitor becomes a lazily built DFA.
 *
 * The automata are built by the compiler (`src/audit/automaton.ts`); the runtime only reads JSON.
 */
import type { LtlNode } from '../ltl/syntax.js';
import type { Labels, Verdict } from './progression.js';
import { own } from '../dict.js';

export interface MonitorPart {
  readonly initial: readonly number[];
  readonly states: readonly {
    /** Some accepting run starts here. */
    readonly live: boolean;
    /** Guards are propositional formulas over the automaton's `aps`. */
    readonly edges: readonly { readonly to: number; readonly guard: LtlNode }[];
  }[];
}

export interface MonitorAutomaton {
  readonly version: 1;
  readonly aps: readonly string[];
  /** Automaton of the property. */
  readonly positive: MonitorPart;
  /** Automaton of its negation. */
  readonly negative: MonitorPart;
}

type Guard = (v: ArrayLike<number>) => boolean;

function compileGuard(g: LtlNode, index: ReadonlyMap<string, number>): Guard {
  switch (g.op) {
    case 'true':
      return () => true;
    case 'false':
      return () => false;
    case 'ap': {
      const i = index.get(g.name);
      if (i === undefined) throw new Error(`guard mentions unknown proposition '${g.name}'`);
      return (v) => v[i] === 1;
    }
    case '!': {
      const a = compileGuard(g.arg, index);
      return (v) => !a(v);
    }
    case '&':
    case '|': {
      const parts = g.args.map((x) => compileGuard(x, index));
      return g.op === '&' ? (v) => parts.every((p) => p(v)) : (v) => parts.some((p) => p(v));
    }
    case '->':
    case '<->':
    case 'xor': {
      const a = compileGuard(g.left, index);
      const b = compileGuard(g.right, index);
      if (g.op === '->') return (v) => !a(v) || b(v);
      if (g.op === '<->') return (v) => a(v) === b(v);
      return (v) => a(v) !== b(v);
    }
    default:
      throw new Error(`automaton guards must be propositional, found '${g.op}'`);
  }
}

/**
 * Subset construction on the fly: subsets of live states are interned to ids, and each id gets a
 * row of successors per label mask, filled on first use.
 */
class PartRunner {
  private readonly edges: { to: number; guard: Guard }[][];
  private readonly subsets: number[][] = [];
  private readonly ids = new Map<string, number>();
  private readonly rows: (number | undefined)[][] = [];
  readonly start: number;

  constructor(
    part: MonitorPart,
    index: ReadonlyMap<string, number>,
    private readonly rowSize: number,
  ) {
    this.edges = part.states.map((s) => s.edges.filter((e) => part.states[e.to]?.live).map((e) => ({ to: e.to, guard: compileGuard(e.guard, index) })));
    this.start = this.intern([...new Set(part.initial.filter((s) => part.states[s]?.live))]);
  }

  private intern(states: number[]): number {
    states.sort((a, b) => a - b);
    const key = states.join(',');
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.subsets.length;
      this.subsets.push(states);
      this.ids.set(key, id);
      this.rows.push(this.rowSize > 0 ? new Array<number | undefined>(this.rowSize).fill(undefined) : []);
    }
    return id;
  }

  isEmpty(id: number): boolean {
    return this.subsets[id].length === 0;
  }

  step(current: number, values: ArrayLike<number>, mask: number | undefined): number {
    const row = this.rows[current];
    if (mask !== undefined) {
      const hit = row[mask];
      if (hit !== undefined) return hit;
    }
    const next = new Set<number>();
    for (const s of this.subsets[current]) for (const e of this.edges[s]) if (e.guard(values)) next.add(e.to);
    const id = this.intern([...next]);
    if (mask !== undefined) row[mask] = id;
    return id;
  }
}

/** One property's LTL3 monitor. */
export class AutomatonMonitor {
  readonly aps: readonly string[];
  private readonly pos: PartRunner;
  private readonly neg: PartRunner;
  private posSet: number;
  private negSet: number;
  /** Scratch for `step` (shared by `fresh()` copies: single-threaded, never held across calls). */
  private readonly values: Uint8Array;
  private stepCount = 0;
  private decidedAt: number | undefined;

  constructor(automaton: MonitorAutomaton) {
    if (automaton.version !== 1) throw new Error(`unsupported monitor automaton version ${String(automaton.version)}`);
    this.aps = automaton.aps;
    const index = new Map(automaton.aps.map((a, i) => [a, i]));
    // Masks (and memo rows) only for automata over at most 24 propositions; dense rows up to 12.
    const rowSize = automaton.aps.length <= 12 ? 1 << automaton.aps.length : 0;
    this.pos = new PartRunner(automaton.positive, index, rowSize);
    this.neg = new PartRunner(automaton.negative, index, rowSize);
    this.posSet = this.pos.start;
    this.negSet = this.neg.start;
    this.values = new Uint8Array(automaton.aps.length);
  }

  get verdict(): Verdict {
    if (this.pos.isEmpty(this.posSet)) return 'violated';
    if (this.neg.isEmpty(this.negSet)) return 'satisfied';
    return 'pending';
  }

  get steps(): number {
    return this.stepCount;
  }

  /** Step at which the verdict became final, if it has. */
  get decidedStep(): number | undefined {
    return this.decidedAt;
  }

  /**
   * A new monitor in the initial state sharing this one's compiled automata and memo tables: an
   * auditor keeps one per open run, at the cost of a few numbers each.
   */
  fresh(): AutomatonMonitor {
    const m: AutomatonMonitor = Object.create(AutomatonMonitor.prototype);
    Object.assign(m, { aps: this.aps, pos: this.pos, neg: this.neg, values: this.values, posSet: this.pos.start, negSet: this.neg.start, stepCount: 0, decidedAt: undefined });
    return m;
  }

  /** Start again from the initial states (recovery after a verdict). */
  reset(): void {
    this.posSet = this.pos.start;
    this.negSet = this.neg.start;
    this.decidedAt = undefined;
  }

  step(labels: Labels): Verdict {
    const v = this.values;
    if (labels instanceof Set) for (let i = 0; i < this.aps.length; i++) v[i] = labels.has(this.aps[i]) ? 1 : 0;
    else {
      const rec = labels as Readonly<Record<string, boolean | undefined>>;
      for (let i = 0; i < this.aps.length; i++) v[i] = own(rec, this.aps[i]) ? 1 : 0;
    }
    return this.stepValues(v);
  }

  /** `values[i]` is the truth (0/1) of `aps[i]`. */
  stepValues(values: ArrayLike<number>): Verdict {
    const step = this.stepCount++;
    if (this.verdict !== 'pending') return this.verdict;
    let mask: number | undefined;
    if (this.aps.length <= 24) {
      mask = 0;
      for (let i = 0; i < this.aps.length; i++) if (values[i]) mask |= 1 << i;
    }
    this.posSet = this.pos.step(this.posSet, values, mask);
    this.negSet = this.neg.step(this.negSet, values, mask);
    const verdict = this.verdict;
    if (verdict !== 'pending') this.decidedAt = step;
    return verdict;
  }
}
