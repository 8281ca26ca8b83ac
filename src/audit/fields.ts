/**
 * Which fields of a log the audit rules read, and whether the log has them.
 *
 * A proposition is read either through a label rule (`inCave: "InCave"`, `{ field, eq }`, …) or,
 * without a rule, from the field of the same name in any letter case. A rule that reads a field
 * the log does not have would silently see `false` at every event, so by default (`check`) that is
 * an error: a CSV log must have each column once (checked at the header, before anything is
 * audited); a JSONL run must have each field in at least one of its records (checked when the run
 * ends). A single record may still leave a key out — it reads as false — which is how JSONL logs
 * usually write optional keys. `false` skips the checks (the older behaviour); `error` also makes
 * every event lacking a field a malformed line.
 *
 * This module also builds the labeler the auditor uses (rules for the propositions the properties
 * use, same-named fields for the rest) and keeps, of each event, only the fields a `delta` rule
 * needs from the previous event of a run — never the whole event, which may be large.
 */
import type { LtlNode } from '../../runtime/ltl/syntax.js';
import {
  type EventRecord,
  type LabelRules,
  type Labeler,
  MissingFieldError,
  symbolicLabeler,
  truthy,
} from '../../runtime/monitor/label.js';
import type { PropertySpec } from '../../runtime/monitor/progression.js';
import { ltlAtoms } from '../../runtime/ltl/atoms.js';

/** What to do about fields the rules read but the log lacks (see the module comment). */
export type AuditMissingPolicy = 'check' | 'false' | 'error';

export interface FieldUse {
  /** The field as the rule names it (a dotted path for nested JSON), or the proposition's name. */
  readonly name: string;
  readonly path: readonly string[];
  /** Read by a proposition without a rule, from a same-named field in any letter case. */
  readonly anyCase: boolean;
  /** The propositions reading the field, each with the properties that mention it. */
  readonly readers: readonly { readonly proposition: string; readonly properties: readonly string[] }[];
}

export interface FieldPlan {
  readonly fields: readonly FieldUse[];
  /** Propositions the properties use that have a label rule. */
  readonly ruled: readonly string[];
  /** Propositions the properties use without a rule (read from same-named fields). */
  readonly open: readonly string[];
  /** Field paths `delta` rules read from the previous event of the same run. */
  readonly previousPaths: readonly (readonly string[])[];
}

/** Propositions of a formula (see runtime/ltl/atoms.ts). */
export function propositionsOf(formula: LtlNode): Set<string> {
  return ltlAtoms(formula);
}

/** Fields a label condition reads (`delta` also reads the previous event). */
function conditionFields(cond: unknown, out: { field: string; delta: boolean }[]): void {
  if (typeof cond === 'string') {
    out.push({ field: cond, delta: false });
    return;
  }
  if (cond === null || typeof cond !== 'object') return;
  const c = cond as Record<string, unknown>;
  for (const key of ['all', 'any']) {
    const list = c[key];
    if (Array.isArray(list)) for (const x of list) conditionFields(x, out);
  }
  if ('not' in c) conditionFields(c.not, out);
  if (typeof c.field === 'string') out.push({ field: c.field, delta: 'delta' in c });
}

/**
 * The fields the properties' propositions read. Propositions in `delegated` are labelled by
 * something else (an LLM labeler with a prompt per proposition), so they read no field.
 */
export function planFields(properties: readonly PropertySpec[], labels: LabelRules | undefined, delegated?: ReadonlySet<string>): FieldPlan {
  // proposition → properties mentioning it, in property order.
  const users = new Map<string, string[]>();
  for (const p of properties) {
    for (const ap of [...propositionsOf(p.formula)].sort()) {
      let list = users.get(ap);
      if (!list) users.set(ap, (list = []));
      list.push(p.name);
    }
  }
  const fields = new Map<string, { name: string; anyCase: boolean; readers: { proposition: string; properties: string[] }[] }>();
  const use = (name: string, anyCase: boolean, proposition: string, props: string[]): void => {
    const key = `${anyCase ? 'i' : 'e'}:${name}`;
    let f = fields.get(key);
    if (!f) fields.set(key, (f = { name, anyCase, readers: [] }));
    if (!f.readers.some((r) => r.proposition === proposition)) f.readers.push({ proposition, properties: props });
  };
  const ruled: string[] = [];
  const open: string[] = [];
  const previous = new Map<string, readonly string[]>();
  for (const [ap, props] of users) {
    if (delegated?.has(ap)) continue;
    if (labels && Object.hasOwn(labels, ap)) {
      ruled.push(ap);
      const found: { field: string; delta: boolean }[] = [];
      conditionFields(labels[ap], found);
      for (const f of found) {
        use(f.field, false, ap, props);
        if (f.delta) previous.set(f.field, f.field.split('.'));
      }
    } else {
      open.push(ap);
      use(ap, true, ap, props);
    }
  }
  return {
    fields: [...fields.values()].map((f) => ({ ...f, path: f.anyCase ? [f.name] : f.name.split('.') })),
    ruled,
    open,
    previousPaths: [...previous.values()],
  };
}

/** A field the rules read that the log lacks, or cannot tell apart from another. */
export interface FieldProblem {
  readonly kind: 'missing' | 'duplicate' | 'ambiguous';
  readonly field: FieldUse;
  /** duplicate/ambiguous: the matching column names and their 1-based positions. */
  readonly matches?: readonly { readonly name: string; readonly position: number }[];
}

/** Checks a CSV header (or `--columns`) against the fields the rules read. */
export function checkColumns(columns: readonly string[], plan: FieldPlan): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const field of plan.fields) {
    if (!field.anyCase && /^#\d+$/.test(field.name)) {
      // `#<index>` reads a cell by position.
      if (Number(field.name.slice(1)) >= columns.length) problems.push({ kind: 'missing', field });
      continue;
    }
    const exact = columns.flatMap((c, i) => (c === field.name ? [{ name: c, position: i + 1 }] : []));
    if (exact.length > 1) {
      problems.push({ kind: 'duplicate', field, matches: exact });
      continue;
    }
    if (exact.length === 1) continue;
    if (field.anyCase) {
      const lower = field.name.toLowerCase();
      const similar = columns.flatMap((c, i) => (c.toLowerCase() === lower ? [{ name: c, position: i + 1 }] : []));
      if (similar.length === 1) continue;
      if (similar.length > 1) {
        // The same name twice is a duplicate; different spellings are ambiguous.
        const same = similar.every((m) => m.name === similar[0].name);
        problems.push({ kind: same ? 'duplicate' : 'ambiguous', field, matches: similar });
        continue;
      }
    }
    problems.push({ kind: 'missing', field });
  }
  return problems;
}

function readersText(f: FieldUse): string {
  return f.readers
    .map((r) => `proposition '${r.proposition}' of ${r.properties.length === 1 ? 'rule' : 'rules'} ${r.properties.map((p) => `'${p}'`).join(', ')}`)
    .join('; ');
}

/** One clause per problem, e.g. "no column 'done' (read by proposition 'done' of rule 'eventually')". */
export function describeProblem(p: FieldProblem, csv = false): string {
  const f = p.field;
  const what = csv ? 'column' : 'field';
  const by = `(read by ${readersText(f)})`;
  switch (p.kind) {
    case 'missing':
      return `no ${what} '${f.name}' ${by}${csv && f.path.length > 1 ? ' (CSV columns are not nested)' : ''}`;
    case 'duplicate':
      return `${what} '${p.matches![0].name}' ${by} appears ${p.matches!.length} times (${csv ? 'columns ' : ''}${p.matches!.map((m) => m.position).join(', ')}), so it cannot tell which to read`;
    case 'ambiguous':
      return `${what}s ${p.matches!.map((m) => `'${m.name}'`).join(' and ')} all match '${f.name}' in letter case ${by}, so it cannot tell which to read`;
  }
}

/**
 * Where in a header line to point for the first problem: the repeated (or clashing) column, or
 * the whole line for a missing one. Only for plain headers (no quoted names).
 */
export function headerSpan(text: string | undefined, problems: readonly FieldProblem[]): { col: number; length?: number } {
  if (text === undefined || text.includes('"')) return { col: 1 };
  const p = problems[0];
  if (p.kind === 'missing' || !p.matches || p.matches.length < 2) return { col: 1, length: text.length };
  const cells = text.split(',');
  const at = p.matches[1].position - 1;
  let col = 1;
  for (let i = 0; i < at; i++) col += cells[i].length + 1;
  // Header names are trimmed: skip the cell's leading spaces.
  col += cells[at].length - cells[at].trimStart().length;
  return { col, length: Math.max(1, cells[at].trim().length) };
}

/** The error for a CSV header (or `--columns`) lacking or repeating columns the rules read. */
export function describeColumns(problems: readonly FieldProblem[], columns: readonly string[], given: boolean): string {
  return (
    `${given ? 'the --columns given' : 'the header'}: ${problems.map((p) => describeProblem(p, true)).join('; ')}. ` +
    `The columns are ${columns.join(', ')}. Fix the ${given ? 'list' : 'header'}${given ? '' : ', name the columns with --columns'}, or pass --missing false to read missing columns as false`
  );
}

/** The error for a JSONL run (or log) in which no record has some field the rules read. */
export function describeAbsent(fields: readonly FieldUse[], where: string): string {
  return (
    `no record of ${where} has ${fields.map((f) => `field '${f.name}' (read by ${readersText(f)})`).join(' or ')}. ` +
    `A record may leave a field out (it reads as false), but a field absent from a whole run is more likely misnamed; ` +
    `pass --missing false if the log omits false flags`
  );
}

/** Columns or fields the rules read are missing or ambiguous (policy `check`). */
export class FieldCheckError extends Error {
  constructor(
    readonly problems: readonly FieldProblem[],
    /** Line of the header, or of the run's first record. */
    readonly line: number,
    readonly detail: string,
    /** The header as written, for showing the line. */
    readonly text?: string,
    /** 1-based column of the header text to point at, and how many characters. */
    readonly col = 1,
    readonly length?: number,
  ) {
    super(detail);
    this.name = 'FieldCheckError';
  }
}

const MISSING = Symbol('missing');

function fieldValue(event: EventRecord, path: readonly string[]): unknown {
  let cur: unknown = event;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object' || !Object.hasOwn(cur, key)) return MISSING;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur === undefined ? MISSING : cur;
}

/**
 * Per event: the labels, which of the plan's fields are present (for the per-run check) and the
 * part of the event a `delta` rule needs next time.
 */
export class FieldReader {
  readonly label: Labeler;
  private readonly fields: readonly FieldUse[];
  private readonly previousPaths: readonly (readonly string[])[];
  // Case-insensitive field lookup, cached for the last key layout seen (CSV: every row).
  private keysSeen: string | undefined;
  private resolved = new Map<string, string | undefined>();

  constructor(
    plan: FieldPlan,
    labels: LabelRules | undefined,
    /** Per-event policy for the labeler; `check` reads absent fields as false. */
    private readonly missing: AuditMissingPolicy,
    /** Where an ambiguous field name was met (JSONL): reported as a FieldCheckError. */
    private readonly strictNames = missing !== 'false',
  ) {
    this.fields = plan.fields;
    this.previousPaths = plan.previousPaths;
    // Every rule is compiled once to report malformed ones, even those no property uses.
    if (labels) symbolicLabeler(labels);
    const subset: Record<string, LabelRules[string]> = Object.create(null) as Record<string, LabelRules[string]>;
    if (labels) for (const ap of plan.ruled) subset[ap] = labels[ap];
    const ruled = plan.ruled.length > 0 ? symbolicLabeler(subset, { missing: missing === 'error' ? 'error' : 'false' }) : undefined;
    const open = plan.open;
    this.label = (event, previous) => {
      const out: Record<string, boolean> = ruled ? ruled(event, previous) : (Object.create(null) as Record<string, boolean>);
      for (const ap of open) {
        const f = this.resolve(event, ap);
        const v = f === undefined ? undefined : event[f];
        if (v === undefined) {
          if (this.missing === 'error') throw new MissingFieldError(ap, ap);
          out[ap] = false;
        } else out[ap] = truthy(v);
      }
      return out;
    };
  }

  /** The key of `event` an unruled proposition reads: the same name, else the one key equal in any case. */
  private resolve(event: EventRecord, ap: string): string | undefined {
    if (Object.hasOwn(event, ap)) return ap;
    const keys = Object.keys(event);
    const sig = keys.join('\u0000');
    if (sig !== this.keysSeen) {
      this.keysSeen = sig;
      this.resolved = new Map();
    }
    if (this.resolved.has(ap)) return this.resolved.get(ap);
    const lower = ap.toLowerCase();
    const matches = keys.filter((k) => k.toLowerCase() === lower);
    if (matches.length > 1 && this.strictNames) {
      const field = this.fields.find((f) => f.anyCase && f.name === ap)!;
      const problem: FieldProblem = { kind: 'ambiguous', field, matches: matches.map((name) => ({ name, position: keys.indexOf(name) + 1 })) };
      throw new FieldCheckError([problem], 0, describeProblem(problem));
    }
    this.resolved.set(ap, matches[0]);
    return matches[0];
  }

  /** Fields not yet seen in a run, as bit words (bit i of word w = field 30·w + i). */
  allFields(): number[] {
    const words: number[] = [];
    for (let i = 0; i < this.fields.length; i += 30) words.push(2 ** Math.min(30, this.fields.length - i) - 1);
    return words;
  }

  /** Clears the bits of the fields `event` has; true when none is left. */
  markPresent(event: EventRecord, unseen: number[]): boolean {
    let left = 0;
    for (let w = 0; w < unseen.length; w++) {
      let bits = unseen[w];
      for (let b = 0; bits !== 0 && b < 30; b++) {
        if (!(bits & (1 << b))) continue;
        if (this.has(event, this.fields[w * 30 + b])) bits &= ~(1 << b);
      }
      unseen[w] = bits;
      left |= bits;
    }
    return left === 0;
  }

  private has(event: EventRecord, f: FieldUse): boolean {
    if (!f.anyCase) return fieldValue(event, f.path) !== MISSING;
    const k = this.resolve(event, f.name);
    return k !== undefined && event[k] !== undefined;
  }

  /** The fields of `unseen` (bit words). */
  unseenFields(unseen: readonly number[]): FieldUse[] {
    return this.fields.filter((_, i) => (unseen[Math.floor(i / 30)] & (1 << i % 30)) !== 0);
  }

  /** What a later `delta` rule needs of this event: only the fields it reads (nested as in the event). */
  keepForNext(event: EventRecord): EventRecord | undefined {
    if (this.previousPaths.length === 0) return undefined;
    const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const path of this.previousPaths) {
      const v = fieldValue(event, path);
      if (v === MISSING) continue;
      let into = out;
      for (let i = 0; i < path.length - 1; i++) {
        const next = into[path[i]];
        into = (next !== null && typeof next === 'object' ? next : (into[path[i]] = Object.create(null))) as Record<string, unknown>;
      }
      into[path[path.length - 1]] = v;
    }
    return out;
  }
}
