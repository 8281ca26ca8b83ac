/**
 * `validateExamples`: checks the few-shot examples written into an agent's prompt against its spec
 * (paper 003: "formally validate prompt examples"), so a prompt never teaches the model a path the
 * decoder would then refuse.
 *
 * The text is split at the states' markers (longest first at one position, so "Final Thought:"
 * is not read as "Thought:"); text before the first marker and between examples (a "Question:"
 * line, say) belongs to no state. An example starts with the initial state's marker and ends:
 * - in the final state, where the behavior may stop (the final state's text runs to the next blank
 *   line, so a following "Question: …" paragraph is not part of the answer);
 * - else at a blank line followed by the initial state's marker, when the example may stop there,
 *   cannot go on with it, or has already been rejected (a rejected example swallows markers up to
 *   such a point, so one mistake is reported once, not as a cascade of broken examples);
 * - else at the end of the text.
 * Each example is then accepted, or rejected at its first invalid step: a marker the behavior does
 * not allow there, text breaking the state's content constraint, or an end where the behavior may
 * not stop; the report says what would have been allowed.
 */
import { compileBehavior } from './behavior.js';
import { checkContent } from './content.js';
import { type AgentSpec, type AgentState, endpoints } from './spec.js';

export interface ExampleStep {
  readonly state: string;
  /** The state's text (trimmed). */
  readonly text: string;
  /** Where its marker starts, 1-based. */
  readonly line: number;
  readonly column: number;
}

export interface ExampleProblem {
  /**
   * `invalid-state`: a marker the behavior does not allow there (including an example that does not
   * start with the initial state); `invalid-content`: the text breaks the state's content
   * constraint; `incomplete`: the example ends where the behavior may not stop.
   */
  readonly kind: 'invalid-state' | 'invalid-content' | 'incomplete';
  /** 1-based step at fault (for `incomplete`: the last step there is). */
  readonly step: number;
  /** Where: the marker (`invalid-state`), the text (`invalid-content`), the end of the example (`incomplete`). */
  readonly line: number;
  readonly column: number;
  /** The state found at that step (not for `incomplete`). */
  readonly found?: string;
  /**
   * What would have been allowed: state names (`invalid-state`, `incomplete`) or the state's
   * allowed values (`invalid-content` with `(:allowed …)`; empty for a JSON schema, see message).
   */
  readonly allowed: readonly string[];
  readonly message: string;
}

export interface ExampleResult {
  /** 1-based, in text order. */
  readonly index: number;
  /** Where the example's first marker starts. */
  readonly line: number;
  readonly column: number;
  readonly accepted: boolean;
  /** The steps read, up to and including the first invalid one. */
  readonly steps: readonly ExampleStep[];
  readonly problem?: ExampleProblem;
}

export interface ExamplesReport {
  readonly examples: readonly ExampleResult[];
  readonly accepted: number;
  readonly rejected: number;
}

export interface ValidateExamplesOptions {
  /** Loop cap to validate against (as `runAgent`'s `maxLoops`; default: the spec's own). */
  readonly maxLoops?: number | null;
}

interface Occurrence {
  readonly state: AgentState;
  readonly start: number;
  readonly end: number;
}

/** Every marker occurrence, left to right, not overlapping; at one position the longest marker wins. */
function findMarkers(text: string, states: readonly AgentState[]): Occurrence[] {
  const all: Occurrence[] = [];
  for (const state of states) {
    // Markers are matched without their surrounding blanks ("Let's think step by step. ").
    const marker = state.text.trim();
    for (let at = text.indexOf(marker); at >= 0; at = text.indexOf(marker, at + 1)) all.push({ state, start: at, end: at + marker.length });
  }
  all.sort((x, y) => x.start - y.start || y.end - x.end);
  const out: Occurrence[] = [];
  for (const o of all) if (out.length === 0 || o.start >= out[out.length - 1].end) out.push(o);
  return out;
}

const BLANK_LINE = /\r?\n[ \t]*\r?\n/;

/** Text up to its first blank line. */
function firstParagraph(s: string): string {
  const m = BLANK_LINE.exec(s);
  return m ? s.slice(0, m.index) : s;
}

export function validateExamples(spec: AgentSpec, text: string, options: ValidateExamplesOptions = {}): ExamplesReport {
  const automaton = compileBehavior(spec, options.maxLoops === undefined ? {} : { maxLoops: options.maxLoops });
  const { initial, final } = endpoints(spec);
  const byName = new Map(spec.states.map((s) => [s.name, s]));
  const marker = (name: string): string => JSON.stringify(byName.get(name)!.text.trim());
  const markers = (names: readonly string[]): string => names.map(marker).join(' or ');

  // 1-based line and column of an offset (binary search over line starts).
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const position = (offset: number): { line: number; column: number } => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - lineStarts[lo] + 1 };
  };

  const occurrences = findMarkers(text, spec.states);
  /** The raw text of occurrence i: up to the next marker. */
  const rawText = (i: number): string => text.slice(occurrences[i].end, i + 1 < occurrences.length ? occurrences[i + 1].start : text.length);

  interface Building {
    readonly first: number;
    /** Indices of the occurrences read as steps. */
    readonly steps: number[];
    q: number;
    done: boolean;
    problem?: ExampleProblem;
  }
  const results: ExampleResult[] = [];

  const close = (b: Building): void => {
    // The last step's text ends at a blank line: what follows is text between examples.
    const last = b.steps.length - 1;
    const stepText = (k: number): string => (k === last ? firstParagraph(rawText(b.steps[k])) : rawText(b.steps[k]));
    let problem = b.problem;
    if (!problem && !b.done && !automaton.accepting(b.q)) {
      const o = occurrences[b.steps[last]];
      const allowed = automaton.valid(b.q);
      problem = {
        kind: 'incomplete',
        step: b.steps.length,
        ...position(o.end + stepText(last).trimEnd().length),
        allowed,
        message: `the example ends after ${marker(o.state.name)}, where the behavior may not stop; next would be ${markers(allowed)}${final !== undefined ? `, then on to ${marker(final)}` : ''}`,
      };
    }
    // A content problem at an earlier step comes first.
    const checkUpTo = problem && problem.kind !== 'incomplete' ? problem.step - 1 : b.steps.length;
    for (let k = 0; k < checkUpTo; k++) {
      const o = occurrences[b.steps[k]];
      const raw = stepText(k);
      const check = checkContent(o.state, raw);
      if (check.ok) continue;
      const lead = raw.length - raw.trimStart().length;
      problem = {
        kind: 'invalid-content',
        step: k + 1,
        ...position(o.end + (raw.trim() === '' ? 0 : lead)),
        found: o.state.name,
        allowed: o.state.allowed ?? [],
        message: `step ${k + 1}, ${marker(o.state.name)}: ${check.problem}`,
      };
      break;
    }
    const steps = b.steps.map((i, k) => ({ state: occurrences[i].state.name, text: stepText(k).trim(), ...position(occurrences[i].start) }));
    results.push({
      index: results.length + 1,
      ...position(occurrences[b.first].start),
      accepted: problem === undefined,
      steps: problem ? steps.slice(0, problem.step) : steps,
      ...(problem ? { problem } : {}),
    });
  };

  let cur: Building | undefined;
  for (let i = 0; i < occurrences.length; i++) {
    const o = occurrences[i];
    const s = o.state.name;
    const afterBlank = i > 0 && BLANK_LINE.test(rawText(i - 1));
    if (cur && cur.done) {
      close(cur);
      cur = undefined;
    } else if (cur && afterBlank && s === initial && (cur.problem || automaton.accepting(cur.q) || automaton.step(cur.q, s) === undefined)) {
      close(cur);
      cur = undefined;
    }
    if (!cur) cur = { first: i, steps: [], q: automaton.start, done: false };
    if (cur.problem) continue;
    const prev = cur.steps.length > 0 ? occurrences[cur.steps[cur.steps.length - 1]].state.name : undefined;
    cur.steps.push(i);
    // The run always starts in the initial state, whatever else the behavior would allow first.
    const next = prev === undefined && s !== initial ? undefined : automaton.step(cur.q, s);
    if (next === undefined) {
      const allowed = prev === undefined ? [initial] : automaton.valid(cur.q);
      cur.problem = {
        kind: 'invalid-state',
        step: cur.steps.length,
        ...position(o.start),
        found: s,
        allowed,
        message:
          prev === undefined
            ? `an example starts with ${marker(initial)}, not ${marker(s)}`
            : `step ${cur.steps.length}: after ${marker(prev)} comes ${marker(s)}; allowed: ${markers(allowed)}`,
      };
      continue;
    }
    cur.q = next;
    if (s === final && automaton.accepting(next)) cur.done = true;
  }
  if (cur) close(cur);
  const accepted = results.filter((r) => r.accepted).length;
  return { examples: results, accepted, rejected: results.length - accepted };
}
