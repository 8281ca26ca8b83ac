/**
 * The progression monitor (TRAC, Algorithms 1 and 2 of Alamdari et al.): one LTL formula per named
 * property, progressed through every label set, with three-valued verdicts, witnesses and optional
 * recovery. Progression results are memoised per (formula, relevant labels), so after warm-up a
 * step is a few map look-ups per property.
 */
import type { LtlNode } from '../ltl/syntax.js';
import { K, type Term, TermStore, acceptsEmpty, normalize, progress, progressLast, termAps } from './terms.js';

export type Verdict = 'satisfied' | 'violated' | 'pending';
/** How a finished log is judged: LTL3 keeps pending as pending; LTLf treats the log as the whole trace. */
export type EndSemantics = 'ltl3' | 'ltlf';

export interface PropertySpec {
  readonly name: string;
  readonly formula: LtlNode;
}

/** Labels of one event: the set of true propositions, or a record (missing/false/undefined = false). */
export type Labels = ReadonlySet<string> | Readonly<Record<string, boolean | undefined>>;

export interface MonitorOptions {
  /** TRAC_R: after a verdict, count it and restart the property from its initial formula. */
  readonly recovery?: boolean;
  /**
   * With recovery: restart after every verdict (the paper's TRAC_R, default) or only after
   * violations (a satisfied property then stays satisfied; what auditors counting violations want).
   */
  readonly recoverAfter?: 'verdict' | 'violation';
  /** Keep at most this many witness entries per property (the most recent); default 200. */
  readonly witnessLimit?: number;
}

export interface WitnessEntry {
  /** 0-based index of the event in the monitored stream. */
  readonly step: number;
  /** Caller-supplied position of the event (e.g. its line in a log file), if given. */
  readonly at?: number;
  /** The property's propositions that were true at this step. */
  readonly labels: readonly string[];
  /** The progressed formula after this step (Spot syntax). */
  readonly formula: string;
}

export interface PropertyStatus {
  readonly name: string;
  readonly verdict: Verdict;
  /** Current progressed formula (Spot syntax). */
  readonly formula: string;
  readonly violations: number;
  readonly satisfactions: number;
  readonly firstViolationStep?: number;
  readonly firstViolationAt?: number;
  readonly firstSatisfactionStep?: number;
  /** Witness of the current (or, without recovery, final) progression. */
  readonly witness: readonly WitnessEntry[];
  /** Witness that led to the first violation (recovery mode resets the running witness). */
  readonly violationWitness?: readonly WitnessEntry[];
  /** Witness entries dropped because of `witnessLimit`. */
  readonly witnessDropped: number;
}

export interface FinalStatus extends PropertyStatus {
  readonly semantics: EndSemantics;
}

interface RawWitness {
  step: number;
  at: number | undefined;
  mask: number;
  term: Term;
}

interface PropState {
  readonly name: string;
  readonly initial: Term;
  /** Global ap indices this property mentions; bit i of a mask is apIdx[i]. */
  readonly apIdx: readonly number[];
  /** Memoised progression: term id → successor per label mask (a lazily built DFA). */
  readonly rows: Map<number, (Term | undefined)[]>;
  /** The row of `current` (kept beside it so a steady-state step is one array read). */
  row: (Term | undefined)[];
  current: Term;
  readonly onViolated: { name: string; verdict: Verdict };
  readonly onSatisfied: { name: string; verdict: Verdict };
  /** Formula before the most recent step and that step's mask (for LTLf end-of-trace). */
  prev: Term;
  lastMask: number;
  /** Global index of the step `prev`/`lastMask` describe (-1 before the first step). */
  lastStep: number;
  stepsSinceReset: number;
  verdict: Verdict;
  violations: number;
  satisfactions: number;
  firstViolationStep: number | undefined;
  firstViolationAt: number | undefined;
  firstSatisfactionStep: number | undefined;
  witness: WitnessLog;
  violationWitness: RawWitness[] | undefined;
}

/** Plain-JSON monitor state (snapshot / restore). */
export interface MonitorSnapshot {
  readonly version: 1;
  readonly options: { recovery: boolean; recoverAfter: 'verdict' | 'violation'; witnessLimit: number };
  readonly step: number;
  readonly properties: readonly {
    readonly name: string;
    readonly initial: LtlNode;
    readonly current: LtlNode;
    readonly prev: LtlNode;
    readonly lastLabels: readonly string[];
    /** Step index of `prev`/`lastLabels` (absent in older snapshots). */
    readonly lastStep?: number;
    readonly stepsSinceReset: number;
    readonly verdict: Verdict;
    readonly violations: number;
    readonly satisfactions: number;
    readonly firstViolationStep?: number;
    readonly firstViolationAt?: number;
    readonly firstSatisfactionStep?: number;
    readonly witness: readonly SnapshotWitness[];
    readonly witnessDropped: number;
    readonly violationWitness?: readonly SnapshotWitness[];
  }[];
}
interface SnapshotWitness {
  readonly step: number;
  readonly at?: number;
  readonly labels: readonly string[];
  readonly formula: LtlNode;
}

/** Label sets are bit masks over a property's propositions. */
const MAX_APS = 30;
/** Up to this many propositions a property's memo rows are dense arrays (2^12 entries). */
const DENSE_ROW_APS = 12;

export class ProgressionMonitor {
  private readonly store: TermStore;
  private readonly props: PropState[];
  private readonly recovery: boolean;
  private readonly recoverAfter: 'verdict' | 'violation';
  private readonly witnessLimit: number;
  private readonly values: Uint8Array;
  private stepCount = 0;

  constructor(properties: readonly PropertySpec[], options: MonitorOptions = {}) {
    this.store = new TermStore();
    this.recovery = options.recovery ?? false;
    this.recoverAfter = options.recoverAfter ?? 'verdict';
    this.witnessLimit = Math.max(1, options.witnessLimit ?? 200);
    const names = new Set<string>();
    for (const p of properties) {
      if (names.has(p.name)) throw new Error(`duplicate property name '${p.name}'`);
      names.add(p.name);
    }
    this.props = properties.map((p) => this.makeState(p.name, this.store.fromNode(p.formula)));
    for (const p of this.props) {
      if (p.apIdx.length > MAX_APS) {
        throw new MonitorLimitError(`property '${p.name}' mentions ${p.apIdx.length} atomic propositions; at most ${MAX_APS} are supported (split it into several properties)`);
      }
    }
    this.values = new Uint8Array(this.store.aps.length);
    for (const p of this.props) this.settle(p, p.current, 0, undefined);
  }

  /** Every atomic proposition any property mentions, in index order (for `stepValues`). */
  get aps(): readonly string[] {
    return this.store.aps;
  }
  get steps(): number {
    return this.stepCount;
  }
  get propertyNames(): readonly string[] {
    return this.props.map((p) => p.name);
  }
  /** Distinct formulas built so far (a proxy for memory: stays flat once every reachable formula is seen). */
  get formulaCount(): number {
    return this.store.termCount;
  }

  private makeState(name: string, initial: Term): PropState {
    const apIdx = [...termAps(initial)].sort((a, b) => a - b);
    return {
      name,
      initial,
      apIdx,
      rows: new Map(),
      row: [],
      onViolated: Object.freeze({ name, verdict: 'violated' as Verdict }),
      onSatisfied: Object.freeze({ name, verdict: 'satisfied' as Verdict }),
      current: initial,
      prev: initial,
      lastMask: 0,
      lastStep: -1,
      stepsSinceReset: 0,
      verdict: 'pending',
      violations: 0,
      satisfactions: 0,
      firstViolationStep: undefined,
      firstViolationAt: undefined,
      firstSatisfactionStep: undefined,
      witness: new WitnessLog(this.witnessLimit),
      violationWitness: undefined,
    };
  }

  /** Progress every property through one event's labels. Returns the properties whose verdict was reached at this step. */
  step(labels: Labels, at?: number): readonly { name: string; verdict: Verdict }[] {
    const aps = this.store.aps;
    const v = this.values;
    if (isSet(labels)) for (let i = 0; i < aps.length; i++) v[i] = labels.has(aps[i]) ? 1 : 0;
    else for (let i = 0; i < aps.length; i++) v[i] = labels[aps[i]] ? 1 : 0;
    return this.stepValues(v, at);
  }

  /** Fast path: `values[i]` is the truth of `aps[i]`. */
  stepValues(values: ArrayLike<number | boolean>, at?: number): readonly { name: string; verdict: Verdict }[] {
    const step = this.stepCount++;
    const TRUE = this.store.TRUE;
    const FALSE = this.store.FALSE;
    let reached: { name: string; verdict: Verdict }[] | undefined;
    for (const p of this.props) {
      // Decided and not restarted: nothing left to progress.
      if (p.current === TRUE || p.current === FALSE) continue;
      const idx = p.apIdx;
      let mask = 0;
      for (let i = 0; i < idx.length; i++) if (values[idx[i]]) mask |= 1 << i;
      const cur = p.current;
      let next = p.row[mask];
      if (next === undefined) {
        next = normalize(this.store, progress(this.store, cur, (ap) => Boolean(values[ap])));
        p.row[mask] = next;
      }
      p.prev = cur;
      p.lastMask = mask;
      p.lastStep = step;
      p.stepsSinceReset++;
      if (next !== cur) {
        const verdict = this.settle(p, next, step, at, mask);
        if (verdict !== 'pending') (reached ??= []).push(verdict === 'violated' ? p.onViolated : p.onSatisfied);
      }
    }
    return reached ?? NONE;
  }

  /** Record a new formula for `p`: witness, verdict, counters, recovery. */
  private settle(p: PropState, next: Term, step: number, at: number | undefined, mask = 0): Verdict {
    setCurrent(p, next);
    if (this.stepCount > 0) {
      p.witness.push(step, at, mask, next);
    }
    const verdict: Verdict = next.kind === K.False ? 'violated' : next.kind === K.True ? 'satisfied' : 'pending';
    if (verdict === 'pending') return verdict;
    if (verdict === 'violated') {
      p.violations++;
      if (p.firstViolationStep === undefined) {
        p.firstViolationStep = step;
        p.firstViolationAt = at;
        p.violationWitness = p.witness.raw();
      }
    } else {
      p.satisfactions++;
      p.firstSatisfactionStep ??= step;
    }
    p.verdict = verdict;
    if (this.recovery && this.stepCount > 0 && (verdict === 'violated' || this.recoverAfter === 'verdict')) {
      setCurrent(p, p.initial);
      p.witness.clear();
      p.stepsSinceReset = 0;
    }
    return verdict;
  }

  /** Verdicts so far. In recovery mode `verdict` is the latest verdict reached (or pending if none yet). */
  status(): PropertyStatus[] {
    return this.props.map((p) => this.describe(p, p.verdict));
  }

  /**
   * Verdicts for a finished log. `ltl3`: pending stays pending. `ltlf`: the log is the whole trace
   * (strong next, unmet eventualities violated, invariants satisfied); recovery mode judges the
   * instance still running at the end the same way. Does not change the monitor.
   *
   * Why the last step is judged again under LTLf: progression treats `X`/`!X` as if a next step
   * always exists (`!X true` progresses to `false`), which is right for every step but the last.
   * A verdict reached before the last event is final either way (a later step does exist, and every
   * other simplification the terms apply holds on any non-empty finite suffix), but a verdict
   * reached *at* the last event is replaced by the end-of-trace evaluation of the formula before it.
   */
  finish(semantics: EndSemantics): FinalStatus[] {
    return this.props.map((p) => {
      let verdict = p.verdict;
      let violations = p.violations;
      let satisfactions = p.satisfactions;
      let firstViolationStep = p.firstViolationStep;
      let firstSatisfactionStep = p.firstSatisfactionStep;
      let dropFirstViolation = false;
      const lastStep = this.stepCount - 1;
      const decided = p.current.kind === K.True || p.current.kind === K.False;
      // A property restarted by recovery at the very last event has no running instance to judge.
      const running = !decided && (p.stepsSinceReset > 0 || this.stepCount === 0);
      if (semantics === 'ltlf' && running) {
        const ok =
          p.stepsSinceReset > 0
            ? progressLast(this.store, p.prev, (ap) => maskHas(p, p.lastMask, ap))
            : acceptsEmpty(p.current);
        verdict = ok ? 'satisfied' : 'violated';
        if (ok) satisfactions++;
        else {
          violations++;
          firstViolationStep ??= lastStep;
        }
      } else if (semantics === 'ltlf' && this.stepCount > 0 && p.lastStep === lastStep) {
        // A verdict reached at the last event (decided, or restarted by recovery right there).
        const ok = progressLast(this.store, p.prev, (ap) => maskHas(p, p.lastMask, ap));
        if (ok && p.verdict === 'violated') {
          violations--;
          satisfactions++;
          firstSatisfactionStep ??= lastStep;
          if (p.firstViolationStep === lastStep) {
            firstViolationStep = undefined;
            dropFirstViolation = true;
          }
        } else if (!ok && p.verdict === 'satisfied') {
          satisfactions--;
          violations++;
          firstViolationStep ??= lastStep;
          if (p.firstSatisfactionStep === lastStep) firstSatisfactionStep = undefined;
        }
        verdict = ok ? 'satisfied' : 'violated';
      } else if (!decided) {
        verdict = 'pending';
      }
      const { firstViolationStep: _v, firstViolationAt, firstSatisfactionStep: _s, violationWitness, ...base } = this.describe(p, verdict);
      return {
        ...base,
        violations,
        satisfactions,
        ...(firstViolationStep !== undefined ? { firstViolationStep } : {}),
        ...(firstViolationAt !== undefined && !dropFirstViolation ? { firstViolationAt } : {}),
        ...(firstSatisfactionStep !== undefined ? { firstSatisfactionStep } : {}),
        ...(violationWitness && !dropFirstViolation ? { violationWitness } : {}),
        semantics,
      };
    });
  }

  private describe(p: PropState, verdict: Verdict): PropertyStatus {
    const w = (list: RawWitness[]): WitnessEntry[] =>
      list.map((e) => ({
        step: e.step,
        ...(e.at !== undefined ? { at: e.at } : {}),
        labels: p.apIdx.filter((_, i) => e.mask & (1 << i)).map((ap) => this.store.aps[ap]),
        formula: this.store.print(e.term),
      }));
    return {
      name: p.name,
      verdict,
      formula: this.store.print(p.current),
      violations: p.violations,
      satisfactions: p.satisfactions,
      ...(p.firstViolationStep !== undefined ? { firstViolationStep: p.firstViolationStep } : {}),
      ...(p.firstViolationAt !== undefined ? { firstViolationAt: p.firstViolationAt } : {}),
      ...(p.firstSatisfactionStep !== undefined ? { firstSatisfactionStep: p.firstSatisfactionStep } : {}),
      witness: w(p.witness.raw()),
      ...(p.violationWitness ? { violationWitness: w(p.violationWitness) } : {}),
      witnessDropped: p.witness.totalDropped,
    };
  }

  /** An independent copy sharing the (immutable) formula store; used to look ahead. Without `keepWitness` the copy records only its latest witness entry. */
  fork(options: { keepWitness?: boolean } = {}): ProgressionMonitor {
    const copy: ProgressionMonitor = Object.create(ProgressionMonitor.prototype);
    const keep = options.keepWitness ?? true;
    Object.assign(copy, {
      store: this.store,
      recovery: this.recovery,
      recoverAfter: this.recoverAfter,
      witnessLimit: this.witnessLimit,
      values: new Uint8Array(this.values.length),
      stepCount: this.stepCount,
      props: this.props.map((p) => ({
        ...p,
        witness: keep ? p.witness.clone() : new WitnessLog(1),
        violationWitness: keep ? p.violationWitness : undefined,
      })),
    });
    return copy;
  }

  snapshot(): MonitorSnapshot {
    const s = this.store;
    const w = (p: PropState, list: RawWitness[]): SnapshotWitness[] =>
      list.map((e) => ({
        step: e.step,
        ...(e.at !== undefined ? { at: e.at } : {}),
        labels: maskLabels(this.store, p, e.mask),
        formula: s.toNode(e.term),
      }));
    return {
      version: 1,
      options: { recovery: this.recovery, recoverAfter: this.recoverAfter, witnessLimit: this.witnessLimit },
      step: this.stepCount,
      properties: this.props.map((p) => ({
        name: p.name,
        initial: s.toNode(p.initial),
        current: s.toNode(p.current),
        prev: s.toNode(p.prev),
        lastLabels: maskLabels(s, p, p.lastMask),
        lastStep: p.lastStep,
        stepsSinceReset: p.stepsSinceReset,
        verdict: p.verdict,
        violations: p.violations,
        satisfactions: p.satisfactions,
        ...(p.firstViolationStep !== undefined ? { firstViolationStep: p.firstViolationStep } : {}),
        ...(p.firstViolationAt !== undefined ? { firstViolationAt: p.firstViolationAt } : {}),
        ...(p.firstSatisfactionStep !== undefined ? { firstSatisfactionStep: p.firstSatisfactionStep } : {}),
        witness: w(p, p.witness.raw()),
        witnessDropped: p.witness.totalDropped,
        ...(p.violationWitness ? { violationWitness: w(p, p.violationWitness) } : {}),
      })),
    };
  }

  static restore(snap: MonitorSnapshot): ProgressionMonitor {
    if (snap.version !== 1) throw new Error(`unsupported monitor snapshot version ${String(snap.version)}`);
    const m = new ProgressionMonitor(
      snap.properties.map((p) => ({ name: p.name, formula: p.initial })),
      snap.options,
    );
    const s = m.store;
    m.stepCount = snap.step;
    snap.properties.forEach((sp, i) => {
      const p = m.props[i];
      const toMask = (labels: readonly string[]): number =>
        p.apIdx.reduce((mask, ap, bit) => (labels.includes(s.aps[ap]) ? mask | (1 << bit) : mask), 0);
      const raw = (list: readonly SnapshotWitness[]): RawWitness[] =>
        list.map((e) => ({ step: e.step, at: e.at, mask: toMask(e.labels), term: s.fromNode(e.formula) }));
      setCurrent(p, s.fromNode(sp.current));
      Object.assign(p, {
        prev: s.fromNode(sp.prev),
        lastMask: toMask(sp.lastLabels),
        lastStep: sp.lastStep ?? (sp.stepsSinceReset > 0 ? snap.step - 1 : -1),
        stepsSinceReset: sp.stepsSinceReset,
        verdict: sp.verdict,
        violations: sp.violations,
        satisfactions: sp.satisfactions,
        firstViolationStep: sp.firstViolationStep,
        firstViolationAt: sp.firstViolationAt,
        firstSatisfactionStep: sp.firstSatisfactionStep,
        witness: WitnessLog.from(raw(sp.witness), snap.options.witnessLimit, sp.witnessDropped),
        violationWitness: sp.violationWitness ? raw(sp.violationWitness) : undefined,
      });
    });
    return m;
  }
}

/**
 * The steps where a property's formula changed: a fixed-size ring of the most recent `limit`
 * entries in typed arrays, so the hot path neither allocates nor resizes.
 */
class WitnessLog {
  private readonly steps: Float64Array;
  private readonly ats: Float64Array;
  private readonly masks: Int32Array;
  private readonly terms: (Term | undefined)[];
  private head = 0;
  private count = 0;
  private dropped = 0;
  constructor(private readonly limit: number) {
    this.steps = new Float64Array(limit);
    this.ats = new Float64Array(limit);
    this.masks = new Int32Array(limit);
    this.terms = new Array<Term | undefined>(limit).fill(undefined);
  }

  push(step: number, at: number | undefined, mask: number, term: Term): void {
    let slot: number;
    if (this.count < this.limit) slot = (this.head + this.count++) % this.limit;
    else {
      slot = this.head;
      this.head = (this.head + 1) % this.limit;
      this.dropped++;
    }
    this.steps[slot] = step;
    this.ats[slot] = at ?? Number.NaN;
    this.masks[slot] = mask;
    this.terms[slot] = term;
  }

  clear(): void {
    this.head = 0;
    this.count = 0;
    this.dropped = 0;
  }

  get totalDropped(): number {
    return this.dropped;
  }

  raw(): RawWitness[] {
    const out: RawWitness[] = [];
    for (let k = 0; k < this.count; k++) {
      const i = (this.head + k) % this.limit;
      out.push({ step: this.steps[i], at: Number.isNaN(this.ats[i]) ? undefined : this.ats[i], mask: this.masks[i], term: this.terms[i]! });
    }
    return out;
  }

  clone(): WitnessLog {
    return WitnessLog.from(this.raw(), this.limit, this.totalDropped);
  }

  static from(list: readonly RawWitness[], limit: number, dropped: number): WitnessLog {
    const w = new WitnessLog(limit);
    for (const e of list) w.push(e.step, e.at, e.mask, e.term);
    w.dropped = dropped + Math.max(0, list.length - limit);
    return w;
  }
}

function setCurrent(p: PropState, t: Term): void {
  p.current = t;
  let row = p.rows.get(t.id);
  // Small rows are pre-sized and filled so V8 keeps them packed (fast indexed reads); rows for
  // properties with many propositions stay sparse.
  if (!row) p.rows.set(t.id, (row = p.apIdx.length <= DENSE_ROW_APS ? new Array<Term | undefined>(1 << p.apIdx.length).fill(undefined) : []));
  p.row = row;
}

/** A property is too large for the monitor (too many propositions). */
export class MonitorLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MonitorLimitError';
  }
}

const NONE: readonly { name: string; verdict: Verdict }[] = Object.freeze([]);

function isSet(l: Labels): l is ReadonlySet<string> {
  return l instanceof Set;
}

function maskHas(p: PropState, mask: number, ap: number): boolean {
  const bit = p.apIdx.indexOf(ap);
  return bit >= 0 && (mask & (1 << bit)) !== 0;
}

function maskLabels(store: TermStore, p: PropState, mask: number): string[] {
  return p.apIdx.filter((_, i) => mask & (1 << i)).map((ap) => store.aps[ap]);
}
