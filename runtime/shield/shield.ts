/**
 * The shield: temporal rules over tool calls and events, answered before anything runs.
 *
 * Semantics (finite traces, LTLf): a session is the finite sequence of recorded events; each event
 * is a set of propositions (`call:<tool>` for a call, plus any labels the caller adds, or results
 * such as `result:verified`). A proposed call is ALLOWED when, after it, some finite continuation
 * of single events can still satisfy every rule — i.e. the rules' automaton state after the call
 * can reach acceptance. Otherwise it is DENIED, and the reason names the rule(s) that could no
 * longer be satisfied. Denied calls are never recorded, so the session stays where it was.
 *
 * Calls that can fail (`start`/`run`, and the AI SDK wrapper) count only once they completed: a
 * call whose tool threw is forgotten, so "at most once" still allows the retry. While a call runs,
 * it may yet complete or fail, so every later decision must hold either way (the automata are run
 * over both possibilities: a set of states, never more than the automaton has).
 */
import { parseLtl } from '../ltl/parse.js';
import { printLtl } from '../ltl/print.js';
import type { LtlNode } from '../ltl/syntax.js';
import { TermStore } from '../monitor/terms.js';
import { type Letter, LtlfDfa } from './dfa.js';
import { EventError } from './english/event.js';
import { englishRule } from './english/rule.js';
import { englishToLtl, explainLtl } from './patterns.js';
import { type PlanQuestion, PlanQuestionError, readPlanQuestion } from './plan-question.js';
import { ltlAtoms } from '../ltl/atoms.js';

export interface ShieldRule {
  readonly name: string;
  /** Spot-syntax LTL (quote propositions with `:`: `"call:refund"`) or a parsed tree. */
  readonly ltl?: string | LtlNode;
  /** An English pattern sentence (see the pattern library), used when `ltl` is absent. */
  readonly english?: string;
  /** What denials quote; default: the English sentence, or the formula explained in English. */
  readonly description?: string;
}

/** A rule: an object, or a string that is an English pattern sentence or else Spot-syntax LTL. */
export type RuleInput = ShieldRule | string;

export interface ToolCall {
  readonly tool: string;
  readonly args?: unknown;
  /** Extra propositions true at this step (e.g. `amount:large`). */
  readonly labels?: readonly string[];
}

export interface ResolvedRule {
  readonly name: string;
  readonly formula: LtlNode;
  readonly ltl: string;
  readonly description: string;
}

export interface RuleBreach {
  readonly rule: string;
  readonly description: string;
  /** True when the event itself violates the rule; false when it only makes it unsatisfiable later. */
  readonly immediate: boolean;
}

export interface Decision {
  readonly allowed: boolean;
  readonly letter: readonly string[];
  readonly breaches: readonly RuleBreach[];
  /** Plain-English explanation (also for allowed calls: "allowed"). */
  readonly reason: string;
}

export interface ShieldOptions {
  /** Tools the agent has (for `allowedTools()`); rules' `call:` propositions are added. */
  readonly tools?: readonly string[];
  /** Extra labels for a call, e.g. derived from its arguments. */
  readonly labelCall?: (call: ToolCall) => Iterable<string>;
  /** Letters continuations may use; default: the empty event and every proposition alone. */
  readonly alphabet?: readonly Letter[];
}

export class ShieldRuleError extends Error {
  constructor(
    readonly rule: string,
    message: string,
  ) {
    super(`rule '${rule}': ${message}`);
    this.name = 'ShieldRuleError';
  }
}

export const CALL_PREFIX = 'call:';

/** A string rule is English when it is a pattern sentence, or is not LTL and has no LTL operators. */
function looksEnglish(text: string): boolean {
  if (englishToLtl(text)) return true;
  if (/[()&|!]|->/.test(text)) return false;
  try {
    parseLtl(text);
    return false;
  } catch {
    return true;
  }
}

/** Normalise rule inputs: English sentences are read by the pattern library, then the English forms (english/rule.ts). */
export function resolveRules(rules: readonly RuleInput[]): ResolvedRule[] {
  const names = new Set<string>();
  return rules.map((r, i) => {
    const rule: ShieldRule = typeof r === 'string' ? { name: `rule ${i + 1}`, ...(looksEnglish(r) ? { english: r } : { ltl: r }) } : r;
    if (names.has(rule.name)) throw new ShieldRuleError(rule.name, 'duplicate rule name');
    names.add(rule.name);
    let formula: LtlNode;
    let english: string | undefined;
    if (rule.ltl !== undefined) {
      try {
        formula = typeof rule.ltl === 'string' ? parseLtl(rule.ltl) : rule.ltl;
      } catch (e) {
        throw new ShieldRuleError(rule.name, `cannot parse LTL: ${(e as Error).message}`);
      }
    } else if (rule.english !== undefined) {
      const read = englishRule(rule.english);
      if (!read) throw new ShieldRuleError(rule.name, `"${rule.english}" is not an English sentence`);
      if ('error' in read) throw new ShieldRuleError(rule.name, read.error);
      formula = read.formula;
      english = read.description;
    } else {
      throw new ShieldRuleError(rule.name, 'needs `ltl` or `english`');
    }
    return { name: rule.name, formula, ltl: printLtl(formula), description: rule.description ?? english ?? explainLtl(formula) };
  });
}

export function callLetter(call: ToolCall, labelCall?: (call: ToolCall) => Iterable<string>): Set<string> {
  const s = new Set<string>([CALL_PREFIX + call.tool, ...(call.labels ?? [])]);
  if (labelCall) for (const l of labelCall(call)) s.add(l);
  return s;
}

/**
 * A call that was allowed and is running: it counts once it completed (`complete()`), and not at
 * all if it failed (`fail()`). While it runs, decisions hold whether or not it will complete.
 */
export interface PendingCall {
  readonly decision: Decision;
  /** The call finished: record it. */
  complete(): void;
  /** The call failed (threw, was cancelled): forget it, so e.g. "at most once" still allows a retry. */
  fail(): void;
}

/** What `Shield.run` did: not run (denied, with why), or ran and returned `output`. */
export type ShieldRunResult<T> =
  | { readonly decision: Decision; readonly ran: false }
  | { readonly decision: Decision; readonly ran: true; readonly output: T };

/** An event after the recorded prefix: done, or a call still running (which may yet fail). */
interface TailEntry {
  readonly letter: Letter;
  done: boolean;
}

export class Shield {
  readonly rules: readonly ResolvedRule[];
  private readonly perRule: LtlfDfa[];
  private readonly all: LtlfDfa;
  /** Automaton states after `history`, the events before the first running call. */
  private states: number[];
  private allState: number;
  private readonly tools: string[];
  private readonly labelCall?: (call: ToolCall) => Iterable<string>;
  private readonly history: string[][] = [];
  /** Events from the first running call on, in the order they were allowed or recorded. */
  private readonly tail: TailEntry[] = [];
  private readonly pairs = new Map<string, LtlfDfa>();

  /**
   * Every proposition the rules mention (and `call:<tool>` for every known tool), sorted: what a
   * log of this shield's events must state at every step, true or false, to be audited by the rules.
   */
  readonly propositions: readonly string[];

  constructor(rules: readonly RuleInput[], options: ShieldOptions = {}) {
    this.rules = resolveRules(rules);
    const store = new TermStore();
    const terms = this.rules.map((r) => store.fromNode(r.formula));
    const props = new Set<string>();
    for (const r of this.rules) ltlAtoms(r.formula, props);
    const tools = new Set(options.tools ?? []);
    for (const p of props) if (p.startsWith(CALL_PREFIX)) tools.add(p.slice(CALL_PREFIX.length));
    this.tools = [...tools];
    for (const t of tools) props.add(CALL_PREFIX + t);
    this.propositions = [...props].sort();
    const alphabet = options.alphabet ?? [new Set<string>(), ...[...props].sort().map((p) => new Set([p]))];
    this.perRule = terms.map((t) => new LtlfDfa(t, { store, alphabet }));
    this.all = new LtlfDfa(store.and(terms), { store, alphabet });
    this.states = this.perRule.map((d) => d.start);
    this.allState = this.all.start;
    this.labelCall = options.labelCall;
  }

  /** Decide a proposed call without recording it. */
  check(call: ToolCall | string): Decision {
    const c = typeof call === 'string' ? { tool: call } : call;
    return this.decide(callLetter(c, this.labelCall), `call ${c.tool}`);
  }

  /** Decide an arbitrary event (a set of propositions) without recording it. */
  checkEvent(labels: Iterable<string>): Decision {
    const letter = new Set(labels);
    return this.decide(letter, `event {${[...letter].sort().join(', ')}}`);
  }

  /**
   * Decide, and record the call at once when it is allowed: for calls that cannot fail, or when
   * an attempt counts whether or not it succeeds. Use `start` or `run` to count only completed calls.
   */
  guard(call: ToolCall | string): Decision {
    const d = this.check(call);
    if (d.allowed) this.commit(new Set(d.letter));
    return d;
  }

  /**
   * Decide a call that is about to run. When it is allowed, it is held as running: later decisions
   * must hold both if it completes and if it fails, and it is recorded only by `complete()`.
   */
  start(call: ToolCall | string): PendingCall {
    const decision = this.check(call);
    if (!decision.allowed) {
      const denied = (): never => {
        throw new Error(`shield: ${decision.reason}; a denied call has nothing to complete or fail`);
      };
      return { decision, complete: denied, fail: denied };
    }
    const entry: TailEntry = { letter: new Set(decision.letter), done: false };
    this.tail.push(entry);
    let settled = false;
    const settle = (completed: boolean): void => {
      if (settled) throw new Error(`shield: the call ${decision.letter.join(', ')} was already ${entry.done ? 'completed' : 'failed'}`);
      settled = true;
      if (completed) entry.done = true;
      else this.tail.splice(this.tail.indexOf(entry), 1);
      this.settleTail();
    };
    return { decision, complete: () => settle(true), fail: () => settle(false) };
  }

  /**
   * The framework-free API for calls that can fail: decide; if allowed, run `execute`; record the
   * call only if it returned (then the events `labelResult` derives from its output). If it
   * throws, nothing is recorded and the error is rethrown.
   */
  async run<T>(call: ToolCall | string, execute: () => T | PromiseLike<T>, labelResult?: (output: T) => Iterable<string>): Promise<ShieldRunResult<T>> {
    const pending = this.start(call);
    if (!pending.decision.allowed) return { decision: pending.decision, ran: false };
    let output: T;
    try {
      output = await execute();
    } catch (err) {
      pending.fail();
      throw err;
    }
    pending.complete();
    const labels = labelResult ? [...labelResult(output)] : [];
    if (labels.length > 0) this.observe(labels);
    return { decision: pending.decision, ran: true, output };
  }

  /** Record an executed call (whether or not it was checked). */
  record(call: ToolCall | string): void {
    const c = typeof call === 'string' ? { tool: call } : call;
    this.commit(callLetter(c, this.labelCall));
  }

  /** Record an observed event, e.g. `['result:verified']`. */
  observe(labels: Iterable<string>): void {
    this.commit(new Set(labels));
  }

  /** Tools whose call is allowed now. */
  allowedTools(tools: readonly string[] = this.tools): string[] {
    return tools.filter((t) => this.check(t).allowed);
  }

  /** Every known tool with its decision now. */
  decisions(tools: readonly string[] = this.tools): { tool: string; decision: Decision }[] {
    return tools.map((tool) => ({ tool, decision: this.check(tool) }));
  }

  /**
   * If the session ended now: are all rules satisfied, and which still wait for something? With
   * calls still running, a rule counts as satisfied only if it is whether or not they complete.
   */
  status(): { satisfied: boolean; pending: { rule: string; description: string }[] } {
    const pending = this.rules
      .filter((_, i) => [...this.reach(this.perRule[i], this.states[i])].some((q) => !this.perRule[i].accepting(q)))
      .map((r) => ({ rule: r.name, description: r.description }));
    return { satisfied: [...this.reach(this.all, this.allState)].every((q) => this.all.accepting(q)), pending };
  }

  /**
   * Events recorded so far (sorted proposition lists). A running call appears once it completed,
   * and events recorded after it once it completed or failed, so the trace only ever grows.
   */
  get trace(): readonly (readonly string[])[] {
    return this.history;
  }

  /** Calls allowed by `start` that have neither completed nor failed. */
  get running(): number {
    return this.tail.filter((e) => !e.done).length;
  }

  private commit(letter: Letter): void {
    if (this.tail.length > 0) {
      // Keep the order: this event comes after the calls still running.
      this.tail.push({ letter, done: true });
      return;
    }
    this.advance(letter);
  }

  private advance(letter: Letter): void {
    this.states = this.perRule.map((d, i) => d.step(this.states[i], letter));
    this.allState = this.all.step(this.allState, letter);
    this.history.push([...letter].sort());
  }

  /** Move completed events at the front of the tail into the recorded prefix. */
  private settleTail(): void {
    while (this.tail.length > 0 && this.tail[0].done) this.advance(this.tail.shift()!.letter);
  }

  /**
   * The states `dfa` may be in after `from` and the tail: each running call may complete or fail,
   * so it is an optional step. A set of states, so its size is bounded by the automaton's.
   */
  private reach(dfa: LtlfDfa, from: number): Set<number> {
    let states = new Set([from]);
    for (const entry of this.tail) {
      const next = new Set<number>(entry.done ? [] : states);
      for (const q of states) next.add(dfa.step(q, entry.letter));
      states = next;
    }
    return states;
  }

  /** Two rules that together cannot be satisfied after `letter`, if any. */
  private conflictingPair(letter: Letter): [number, number] | undefined {
    for (let i = 0; i < this.rules.length; i++) {
      for (let j = i + 1; j < this.rules.length; j++) {
        const key = `${i},${j}`;
        let dfa = this.pairs.get(key);
        if (!dfa) {
          const store = this.all.store;
          dfa = new LtlfDfa(store.and([this.perRule[i].term, this.perRule[j].term]), { store, alphabet: this.all.alphabet });
          this.pairs.set(key, dfa);
        }
        const pair = dfa;
        const from = this.reach(pair, pair.run(this.history.map((l) => new Set(l))));
        if ([...from].some((q) => !pair.live(pair.step(q, letter)))) return [i, j];
      }
    }
    return undefined;
  }

  private decide(letter: Letter, what: string): Decision {
    const breaches: RuleBreach[] = [];
    this.perRule.forEach((d, i) => {
      const after = [...this.reach(d, this.states[i])].map((q) => d.step(q, letter));
      if (after.some((q) => !d.live(q))) breaches.push({ rule: this.rules[i].name, description: this.rules[i].description, immediate: after.some((q) => d.violated(q)) });
    });
    const sorted = [...letter].sort();
    const runningNote = this.running > 0 ? ` (${this.running} call${this.running === 1 ? ' is' : 's are'} still running; the rules must hold whether or not ${this.running === 1 ? 'it completes' : 'they complete'})` : '';
    if (breaches.length === 0) {
      if ([...this.reach(this.all, this.allState)].every((q) => this.all.live(this.all.step(q, letter))))
        return { allowed: true, letter: sorted, breaches, reason: `${what} is allowed` };
      // Each rule alone could still be met, but not all of them together: name the smallest
      // group we can find (a pair, else every rule).
      const group = this.conflictingPair(letter) ?? this.rules.map((_, i) => i);
      const involved = group.map((i) => ({ rule: this.rules[i].name, description: this.rules[i].description, immediate: false }));
      return {
        allowed: false,
        letter: sorted,
        breaches: involved,
        reason: `${what} is blocked: after it the rules ${involved.map((b) => `"${b.rule}" (${b.description})`).join(' and ')} can no longer all be satisfied together${runningNote}`,
      };
    }
    const parts = breaches.map(
      (b) => `rule "${b.rule}" (${b.description}) ${b.immediate ? 'forbids it' : 'could no longer be satisfied afterwards'}`,
    );
    return { allowed: false, letter: sorted, breaches, reason: `${what} is blocked: ${parts.join('; ')}${runningNote}` };
  }
}

// ---------------------------------------------------------------------------------------------
// Whole plans

/** A plan step: a tool name, a tool call, or an event given as its propositions. */
export type PlanStep = string | ToolCall | { readonly labels: readonly string[] };

export interface PlanReport {
  /** True when no step is blocked and the finished plan satisfies every rule. */
  readonly ok: boolean;
  /** The first step that would be blocked, with why (0-based index). */
  readonly firstViolation?: { readonly index: number; readonly step: PlanStep; readonly decision: Decision };
  /** When every step is allowed but the plan ends with obligations unmet. */
  readonly unmetAtEnd: readonly { rule: string; description: string }[];
  /** Plain-English summary. */
  readonly explanation: string;
}

function stepLetter(step: PlanStep, labelCall?: (call: ToolCall) => Iterable<string>): Set<string> {
  if (typeof step === 'string') return callLetter({ tool: step }, labelCall);
  if ('tool' in step) return callLetter(step, labelCall);
  return new Set(step.labels);
}

function describeStep(step: PlanStep): string {
  if (typeof step === 'string') return step;
  if ('tool' in step) return step.args === undefined ? step.tool : `${step.tool}(${JSON.stringify(step.args)})`;
  return `{${step.labels.join(', ')}}`;
}

/** Validate a whole proposed plan before executing any of it. */
export function checkPlan(rules: readonly RuleInput[], plan: readonly PlanStep[], options: ShieldOptions = {}): PlanReport {
  const shield = new Shield(rules, options);
  for (let index = 0; index < plan.length; index++) {
    const step = plan[index];
    const letter = stepLetter(step, options.labelCall);
    const decision = shield.checkEvent(letter);
    if (!decision.allowed) {
      return {
        ok: false,
        firstViolation: { index, step, decision },
        unmetAtEnd: [],
        explanation: `step ${index + 1} (${describeStep(step)}) is blocked: ${decision.reason.replace(/^.*? is blocked: /, '')}`,
      };
    }
    shield.observe(letter);
  }
  const { satisfied, pending } = shield.status();
  if (satisfied) return { ok: true, unmetAtEnd: [], explanation: `all ${plan.length} steps are allowed and the plan satisfies every rule` };
  return {
    ok: false,
    unmetAtEnd: pending,
    explanation: `every step is allowed, but when the plan ends ${pending.map((p) => `rule "${p.rule}" (${p.description})`).join(' and ') || 'the rules together'} is still unmet`,
  };
}

/**
 * Answer a person's "will you …?" question about a plan (forms: runtime/shield/plan-question.ts).
 * A bare action asks about the whole plan ("will you go to the bedroom?" = at some point), and
 * places are grounded to the plan's own steps, so "living room" needs no quotes. The answer is
 * yes when the finished plan satisfies the question's formula, otherwise no with the deciding
 * step; the explanation quotes the formula read back in English.
 */
export function askAboutPlan(question: string, plan: readonly PlanStep[], options: ShieldOptions = {}): { answer: boolean; explanation: string; ltl: string } {
  const names = new Set<string>();
  for (const step of plan) for (const p of stepLetter(step, options.labelCall)) names.add(p);
  for (const t of options.tools ?? []) names.add(CALL_PREFIX + t);
  let q: PlanQuestion;
  try {
    q = readPlanQuestion(question, [...names]);
  } catch (e) {
    if (e instanceof PlanQuestionError || e instanceof EventError) throw new ShieldRuleError('question', e.message);
    throw e;
  }
  const ltl = printLtl(q.formula);
  const report = checkPlan([{ name: 'question', ltl: q.formula, description: q.reading }], plan, options);
  // `call:bathroom` beside `bathroom` says the same twice.
  const close = (names: readonly string[]) => names.filter((n) => !(n.startsWith(CALL_PREFIX) && names.includes(n.slice(CALL_PREFIX.length))));
  const missing = q.unknown.map((u) => ` ("${u.phrase}" is not in the plan${u.closest.length > 0 ? `; closest: ${close(u.closest).join(', ')}` : ''})`).join('');
  if (report.ok) return { answer: true, explanation: `yes: the plan satisfies "${q.reading}"${missing}`, ltl };
  if (report.firstViolation) {
    return {
      answer: false,
      explanation: `no: step ${report.firstViolation.index + 1} (${describeStep(report.firstViolation.step)}) makes "${q.reading}" impossible${missing}`,
      ltl,
    };
  }
  return { answer: false, explanation: `no: the plan ends before "${q.reading}" is fulfilled${missing}`, ltl };
}
