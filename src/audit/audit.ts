/**
 * The log auditor (Definition 4.2 + TRAC_R): group events into runs, label each event, progress
 * one monitor per run, and collect per-run and per-property outcomes. Streams: memory grows with
 * the number of runs, never with the number of events.
 */
import {
  type EventRecord,
  type Labeler,
  type LabelRules,
  type MissingPolicy,
  MissingFieldError,
  symbolicLabeler,
  truthy,
} from '../../runtime/monitor/label.js';
import {
  type EndSemantics,
  type FinalStatus,
  type Verdict,
  type WitnessEntry,
  ProgressionMonitor,
} from '../../runtime/monitor/progression.js';
import { AutomatonMonitor, type MonitorAutomaton } from '../../runtime/monitor/automaton.js';
import type { LogItem } from './logs.js';
import type { AuditRule } from './rules.js';

export interface AuditOptions {
  readonly properties: readonly AuditRule[];
  /** Rules for some or all propositions; the rest are read from a same-named field (any letter case). */
  readonly labels?: LabelRules;
  /** A labeling function instead of rules (library use). */
  readonly labeler?: Labeler;
  readonly missing?: MissingPolicy;
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
  readonly properties: readonly PropertyOutcome[];
}

export interface SummaryRow {
  readonly property: string;
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
  readonly runs: readonly RunOutcome[];
  readonly summary: readonly SummaryRow[];
  readonly malformed: { readonly count: number; readonly first: readonly Malformed[] };
}

/** A malformed line under `--strict`. */
export class MalformedLineError extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`line ${line}: ${reason}`);
    this.name = 'MalformedLineError';
  }
}

const MAX_LISTED_MALFORMED = 20;

/** Atomic propositions of the properties not covered by `rules`, read from same-named fields. */
function defaultLabeler(aps: readonly string[], rules: LabelRules | undefined, missing: MissingPolicy): Labeler {
  const ruled = rules ? symbolicLabeler(rules, { missing }) : undefined;
  const open = aps.filter((a) => !rules || !(a in rules));
  let fieldOf: Map<string, string | undefined> | undefined;
  let keysSeen: string | undefined;
  return (event, previous) => {
    const out: Record<string, boolean> = ruled ? ruled(event, previous) : {};
    if (open.length === 0) return out;
    const keys = Object.keys(event);
    const sig = keys.join('\u0000');
    if (sig !== keysSeen) {
      keysSeen = sig;
      fieldOf = new Map(
        open.map((ap) => [ap, ap in event ? ap : keys.find((k) => k.toLowerCase() === ap.toLowerCase())]),
      );
    }
    for (const ap of open) {
      const f = fieldOf!.get(ap);
      if (f === undefined || event[f] === undefined) {
        if (missing === 'error') throw new MissingFieldError(ap, ap);
        out[ap] = false;
      } else out[ap] = truthy(event[f]);
    }
    return out;
  };
}

interface RunState {
  readonly run: string;
  readonly monitor: ProgressionMonitor;
  readonly firstLine: number;
  events: number;
  previous: EventRecord | undefined;
  /** Automaton monitors (with `automata`) and the line at which each reached its verdict. */
  readonly autos?: { monitor: AutomatonMonitor; line?: number }[];
}

export async function auditLog(items: AsyncIterable<LogItem> | Iterable<LogItem>, options: AuditOptions): Promise<AuditReport> {
  const semantics = options.semantics ?? 'ltl3';
  const recovery = options.recovery ?? true;
  const missing = options.missing ?? 'false';
  const probe = new ProgressionMonitor(options.properties);
  const labeler = options.labeler ?? defaultLabeler(probe.aps, options.labels, missing);
  const runs = new Map<string, RunState>();
  const outcomes: RunOutcome[] = [];
  const seenKeys = new Set<string>();
  let currentKey: string | undefined;
  const close = (s: RunState): void => {
    let properties = s.monitor.finish(semantics).map(toOutcome);
    if (s.autos && semantics === 'ltl3') properties = properties.map((p, i) => complete(p, s.autos![i]));
    outcomes.push({ run: s.run, events: s.events, firstLine: s.firstLine, properties });
  };
  const index = new Map(options.properties.map((p, i) => [p.name, i]));
  if (options.automata && options.automata.length !== options.properties.length) {
    throw new Error('auditLog: one automaton per property is needed');
  }
  const malformed: Malformed[] = [];
  let malformedCount = 0;
  let events = 0;

  const bad = (line: number, reason: string): void => {
    if (options.strict) throw new MalformedLineError(line, reason);
    malformedCount++;
    if (malformed.length < MAX_LISTED_MALFORMED) malformed.push({ line, reason });
  };

  for await (const item of items) {
    if (item.kind === 'malformed') {
      bad(item.line, item.reason);
      continue;
    }
    const { event, line } = item;
    let run = '';
    if (options.groupBy !== undefined) {
      const key = event[options.groupBy];
      if (key === undefined || key === null) {
        bad(line, `no field '${options.groupBy}' to group by`);
        continue;
      }
      run = typeof key === 'string' ? key : JSON.stringify(key);
    }
    if (options.contiguous && run !== currentKey) {
      if (currentKey !== undefined) {
        close(runs.get(currentKey)!);
        runs.delete(currentKey);
        seenKeys.add(currentKey);
      }
      currentKey = run;
    }
    let state = runs.get(run);
    let labels: Record<string, boolean>;
    try {
      labels = labeler(event, state?.previous);
    } catch (err) {
      if (err instanceof MissingFieldError) {
        bad(line, err.message);
        continue;
      }
      throw err;
    }
    if (!state) {
      state = {
        run: seenKeys.has(run) ? `${run}@line${line}` : run,
        monitor: new ProgressionMonitor(options.properties, { recovery, recoverAfter: 'violation', witnessLimit: options.witnessLimit ?? 20 }),
        firstLine: line,
        events: 0,
        previous: undefined,
        ...(options.automata ? { autos: options.automata.map((a) => ({ monitor: new AutomatonMonitor(a) })) } : {}),
      };
      runs.set(run, state);
    }
    const reached = state.monitor.step(labels, line);
    if (state.autos) {
      for (const a of state.autos) {
        if (a.monitor.verdict === 'pending' && a.monitor.step(labels) !== 'pending') a.line = line;
      }
      // Progression reached a verdict and (with recovery) restarted: restart the automaton with it.
      for (const r of reached) {
        const a = state.autos[index.get(r.name)!];
        a.monitor.reset();
        a.line = undefined;
      }
    }
    state.events++;
    state.previous = event;
    events++;
  }

  for (const s of runs.values()) close(s);
  return {
    semantics,
    recovery,
    events,
    runs: outcomes,
    summary: summarize(options.properties.map((p) => p.name), outcomes),
    malformed: { count: malformedCount, first: malformed },
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

function complete(p: PropertyOutcome, a: { monitor: AutomatonMonitor; line?: number }): PropertyOutcome {
  if (p.verdict !== 'pending') return p;
  const v = a.monitor.verdict;
  if (v === 'pending') return p;
  if (v === 'satisfied') return { ...p, verdict: 'satisfied', satisfactions: p.satisfactions + 1, decidedBy: 'automaton' };
  return {
    ...p,
    verdict: 'violated',
    violations: p.violations + 1,
    firstViolationStep: p.firstViolationStep ?? a.monitor.decidedStep,
    ...(p.firstViolationLine === undefined && a.line !== undefined ? { firstViolationLine: a.line } : {}),
    decidedBy: 'automaton',
  };
}

export function summarize(names: readonly string[], runs: readonly RunOutcome[]): SummaryRow[] {
  return names.map((name, i) => {
    let violatedRuns = 0;
    let violations = 0;
    let satisfiedRuns = 0;
    let pendingRuns = 0;
    for (const r of runs) {
      const p = r.properties[i];
      violations += p.violations;
      if (p.violations > 0) violatedRuns++;
      else if (p.verdict === 'satisfied') satisfiedRuns++;
      else pendingRuns++;
    }
    return {
      property: name,
      runs: runs.length,
      violatedRuns,
      share: runs.length === 0 ? 0 : violatedRuns / runs.length,
      violations,
      satisfiedRuns,
      pendingRuns,
    };
  });
}
