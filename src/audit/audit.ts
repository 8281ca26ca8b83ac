/**
 * The log auditor (Definition 4.2 + TRAC_R): group events into runs, label each event, progress
 * one monitor per run, and collect per-run and per-property outcomes.
 *
 * Memory is bounded whatever the log: events are streamed; an open run costs a few small objects
 * (its monitors share one formula store, memo tables and automata, see `ProgressionMonitor.fresh`);
 * at most `maxOpenRuns` runs are open at once — past that the run idle the longest is closed and
 * reported as if the log ended there, marked `closedEarly`; and a closed run's outcome can go to
 * `onRun` at once instead of being kept (`keepRuns: false`), with the summary kept as counts.
 */
import { type AnyLabeler, MissingFieldError, isPromiseLike, type EventRecord, type LabelRules } from '../../runtime/monitor/label.js';
import { LlmLabelError } from '../../runtime/monitor/llm-label.js';
import {
  type EndSemantics,
  type FinalStatus,
  type Verdict,
  type WitnessEntry,
  isInvariant,
  ProgressionMonitor,
} from '../../runtime/monitor/progression.js';
import { AutomatonMonitor, type MonitorAutomaton } from '../../runtime/monitor/automaton.js';
import { type AuditMissingPolicy, FieldCheckError, FieldReader, checkColumns, describeAbsent, describeColumns, headerSpan, planFields } from './fields.js';
import type { LogItem } from './logs.js';
import { type RecencyNode, RecencyList } from './recency.js';
import type { AuditRule } from './rules.js';
import { type PropertyKind, propertyKinds } from './kind.js';

export { FieldCheckError, type AuditMissingPolicy } from './fields.js';

/**
 * Default bound on open runs, from the number of properties. The live heap of an open run is about
 * 300 bytes plus 150–460 per property (the upper end for long runs whose properties keep a full
 * 20-step witness), and the process's peak RSS is 1.5–4 times the live heap (V8 collects lazily;
 * most for many short runs, whose parsed events are most of the garbage). 250 MB of run state at
 * 300 + 500 bytes per property keeps the peak under about 1 GB: 192,307 runs for 2 properties,
 * 47,169 for 10 (measured: 230,769 open runs of 2 properties peaked at 785 MB).
 */
export function defaultMaxOpenRuns(properties: number): number {
  return Math.max(1000, Math.floor(250e6 / (300 + 500 * Math.max(1, properties))));
}

/**
 * Closed run ids are remembered (to name a reused id `id@lineN`) in two generations of this many:
 * at least the last 500,000, about 80 MB at most.
 */
const REMEMBERED_IDS = 500_000;

export interface AuditOptions {
  readonly properties: readonly AuditRule[];
  /** Rules for some or all propositions; the rest are read from a same-named field (any letter case). */
  readonly labels?: LabelRules;
  /**
   * A labeling function instead of rules (library use; fields are then not checked). It may
   * answer with a promise (`llmLabeler`); only promises are awaited, so a synchronous labeler
   * costs no promise per event.
   */
  readonly labeler?: AnyLabeler;
  /**
   * Propositions labelled by another labeler (e.g. `llmLabeler` with a prompt for each), whose
   * answers may be promises; the other propositions keep their rules and fields, and the field
   * check leaves these out. Its answers win for its propositions.
   */
  readonly delegate?: { readonly propositions: readonly string[]; readonly labeler: AnyLabeler };
  /**
   * Fields the rules read but the log lacks: `check` (default) makes a missing or duplicate CSV
   * column, or a JSONL field absent from every record of a run, an error (`FieldCheckError`);
   * `false` reads them as false; `error` checks like `check` and also makes each event lacking a
   * field a malformed line.
   */
  readonly missing?: AuditMissingPolicy;
  readonly groupBy?: string;
  /**
   * Runs are contiguous blocks of equal `groupBy` values (ids may be reused later in the log).
   * Each run is finished as soon as the next one starts, so memory stays flat.
   */
  readonly contiguous?: boolean;
  readonly semantics?: EndSemantics;
  /** Restart properties after each verdict and count violations (TRAC_R); default true. */
  readonly recovery?: boolean;
  /** Stop at the first malformed line instead of skipping it. */
  readonly strict?: boolean;
  readonly witnessLimit?: number;
  /**
   * LTL3 automata, one per property (same order): a property that progression leaves pending at
   * the end of a run gets the automaton's complete verdict instead (LTL3 semantics only).
   */
  readonly automata?: readonly MonitorAutomaton[];
  /**
   * At most this many runs are open at once (default `defaultMaxOpenRuns(properties.length)`). A new run past the
   * bound closes the run whose last event is oldest, with end-of-log verdicts and `closedEarly`;
   * if its id comes back, the rest is audited as a new run `id@lineN`.
   */
  readonly maxOpenRuns?: number;
  /** Receives each run's outcome as soon as the run is closed (awaited when it returns a promise). */
  readonly onRun?: (run: RunOutcome) => void | Promise<void>;
  /** Keep every outcome in `report.runs` (default true). Pass false with `onRun` for huge logs. */
  readonly keepRuns?: boolean;
}

export interface PropertyOutcome {
  readonly name: string;
  readonly verdict: Verdict;
  readonly violations: number;
  readonly satisfactions: number;
  /** 0-based index within the run of the first violating event. */
  readonly firstViolationStep?: number;
  /** Line of the log holding that event. */
  readonly firstViolationLine?: number;
  /** For violated properties: the (last 20 by default) steps where the formula changed, up to the first violation. */
  readonly witness: readonly WitnessEntry[];
  /** Set when the verdict came from the LTL3 automaton monitor (progression was still pending). */
  readonly decidedBy?: 'automaton';
}

export interface RunOutcome {
  readonly run: string;
  readonly events: number;
  readonly firstLine: number;
  readonly lastLine: number;
  /**
   * The run was closed before the end of the log because more than `maxOpenRuns` runs were open
   * (it had been idle longest); its verdicts are those at the end of a log ending at `lastLine`.
   */
  readonly closedEarly?: true;
  readonly properties: readonly PropertyOutcome[];
}

export interface SummaryRow {
  readonly property: string;
  /** How the rule can be broken: at a step (safety), only by an unmet obligation (liveness), or both (other). */
  readonly kind: PropertyKind;
  readonly runs: number;
  readonly violatedRuns: number;
  readonly share: number;
  readonly violations: number;
  readonly satisfiedRuns: number;
  readonly pendingRuns: number;
}

export interface Malformed {
  readonly line: number;
  readonly reason: string;
}

export interface AuditReport {
  readonly semantics: EndSemantics;
  readonly recovery: boolean;
  readonly events: number;
  /** Every run's outcome, in the order runs were closed (empty with `keepRuns: false`). */
  readonly runs: readonly RunOutcome[];
  readonly runCount: number;
  /** Runs violating at least one property. */
  readonly violatedRuns: number;
  /**
   * Runs violating at least one property of each kind: safety rules (broken at a step) and
   * liveness rules (an obligation never met) are counted apart, as the papers' tables do.
   */
  readonly violatedRunsByKind: { readonly safety: number; readonly liveness: number; readonly other: number };
  readonly summary: readonly SummaryRow[];
  readonly malformed: { readonly count: number; readonly first: readonly Malformed[] };
  /** Runs closed early by the `maxOpenRuns` bound, and how many of their ids came back later. */
  readonly closedEarly: { readonly count: number; readonly reopened: number; readonly maxOpenRuns: number };
}

/** A malformed line under `--strict`. */
export class MalformedLineError extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
    /** The line as written and the column to point at, when the reader kept them. */
    readonly text?: string,
    readonly col?: number,
  ) {
    super(`line ${line}: ${reason}`);
    this.name = 'MalformedLineError';
  }
}

const MAX_LISTED_MALFORMED = 20;

interface RunState extends RecencyNode {
  readonly key: string;
  readonly name: string;
  readonly monitor: ProgressionMonitor;
  readonly firstLine: number;
  lastLine: number;
  events: number;
  /** What `delta` rules need of the previous event (the whole event with a custom labeler). */
  previous: EventRecord | undefined;
  /**
   * Fields (bit words) no event of the run has had yet; undefined once all have been seen, and
   * for the continuation of a run closed early (part of the run was not seen).
   */
  unseen: number[] | undefined;
  /** Automaton monitors (with `automata`) and the line at which each reached its verdict. */
  readonly autos: AutomatonMonitor[] | undefined;
  readonly autoLines: (number | undefined)[] | undefined;
}

export async function auditLog(items: AsyncIterable<LogItem> | Iterable<LogItem>, options: AuditOptions): Promise<AuditReport> {
  const semantics = options.semantics ?? 'ltl3';
  const recovery = options.recovery ?? true;
  const missing = options.missing ?? 'check';
  const keepRuns = options.keepRuns ?? true;
  const maxOpenRuns = Math.max(1, Math.floor(options.maxOpenRuns ?? defaultMaxOpenRuns(options.properties.length)));
  if (options.automata && options.automata.length !== options.properties.length) {
    throw new Error('auditLog: one automaton per property is needed');
  }
  // Every run's monitors are fresh copies of these: one formula store, memo tables and automata for all.
  // Only the first violation's witness is reported, so none is recorded after it.
  const template = new ProgressionMonitor(options.properties, {
    recovery,
    recoverAfter: 'violation',
    // One-shot rules (no top-level G) are judged once per run: restarting them would count one
    // mistake again at every later step.
    recoverOnlyInvariants: true,
    witnessLimit: options.witnessLimit ?? 20,
    witnessAfterFirstViolation: false,
  });
  const autoTemplates = options.automata?.map((a) => new AutomatonMonitor(a));
  const restarts = options.properties.map((p) => recovery && isInvariant(p.formula));
  const index = new Map(options.properties.map((p, i) => [p.name, i]));

  const delegated = options.delegate ? new Set(options.delegate.propositions) : undefined;
  const plan = options.labeler ? undefined : planFields(options.properties, options.labels, delegated);
  const reader = plan ? new FieldReader(plan, options.labels, missing) : undefined;
  const labeler: AnyLabeler = options.delegate ? delegating(reader!.label, options.delegate.labeler) : (options.labeler ?? reader!.label);
  // JSONL: each run must show each field somewhere. CSV: the header check replaces this.
  let trackFields = reader !== undefined && missing !== 'false' && plan!.fields.length > 0;
  // The same over the whole log: a run closed early is not checked on its own (the rest of it may
  // have the field), but a field no record of the log has is an error at the end all the same.
  let logUnseen = trackFields ? reader!.allFields() : undefined;

  const summary = new SummaryCounter(
    options.properties.map((p) => p.name),
    await propertyKinds(options.properties.map((p) => p.formula)),
  );
  const outcomes: RunOutcome[] = [];
  const open = new Map<string, RunState>();
  const recency = new RecencyList<RunState>();
  // Closed run ids → closed early? Two generations, so forgetting the oldest is O(1).
  let closed = new Map<string, boolean>();
  let closedBefore = new Map<string, boolean>();
  let closedEarly = 0;
  let reopened = 0;
  let lastKey: string | undefined;
  const malformed: Malformed[] = [];
  let malformedCount = 0;
  let events = 0;

  const close = async (s: RunState, early: boolean): Promise<void> => {
    open.delete(s.key);
    recency.remove(s);
    if (s.unseen && !early) {
      const fields = reader!.unseenFields(s.unseen);
      const where = options.groupBy === undefined ? 'the log' : `run '${s.name}' (lines ${s.firstLine}–${s.lastLine})`;
      throw new FieldCheckError(
        fields.map((field) => ({ kind: 'missing' as const, field })),
        s.firstLine,
        describeAbsent(fields, where),
      );
    }
    let properties = s.monitor.finish(semantics).map(toOutcome);
    if (s.autos && semantics === 'ltl3') properties = properties.map((p, i) => complete(p, s.autos![i], s.autoLines![i]));
    const outcome: RunOutcome = {
      run: s.name,
      events: s.events,
      firstLine: s.firstLine,
      lastLine: s.lastLine,
      ...(early ? { closedEarly: true as const } : {}),
      properties,
    };
    if (early) closedEarly++;
    if (closed.size >= REMEMBERED_IDS) {
      closedBefore = closed;
      closed = new Map();
    }
    closed.set(s.key, early);
    summary.add(outcome);
    if (keepRuns) outcomes.push(outcome);
    if (options.onRun) {
      const pending = options.onRun(outcome);
      if (pending) await pending;
    }
  };

  const bad = (line: number, reason: string, text?: string, col?: number): void => {
    if (options.strict) throw new MalformedLineError(line, reason, text, col);
    malformedCount++;
    if (malformed.length < MAX_LISTED_MALFORMED) malformed.push({ line, reason });
  };

  for await (const item of items) {
    if (item.kind === 'malformed') {
      bad(item.line, item.reason, item.text, item.col);
      continue;
    }
    if (item.kind === 'header') {
      if (plan && missing !== 'false') {
        const problems = checkColumns(item.columns, plan);
        if (problems.length > 0) {
          const span = headerSpan(item.text, problems);
          throw new FieldCheckError(problems, item.line, describeColumns(problems, item.columns, item.given), item.text, span.col, span.length);
        }
        // Every row has every column: nothing left to check per run.
        trackFields = false;
        logUnseen = undefined;
      }
      continue;
    }
    const { event, line } = item;
    let key = '';
    if (options.groupBy !== undefined) {
      const value = Object.hasOwn(event, options.groupBy) ? event[options.groupBy] : undefined;
      if (value === undefined || value === null) {
        bad(line, `no field '${options.groupBy}' to group by`);
        continue;
      }
      key = typeof value === 'string' ? value : JSON.stringify(value);
    }
    let state = open.get(key);
    if (options.contiguous && key !== lastKey && lastKey !== undefined) {
      const previous = open.get(lastKey);
      if (previous) await close(previous, false);
    }
    let labels: Record<string, boolean>;
    try {
      const answer = labeler(event, state?.previous);
      labels = isPromiseLike(answer) ? await answer : answer;
    } catch (err) {
      if (err instanceof MissingFieldError || err instanceof LlmLabelError) {
        bad(line, err.message);
        continue;
      }
      if (err instanceof FieldCheckError) throw new FieldCheckError(err.problems, line, err.detail);
      throw err;
    }
    if (!state) {
      if (open.size >= maxOpenRuns) await close(recency.oldest!, true);
      const before = closed.get(key) ?? closedBefore.get(key);
      if (before === true) reopened++;
      state = {
        key,
        name: before === undefined ? key : `${key}@line${line}`,
        monitor: template.fresh(),
        firstLine: line,
        lastLine: line,
        events: 0,
        previous: undefined,
        unseen: trackFields && before !== true ? reader!.allFields() : undefined,
        autos: autoTemplates?.map((a) => a.fresh()),
        autoLines: autoTemplates?.map(() => undefined),
        older: undefined,
        newer: undefined,
      };
      open.set(key, state);
      recency.push(state);
    } else if (key !== lastKey) {
      recency.touch(state);
    }
    lastKey = key;
    if (state.unseen && reader!.markPresent(event, state.unseen)) state.unseen = undefined;
    if (logUnseen && reader!.markPresent(event, logUnseen)) logUnseen = undefined;
    const reached = state.monitor.step(labels, line);
    if (state.autos) {
      const autos = state.autos;
      const lines = state.autoLines!;
      for (let i = 0; i < autos.length; i++) {
        if (autos[i].verdict === 'pending' && autos[i].step(labels) !== 'pending') lines[i] = line;
      }
      // Progression reached a verdict and (with recovery) restarted: restart the automaton with it.
      for (const r of reached) {
        const i = index.get(r.name)!;
        if (!restarts[i]) continue;
        autos[i].reset();
        lines[i] = undefined;
      }
    }
    state.events++;
    state.lastLine = line;
    state.previous = reader ? reader.keepForNext(event) : event;
    events++;
  }

  // The rest close in the order their runs started, as in a log read to the end.
  for (const s of [...open.values()].sort((a, b) => a.firstLine - b.firstLine)) await close(s, false);
  if (logUnseen && events > 0) {
    const fields = reader!.unseenFields(logUnseen);
    throw new FieldCheckError(
      fields.map((field) => ({ kind: 'missing' as const, field })),
      1,
      describeAbsent(fields, 'the log'),
    );
  }
  return {
    semantics,
    recovery,
    events,
    runs: outcomes,
    runCount: summary.runs,
    violatedRuns: summary.anyViolated,
    violatedRunsByKind: { ...summary.anyViolatedByKind },
    summary: summary.rows(),
    malformed: { count: malformedCount, first: malformed },
    closedEarly: { count: closedEarly, reopened, maxOpenRuns },
  };
}

/** Rules and fields for most propositions, another (possibly async) labeler for the delegated ones. */
function delegating(own: AnyLabeler, other: AnyLabeler): AnyLabeler {
  return (event, previous) => {
    const mine = own(event, previous);
    const theirs = other(event, previous);
    const merge = (a: Record<string, boolean>, b: Record<string, boolean>): Record<string, boolean> =>
      Object.assign(Object.create(null) as Record<string, boolean>, a, b);
    if (!isPromiseLike(mine) && !isPromiseLike(theirs)) return merge(mine, theirs);
    return Promise.all([mine, theirs]).then(([a, b]) => merge(a, b));
  };
}

function toOutcome(s: FinalStatus): PropertyOutcome {
  // Only violations carry a witness: per-run outcomes are what an audit keeps in memory.
  // A violation decided only at the end of the log (LTLf) has no violating line of its own.
  const witness = s.violations > 0 ? (s.violationWitness ?? s.witness) : [];
  return {
    name: s.name,
    verdict: s.violations > 0 ? 'violated' : s.verdict,
    violations: s.violations,
    satisfactions: s.satisfactions,
    ...(s.firstViolationStep !== undefined ? { firstViolationStep: s.firstViolationStep } : {}),
    ...(s.firstViolationAt !== undefined ? { firstViolationLine: s.firstViolationAt } : {}),
    witness,
  };
}

function complete(p: PropertyOutcome, monitor: AutomatonMonitor, line: number | undefined): PropertyOutcome {
  if (p.verdict !== 'pending') return p;
  const v = monitor.verdict;
  if (v === 'pending') return p;
  if (v === 'satisfied') return { ...p, verdict: 'satisfied', satisfactions: p.satisfactions + 1, decidedBy: 'automaton' };
  return {
    ...p,
    verdict: 'violated',
    violations: p.violations + 1,
    firstViolationStep: p.firstViolationStep ?? monitor.decidedStep,
    ...(p.firstViolationLine === undefined && line !== undefined ? { firstViolationLine: line } : {}),
    decidedBy: 'automaton',
  };
}

/** Per-property counts over runs, added one run at a time (no run needs to be kept). */
export class SummaryCounter {
  runs = 0;
  anyViolated = 0;
  readonly anyViolatedByKind: Record<PropertyKind, number> = { safety: 0, liveness: 0, other: 0 };
  private readonly violatedRuns: number[];
  private readonly violations: number[];
  private readonly satisfiedRuns: number[];
  private readonly pendingRuns: number[];

  constructor(
    private readonly names: readonly string[],
    /** Per property; default: all `other` (unknown). */
    private readonly kinds: readonly PropertyKind[] = names.map(() => 'other'),
  ) {
    const zeros = () => names.map(() => 0);
    this.violatedRuns = zeros();
    this.violations = zeros();
    this.satisfiedRuns = zeros();
    this.pendingRuns = zeros();
  }

  add(run: RunOutcome): void {
    this.runs++;
    let any = false;
    const byKind = { safety: false, liveness: false, other: false };
    run.properties.forEach((p, i) => {
      this.violations[i] += p.violations;
      if (p.violations > 0) {
        this.violatedRuns[i]++;
        any = true;
        byKind[this.kinds[i]] = true;
      } else if (p.verdict === 'satisfied') this.satisfiedRuns[i]++;
      else this.pendingRuns[i]++;
    });
    if (any) this.anyViolated++;
    for (const k of ['safety', 'liveness', 'other'] as const) if (byKind[k]) this.anyViolatedByKind[k]++;
  }

  rows(): SummaryRow[] {
    return this.names.map((property, i) => ({
      property,
      kind: this.kinds[i],
      runs: this.runs,
      violatedRuns: this.violatedRuns[i],
      share: this.runs === 0 ? 0 : this.violatedRuns[i] / this.runs,
      violations: this.violations[i],
      satisfiedRuns: this.satisfiedRuns[i],
      pendingRuns: this.pendingRuns[i],
    }));
  }
}

export function summarize(names: readonly string[], runs: readonly RunOutcome[], kinds?: readonly PropertyKind[]): SummaryRow[] {
  const counter = new SummaryCounter(names, kinds);
  for (const r of runs) counter.add(r);
  return counter.rows();
}
