/**
 * The progression monitor (TRAC, Algorithms 1 and 2 of Alamdari et al.): one LTL formula per named
 * property, progressed through every label set, with three-valued verdicts, witnesses and optional
 * recovery. Progression results are memoised per (formula, relevant labels), so after warm-up a
 * step is a few map look-ups per property.
 */
import type { LtlNode } from '../ltl/syntax.js';
import { own } from '../dict.js';
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
  /**
   * With recovery: restart only invariants (properties whose every top-level conjunct is `G …`).
   * A one-shot property (`inForest`, `!cave W market`) speaks about the run from its start, so
   * restarting it at a later step would judge a run that never began there and count one mistake
   * again at every step. Auditors counting violations per run want this; default false (TRAC_R).
   */
  readonly recoverOnlyInvariants?: boolean;
  /** Keep at most this many witness entries per property (the most recent); default 200. */
  readonly witnessLimit?: number;
  /**
   * Go on recording a property's running witness after its first violation (default true). An
   * auditor that reports only the first violation's witness turns this off, so a property that
   * keeps failing holds one witness, not two.
   */
  readonly witnessAfterFirstViolation?: boolean;
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

/** What every monitor of one property set shares: the formula, its propositions and the memo rows. */
interface PropInfo {
  readonly name: string;
  readonly initial: Term;
  /** With recovery, whether a verdict restarts this property (see `recoverOnlyInvariants`). */
  readonly restartable: boolean;
  /** Global ap indices this property mentions; bit i of a mask is apIdx[i]. */
  readonly apIdx: readonly number[];
  /**
   * Memoised progression, a lazily built DFA: `rows[termId][mask]` is the successor's term id
   * (negative or missing: not computed yet).
   */
  readonly rows: (number[] | undefined)[];
  readonly onViolated: { name: string; verdict: Verdict };
  readonly onSatisfied: { name: string; verdict: Verdict };
}

/**
 * The part of a monitor that depends only on the properties and options: the term store,
 * per-property memo rows and a scratch vector. Monitors made with `fresh()` or `fork()` share it,
 * so a thousand monitors over the same properties cost one store and one set of memo tables.
 */
interface Model {
  readonly store: TermStore;
  readonly infos: readonly PropInfo[];
  readonly recovery: boolean;
  readonly recoverAfter: 'verdict' | 'violation';
  readonly witnessLimit: number;
  readonly witnessAfterFirstViolation: boolean;
  readonly recoverOnlyInvariants: boolean;
  /** Scratch for `step` (single-threaded, never held across calls). */
  readonly values: Uint8Array;
}

/*
 * A monitor's own state is one flat array of numbers, SLOTS per property, because an auditor keeps
 * one monitor per open run: a packed array of doubles costs 8 bytes a slot, where an object per
 * property would cost several times that. Formulas are term ids; NaN means "none".
 */
const CUR = 0; // current formula
const PREV = 1; // formula before the most recent step (for LTLf end-of-trace)
const LAST_MASK = 2; // that step's label mask
const LAST_STEP = 3; // global index of that step (-1 before the first step)
const SINCE_RESET = 4; // steps since the last (re)start
const VERDICT = 5; // PENDING | SATISFIED | VIOLATED: latest verdict reached
const VIOLATIONS = 6;
const SATISFACTIONS = 7;
const FIRST_VIOLATION_STEP = 8;
const FIRST_VIOLATION_AT = 9;
const FIRST_SATISFACTION_STEP = 10;
const SLOTS = 11;

const PENDING = 0;
const SATISFIED = 1;
const VIOLATED = 2;
const VERDICTS: readonly Verdict[] = ['pending', 'satisfied', 'violated'];

const optional = (x: number): number | undefined => (Number.isNaN(x) ? undefined : x);

/** Plain-JSON monitor state (snapshot / restore). */
export interface MonitorSnapshot {
  readonly version: 1;
  readonly options: {
    recovery: boolean;
    recoverAfter: 'verdict' | 'violation';
    witnessLimit: number;
    witnessAfterFirstViolation?: boolean;
    recoverOnlyInvariants?: boolean;
  };
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

/** Set by `copy()` for the constructor call it makes (single-threaded; cleared at once). */
let copying:
  | { model: Model; st: number[]; witnesses: (Witness | undefined)[] | undefined; violationWitnesses: (Witness | undefined)[] | undefined; stepCount: number }
  | undefined;

/** Label sets are bit masks over a property's propositions. */
const MAX_APS = 30;
/** Up to this many propositions a property's memo rows are dense arrays (2^12 entries). */
const DENSE_ROW_APS = 12;

export class ProgressionMonitor {
  private readonly model: Model;
  /** SLOTS numbers per property (see CUR … FIRST_SATISFACTION_STEP). */
  private st: number[];
  /** Per property, the steps where its formula changed (allocated on first use). */
  private witnesses: (Witness | undefined)[] | undefined;
  /** Per property, the witness as it was at the first violation. */
  private violationWitnesses: (Witness | undefined)[] | undefined;
  private stepCount = 0;

  constructor(properties: readonly PropertySpec[], options: MonitorOptions = {}) {
    if (copying) {
      // `copy()`: a monitor over an existing model. Built by the constructor rather than
      // Object.create so all monitors share one compact object layout (it matters at 10^5 runs).
      ({ model: this.model, st: this.st, witnesses: this.witnesses, violationWitnesses: this.violationWitnesses, stepCount: this.stepCount } = copying);
      copying = undefined;
      return;
    }
    const store = new TermStore();
    const names = new Set<string>();
    for (const p of properties) {
      if (names.has(p.name)) throw new Error(`duplicate property name '${p.name}'`);
      names.add(p.name);
    }
    const onlyInvariants = options.recoverOnlyInvariants ?? false;
    const infos = properties.map((p) => makeInfo(p.name, store.fromNode(p.formula), !onlyInvariants || isInvariant(p.formula)));
    for (const info of infos) {
      if (info.apIdx.length > MAX_APS) {
        throw new MonitorLimitError(`property '${info.name}' mentions ${info.apIdx.length} atomic propositions; at most ${MAX_APS} are supported (split it into several properties)`);
      }
    }
    this.model = {
      store,
      infos,
      recovery: options.recovery ?? false,
      recoverAfter: options.recoverAfter ?? 'verdict',
      witnessLimit: Math.max(1, options.witnessLimit ?? 200),
      witnessAfterFirstViolation: options.witnessAfterFirstViolation ?? true,
      recoverOnlyInvariants: onlyInvariants,
      values: new Uint8Array(store.aps.length),
    };
    this.st = initialState(infos);
    this.witnesses = undefined;
    this.violationWitnesses = undefined;
    this.settleInitial();
  }

  /** Every atomic proposition any property mentions, in index order (for `stepValues`). */
  get aps(): readonly string[] {
    return this.model.store.aps;
  }
  get steps(): number {
    return this.stepCount;
  }
  get propertyNames(): readonly string[] {
    return this.model.infos.map((p) => p.name);
  }
  /** Distinct formulas built so far (a proxy for memory: stays flat once every reachable formula is seen). */
  get formulaCount(): number {
    return this.model.store.termCount;
  }

  /**
   * A new monitor in the initial state (step 0) over the same properties and options, sharing this
   * one's formula store and memo tables. It costs one array of 11 numbers per property (plus
   * witnesses once formulas change), so an auditor can keep one per open run; progression learnt
   * by any of them speeds up all.
   */
  fresh(): ProgressionMonitor {
    return this.copy(initialState(this.model.infos), undefined, undefined, 0).settleInitial();
  }

  private copy(st: number[], witnesses: (Witness | undefined)[] | undefined, violationWitnesses: (Witness | undefined)[] | undefined, stepCount: number): ProgressionMonitor {
    copying = { model: this.model, st, witnesses, violationWitnesses, stepCount };
    return new ProgressionMonitor([]);
  }

  /** As at construction: a constant property (`true`, `false`) is decided before any event. */
  private settleInitial(): this {
    for (let i = 0; i < this.model.infos.length; i++) this.settle(i, this.st[i * SLOTS + CUR], 0, undefined);
    return this;
  }

  /** Progress every property through one event's labels. Returns the properties whose verdict was reached at this step. */
  step(labels: Labels, at?: number): readonly { name: string; verdict: Verdict }[] {
    const aps = this.model.store.aps;
    const v = this.model.values;
    if (isSet(labels)) for (let i = 0; i < aps.length; i++) v[i] = labels.has(aps[i]) ? 1 : 0;
    else for (let i = 0; i < aps.length; i++) v[i] = own(labels, aps[i]) ? 1 : 0;
    return this.stepValues(v, at);
  }

  /** Fast path: `values[i]` is the truth of `aps[i]`. */
  stepValues(values: ArrayLike<number | boolean>, at?: number): readonly { name: string; verdict: Verdict }[] {
    const step = this.stepCount++;
    const store = this.model.store;
    const infos = this.model.infos;
    const st = this.st;
    const TRUE = store.TRUE.id;
    const FALSE = store.FALSE.id;
    let reached: { name: string; verdict: Verdict }[] | undefined;
    for (let i = 0, b = 0; i < infos.length; i++, b += SLOTS) {
      const cur = st[b + CUR];
      // Decided and not restarted: nothing left to progress.
      if (cur === TRUE || cur === FALSE) continue;
      const info = infos[i];
      const idx = info.apIdx;
      let mask = 0;
      for (let j = 0; j < idx.length; j++) if (values[idx[j]]) mask |= 1 << j;
      const row = info.rows[cur] ?? newRow(info, cur);
      let next = row[mask];
      if (next === undefined || next < 0) {
        next = normalize(store, progress(store, store.term(cur), (ap) => Boolean(values[ap]))).id;
        row[mask] = next;
      }
      st[b + PREV] = cur;
      st[b + LAST_MASK] = mask;
      st[b + LAST_STEP] = step;
      st[b + SINCE_RESET]++;
      if (next !== cur) {
        const verdict = this.settle(i, next, step, at, mask);
        if (verdict !== PENDING) (reached ??= []).push(verdict === VIOLATED ? info.onViolated : info.onSatisfied);
      }
    }
    return reached ?? NONE;
  }

  /** Record a new formula for property `i`: witness, verdict, counters, recovery. */
  private settle(i: number, next: number, step: number, at: number | undefined, mask = 0): number {
    const { recovery, recoverAfter, witnessLimit, witnessAfterFirstViolation, store, infos } = this.model;
    const st = this.st;
    const b = i * SLOTS;
    st[b + CUR] = next;
    if (this.stepCount > 0 && (witnessAfterFirstViolation || Number.isNaN(st[b + FIRST_VIOLATION_STEP]))) {
      const ws = (this.witnesses ??= new Array<Witness | undefined>(infos.length).fill(undefined));
      ws[i] = witnessPush(ws[i] ?? newWitness(witnessLimit), step, at, mask, next);
    }
    const verdict = next === store.FALSE.id ? VIOLATED : next === store.TRUE.id ? SATISFIED : PENDING;
    if (verdict === PENDING) return verdict;
    if (verdict === VIOLATED) {
      st[b + VIOLATIONS]++;
      if (Number.isNaN(st[b + FIRST_VIOLATION_STEP])) {
        st[b + FIRST_VIOLATION_STEP] = step;
        st[b + FIRST_VIOLATION_AT] = at ?? Number.NaN;
        const vw = (this.violationWitnesses ??= new Array<Witness | undefined>(infos.length).fill(undefined));
        vw[i] = this.witnesses?.[i]?.slice() ?? newWitness(witnessLimit, 0);
        if (!witnessAfterFirstViolation && this.witnesses) this.witnesses[i] = undefined;
      }
    } else {
      st[b + SATISFACTIONS]++;
      if (Number.isNaN(st[b + FIRST_SATISFACTION_STEP])) st[b + FIRST_SATISFACTION_STEP] = step;
    }
    st[b + VERDICT] = verdict;
    if (recovery && infos[i].restartable && this.stepCount > 0 && (verdict === VIOLATED || recoverAfter === 'verdict')) {
      st[b + CUR] = infos[i].initial.id;
      const w = this.witnesses?.[i];
      if (w) witnessClear(w);
      st[b + SINCE_RESET] = 0;
    }
    return verdict;
  }

  /** Verdicts so far. In recovery mode `verdict` is the latest verdict reached (or pending if none yet). */
  status(): PropertyStatus[] {
    return this.model.infos.map((_, i) => this.describe(i, VERDICTS[this.st[i * SLOTS + VERDICT]]));
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
    const store = this.model.store;
    const st = this.st;
    return this.model.infos.map((info, i) => {
      const b = i * SLOTS;
      const current = store.term(st[b + CUR]);
      const prev = store.term(st[b + PREV]);
      const lastMask = st[b + LAST_MASK];
      const sinceReset = st[b + SINCE_RESET];
      const latest = VERDICTS[st[b + VERDICT]];
      let verdict = latest;
      let violations = st[b + VIOLATIONS];
      let satisfactions = st[b + SATISFACTIONS];
      let firstViolationStep = optional(st[b + FIRST_VIOLATION_STEP]);
      let firstSatisfactionStep = optional(st[b + FIRST_SATISFACTION_STEP]);
      let dropFirstViolation = false;
      const lastStep = this.stepCount - 1;
      const decided = current.kind === K.True || current.kind === K.False;
      // A property restarted by recovery at the very last event has no running instance to judge.
      const running = !decided && (sinceReset > 0 || this.stepCount === 0);
      if (semantics === 'ltlf' && running) {
        const ok = sinceReset > 0 ? progressLast(store, prev, (ap) => maskHas(info, lastMask, ap)) : acceptsEmpty(current);
        verdict = ok ? 'satisfied' : 'violated';
        if (ok) satisfactions++;
        else {
          violations++;
          firstViolationStep ??= lastStep;
        }
      } else if (semantics === 'ltlf' && this.stepCount > 0 && st[b + LAST_STEP] === lastStep) {
        // A verdict reached at the last event (decided, or restarted by recovery right there).
        const ok = progressLast(store, prev, (ap) => maskHas(info, lastMask, ap));
        if (ok && latest === 'violated') {
          violations--;
          satisfactions++;
          firstSatisfactionStep ??= lastStep;
          if (st[b + FIRST_VIOLATION_STEP] === lastStep) {
            firstViolationStep = undefined;
            dropFirstViolation = true;
          }
        } else if (!ok && latest === 'satisfied') {
          satisfactions--;
          violations++;
          firstViolationStep ??= lastStep;
          if (st[b + FIRST_SATISFACTION_STEP] === lastStep) firstSatisfactionStep = undefined;
        }
        verdict = ok ? 'satisfied' : 'violated';
      } else if (!decided) {
        verdict = 'pending';
      }
      const { firstViolationStep: _v, firstViolationAt, firstSatisfactionStep: _s, violationWitness, ...base } = this.describe(i, verdict);
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

  private describe(i: number, verdict: Verdict): PropertyStatus {
    const store = this.model.store;
    const info = this.model.infos[i];
    const st = this.st;
    const b = i * SLOTS;
    const w = (list: RawWitness[]): WitnessEntry[] =>
      list.map((e) => ({
        step: e.step,
        ...(e.at !== undefined ? { at: e.at } : {}),
        labels: maskLabels(store, info, e.mask),
        formula: store.print(e.term),
      }));
    const firstViolationStep = optional(st[b + FIRST_VIOLATION_STEP]);
    const firstViolationAt = optional(st[b + FIRST_VIOLATION_AT]);
    const firstSatisfactionStep = optional(st[b + FIRST_SATISFACTION_STEP]);
    const vw = this.violationWitnesses?.[i];
    return {
      name: info.name,
      verdict,
      formula: store.print(store.term(st[b + CUR])),
      violations: st[b + VIOLATIONS],
      satisfactions: st[b + SATISFACTIONS],
      ...(firstViolationStep !== undefined ? { firstViolationStep } : {}),
      ...(firstViolationAt !== undefined ? { firstViolationAt } : {}),
      ...(firstSatisfactionStep !== undefined ? { firstSatisfactionStep } : {}),
      witness: w(witnessRaw(this.witnesses?.[i], store)),
      ...(vw ? { violationWitness: w(witnessRaw(vw, store)) } : {}),
      witnessDropped: witnessDropped(this.witnesses?.[i]),
    };
  }

  /** An independent copy sharing the (immutable) formula store; used to look ahead. Without `keepWitness` the copy records only its latest witness entry. */
  fork(options: { keepWitness?: boolean } = {}): ProgressionMonitor {
    const keep = options.keepWitness ?? true;
    const k = this.model.infos.length;
    return this.copy(
      this.st.slice(),
      keep ? this.witnesses?.map((w) => w?.slice()) : Array.from({ length: k }, () => newWitness(1)),
      keep ? this.violationWitnesses?.slice() : undefined,
      this.stepCount,
    );
  }

  snapshot(): MonitorSnapshot {
    const { store: s, recovery, recoverAfter, witnessLimit, witnessAfterFirstViolation, recoverOnlyInvariants, infos } = this.model;
    const st = this.st;
    const w = (info: PropInfo, list: RawWitness[]): SnapshotWitness[] =>
      list.map((e) => ({
        step: e.step,
        ...(e.at !== undefined ? { at: e.at } : {}),
        labels: maskLabels(s, info, e.mask),
        formula: s.toNode(e.term),
      }));
    return {
      version: 1,
      options: {
        recovery,
        recoverAfter,
        witnessLimit,
        ...(witnessAfterFirstViolation ? {} : { witnessAfterFirstViolation }),
        ...(recoverOnlyInvariants ? { recoverOnlyInvariants } : {}),
      },
      step: this.stepCount,
      properties: infos.map((info, i) => {
        const b = i * SLOTS;
        const firstViolationStep = optional(st[b + FIRST_VIOLATION_STEP]);
        const firstViolationAt = optional(st[b + FIRST_VIOLATION_AT]);
        const firstSatisfactionStep = optional(st[b + FIRST_SATISFACTION_STEP]);
        const vw = this.violationWitnesses?.[i];
        return {
          name: info.name,
          initial: s.toNode(info.initial),
          current: s.toNode(s.term(st[b + CUR])),
          prev: s.toNode(s.term(st[b + PREV])),
          lastLabels: maskLabels(s, info, st[b + LAST_MASK]),
          lastStep: st[b + LAST_STEP],
          stepsSinceReset: st[b + SINCE_RESET],
          verdict: VERDICTS[st[b + VERDICT]],
          violations: st[b + VIOLATIONS],
          satisfactions: st[b + SATISFACTIONS],
          ...(firstViolationStep !== undefined ? { firstViolationStep } : {}),
          ...(firstViolationAt !== undefined ? { firstViolationAt } : {}),
          ...(firstSatisfactionStep !== undefined ? { firstSatisfactionStep } : {}),
          witness: w(info, witnessRaw(this.witnesses?.[i], s)),
          witnessDropped: witnessDropped(this.witnesses?.[i]),
          ...(vw ? { violationWitness: w(info, witnessRaw(vw, s)) } : {}),
        };
      }),
    };
  }

  static restore(snap: MonitorSnapshot): ProgressionMonitor {
    if (snap.version !== 1) throw new Error(`unsupported monitor snapshot version ${String(snap.version)}`);
    const m = new ProgressionMonitor(
      snap.properties.map((p) => ({ name: p.name, formula: p.initial })),
      snap.options,
    );
    const s = m.model.store;
    const st = m.st;
    const limit = Math.max(1, snap.options.witnessLimit);
    const k = snap.properties.length;
    m.stepCount = snap.step;
    m.witnesses = new Array<Witness | undefined>(k).fill(undefined);
    m.violationWitnesses = new Array<Witness | undefined>(k).fill(undefined);
    snap.properties.forEach((sp, i) => {
      const info = m.model.infos[i];
      const b = i * SLOTS;
      const toMask = (labels: readonly string[]): number =>
        info.apIdx.reduce((mask, ap, bit) => (labels.includes(s.aps[ap]) ? mask | (1 << bit) : mask), 0);
      const raw = (list: readonly SnapshotWitness[]): RawWitness[] =>
        list.map((e) => ({ step: e.step, at: e.at, mask: toMask(e.labels), term: s.fromNode(e.formula) }));
      st[b + CUR] = s.fromNode(sp.current).id;
      st[b + PREV] = s.fromNode(sp.prev).id;
      st[b + LAST_MASK] = toMask(sp.lastLabels);
      st[b + LAST_STEP] = sp.lastStep ?? (sp.stepsSinceReset > 0 ? snap.step - 1 : -1);
      st[b + SINCE_RESET] = sp.stepsSinceReset;
      st[b + VERDICT] = Math.max(0, VERDICTS.indexOf(sp.verdict));
      st[b + VIOLATIONS] = sp.violations;
      st[b + SATISFACTIONS] = sp.satisfactions;
      st[b + FIRST_VIOLATION_STEP] = sp.firstViolationStep ?? Number.NaN;
      st[b + FIRST_VIOLATION_AT] = sp.firstViolationAt ?? Number.NaN;
      st[b + FIRST_SATISFACTION_STEP] = sp.firstSatisfactionStep ?? Number.NaN;
      m.witnesses![i] = witnessFrom(raw(sp.witness), limit, sp.witnessDropped);
      m.violationWitnesses![i] = sp.violationWitness ? witnessFrom(raw(sp.violationWitness), limit, 0) : undefined;
    });
    return m;
  }
}

/** Every top-level conjunct is `G …`: the property says the same thing from every step on. */
export function isInvariant(f: LtlNode): boolean {
  if (f.op === 'G') return true;
  if (f.op === '&') return f.args.every(isInvariant);
  return false;
}

function makeInfo(name: string, initial: Term, restartable: boolean): PropInfo {
  return {
    name,
    initial,
    restartable,
    apIdx: [...termAps(initial)].sort((a, b) => a - b),
    rows: [],
    onViolated: Object.freeze({ name, verdict: 'violated' as Verdict }),
    onSatisfied: Object.freeze({ name, verdict: 'satisfied' as Verdict }),
  };
}

/** Small rows are pre-sized and filled so V8 keeps them packed (fast indexed reads); rows for properties with many propositions stay sparse. */
function newRow(info: PropInfo, term: number): number[] {
  const row = info.apIdx.length <= DENSE_ROW_APS ? new Array<number>(1 << info.apIdx.length).fill(-1) : [];
  info.rows[term] = row;
  return row;
}

function initialState(infos: readonly PropInfo[]): number[] {
  const st = new Array<number>(infos.length * SLOTS).fill(0);
  infos.forEach((info, i) => {
    const b = i * SLOTS;
    st[b + CUR] = info.initial.id;
    st[b + PREV] = info.initial.id;
    st[b + LAST_STEP] = -1;
    st[b + FIRST_VIOLATION_STEP] = Number.NaN;
    st[b + FIRST_VIOLATION_AT] = Number.NaN;
    st[b + FIRST_SATISFACTION_STEP] = Number.NaN;
  });
  return st;
}

/**
 * The steps where a property's formula changed: the most recent `limit` entries. A witness is one
 * flat array of numbers — a header (limit, head, count, dropped) and then, per entry, the step,
 * the position (NaN: none), the label mask and the term id — sized to what it holds and grown on
 * demand, because an auditor keeps one per open run and property and most runs change a formula
 * only a handful of times.
 */
type Witness = number[];
const W_LIMIT = 0;
const W_HEAD = 1;
const W_COUNT = 2;
const W_DROPPED = 3;
const W_HEADER = 4;

function newWitness(limit: number, capacity = 1): Witness {
  const w: Witness = new Array<number>(W_HEADER + 4 * Math.min(limit, capacity)).fill(0);
  w[W_LIMIT] = limit;
  return w;
}

/** Appends an entry; returns the witness (a larger copy when it had to grow). */
function witnessPush(w: Witness, step: number, at: number | undefined, mask: number, term: number): Witness {
  const limit = w[W_LIMIT];
  const count = w[W_COUNT];
  let slot: number;
  if (count < limit) {
    slot = (w[W_HEAD] + count) % limit;
    w[W_COUNT] = count + 1;
    if (W_HEADER + 4 * (count + 1) > w.length) {
      // Below the limit the entries sit in order from slot 0 (the ring has not wrapped yet).
      const grown = newWitness(limit, Math.max(2, 2 * count));
      for (let i = 0; i < w.length; i++) grown[i] = w[i];
      w = grown;
    }
  } else {
    slot = w[W_HEAD];
    w[W_HEAD] = (slot + 1) % limit;
    w[W_DROPPED]++;
  }
  const i = W_HEADER + slot * 4;
  w[i] = step;
  w[i + 1] = at ?? Number.NaN;
  w[i + 2] = mask;
  w[i + 3] = term;
  return w;
}

function witnessClear(w: Witness): void {
  w[W_HEAD] = 0;
  w[W_COUNT] = 0;
  w[W_DROPPED] = 0;
}

function witnessDropped(w: Witness | undefined): number {
  return w ? w[W_DROPPED] : 0;
}

function witnessRaw(w: Witness | undefined, store: TermStore): RawWitness[] {
  const out: RawWitness[] = [];
  if (!w) return out;
  const limit = w[W_LIMIT];
  for (let k = 0; k < w[W_COUNT]; k++) {
    const i = W_HEADER + ((w[W_HEAD] + k) % limit) * 4;
    out.push({ step: w[i], at: optional(w[i + 1]), mask: w[i + 2], term: store.term(w[i + 3]) });
  }
  return out;
}

function witnessFrom(list: readonly RawWitness[], limit: number, dropped: number): Witness {
  let w = newWitness(limit, list.length);
  for (const e of list) w = witnessPush(w, e.step, e.at, e.mask, e.term.id);
  w[W_DROPPED] = dropped + Math.max(0, list.length - limit);
  return w;
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

function maskHas(info: PropInfo, mask: number, ap: number): boolean {
  const bit = info.apIdx.indexOf(ap);
  return bit >= 0 && (mask & (1 << bit)) !== 0;
}

function maskLabels(store: TermStore, info: PropInfo, mask: number): string[] {
  return info.apIdx.filter((_, i) => mask & (1 << i)).map((ap) => store.aps[ap]);
}
