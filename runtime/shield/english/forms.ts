/**
 * The sentence forms of the offline translator and the LTL each one yields (docs/agents-shields.md
 * §3 has the table). A sentence is cut at its connective — "if … then", "before", "until",
 * "only after", "after", "means", "followed by" — into clauses (clause.ts), the clauses' event
 * phrases are grounded (event.ts), and the form puts them together:
 *
 *   ordering     A before B, never B before A, not B until A, B only after A   → !B W A
 *   prohibition  never A, do not A, avoid A, A is forbidden                   → G !A
 *   obligation   you must A, eventually A (→ F A); always A (→ G A)
 *   response     if/whenever/when/once A, (then) B; A means B; after A, B      → G (A -> F B)
 *                … in the next step / right after (→ X B), … never B (→ G !B)
 *   counting     at least / at most / exactly N times, N times in a row
 *
 * Weak until, as in the Safety Chip paper (Yang et al.): an order constraint never obliges anything
 * to happen, so a shield blocks B until A but never blames a session for ending without A. Prohibitions
 * about the next step use the weak next (`!X B`), so they cannot fail because the trace ended.
 */
import type { LtlNode } from '../../ltl/syntax.js';
import { type Clause, ClauseError, findSeq, readClause, startsWithSeq } from './clause.js';
import { EventError, type EventScope, type EventSet, itemsOf, readEvent } from './event.js';
import type { Token } from './words.js';

export type Form = 'ordering' | 'prohibition' | 'obligation' | 'response' | 'counting';

export interface Reading {
  readonly formula: LtlNode;
  readonly form: Form;
}

/** A sentence that has a form's shape but cannot be read in it: the message says why. */
export class FormError extends Error {
  constructor(
    message: string,
    readonly form: Form | undefined,
    readonly suggestions: readonly string[] = [],
  ) {
    super(message);
    this.name = 'FormError';
  }
}

// --- LTL builders ---------------------------------------------------------------------------
const not = (n: LtlNode): LtlNode => (n.op === '!' ? n.arg : { op: '!', arg: n });
const and = (xs: readonly LtlNode[]): LtlNode => (xs.length === 1 ? xs[0] : { op: '&', args: xs });
const or = (xs: readonly LtlNode[]): LtlNode => (xs.length === 1 ? xs[0] : { op: '|', args: xs });
const G = (arg: LtlNode): LtlNode => ({ op: 'G', arg });
const F = (arg: LtlNode): LtlNode => ({ op: 'F', arg });
const X = (arg: LtlNode): LtlNode => ({ op: 'X', arg });
const implies = (left: LtlNode, right: LtlNode): LtlNode => ({ op: '->', left, right });
const W = (left: LtlNode, right: LtlNode): LtlNode => ({ op: 'W', left, right });

/** `F (e & X F (e & …))`: e happens at least k times (k ≥ 1). */
function atLeast(e: LtlNode, k: number): LtlNode {
  return k === 1 ? F(e) : F(and([e, X(atLeast(e, k - 1))]));
}
/** `e & X (e & …)`: e at k consecutive steps. */
function run(e: LtlNode, k: number): LtlNode {
  return k === 1 ? e : and([e, X(run(e, k - 1))]);
}
/** Never k times in a row; twice in a row as `G (e -> !X e)`, the pattern library's shape. */
function noRun(e: LtlNode, k: number): LtlNode {
  return k === 2 ? G(implies(e, not(X(e)))) : not(F(run(e, k)));
}
/** e now or within the next n steps. */
function within(e: LtlNode, n: number): LtlNode {
  const out: LtlNode[] = [e];
  let cur = e;
  for (let i = 0; i < n; i++) out.push((cur = X(cur)));
  return or(out);
}

function same(a: LtlNode, b: LtlNode): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

// --- reading ----------------------------------------------------------------------------------

interface Ctx {
  readonly scope: EventScope;
}

function event(ctx: Ctx, c: Clause): EventSet {
  try {
    return readEvent(c.words, ctx.scope);
  } catch (e) {
    if (e instanceof EventError) throw new FormError(e.message, undefined, e.suggestions);
    throw e;
  }
}

/** Build `f(a, b)` for every pair of items (each item its own constraint; see `itemsOf`). */
function each2(a: EventSet, aNeg: boolean, b: EventSet, bNeg: boolean, f: (x: LtlNode, y: LtlNode) => LtlNode): LtlNode {
  const xs = itemsOf(a, aNeg);
  const ys = itemsOf(b, bNeg);
  return and(xs.flatMap((x) => ys.map((y) => f(x, y))));
}
function each1(a: EventSet, negated: boolean, f: (x: LtlNode) => LtlNode): LtlNode {
  return and(itemsOf(a, negated).map(f));
}

function clause(tokens: readonly Token[]): Clause {
  try {
    return readClause(tokens);
  } catch (e) {
    if (e instanceof ClauseError) throw new FormError(e.message, undefined);
    throw e;
  }
}

function noCount(c: Clause, form: Form): void {
  if (c.count) throw new FormError('a count cannot be combined with this form; state it as a separate sentence', form);
}

/** "B only after A", "never B before A", "do not B until A", "A before B": B is blocked until A. */
function precedence(ctx: Ctx, blocked: Clause, first: Clause): Reading {
  noCount(blocked, 'ordering');
  noCount(first, 'ordering');
  const b = event(ctx, blocked);
  const a = event(ctx, first);
  return { form: 'ordering', formula: each2(b, true, a, false, (x, y) => W(not(x), y)) };
}

/** What a consequence clause demands from the step its trigger held on. */
function consequence(c: Clause, e: LtlNode, strict: boolean): LtlNode {
  const t = c.timing;
  if (c.neg) {
    if (t?.kind === 'next') return not(X(e));
    if (t?.kind === 'within') throw new FormError('"not … within N steps" is not supported; say "never … in the next step" or "never … after …"', 'response');
    // "never … afterwards": from the trigger's step on; the trigger itself ("never visit it
    // again"): from the next step on, or the rule would forbid the trigger.
    return strict ? not(X(F(e))) : G(not(e));
  }
  if (t?.kind === 'next') return X(e);
  if (t?.kind === 'within') return within(e, t.n);
  if (c.always || t?.kind === 'always' || t?.kind === 'onward') return G(e);
  return strict ? X(F(e)) : F(e);
}

/** "if A then B" and its relatives: `G (A -> consequence)`. */
function response(ctx: Ctx, trigger: Clause, then: Clause): Reading {
  noCount(trigger, 'response');
  noCount(then, 'response');
  if (trigger.neg) {
    // "if you have not been to A, you can not go to B": a precondition, i.e. an order.
    if (then.neg) return precedence(ctx, { ...then, neg: false }, { ...trigger, neg: false });
    throw new FormError('a negative condition ("if you have not …") needs a prohibition after it ("… you cannot …")', 'response');
  }
  if (then.may && !then.must && !then.neg && !then.always) {
    throw new FormError('"… you may …" grants a permission; a rule needs "must", "never" or "only after"', 'response');
  }
  const a = event(ctx, trigger);
  const b = event(ctx, then);
  return {
    form: 'response',
    formula: each2(a, false, b, then.neg, (x, y) => G(implies(x, consequence(then, y, same(x, y))))),
  };
}

function counting(ctx: Ctx, c: Clause): Reading {
  const count = c.count!;
  const e = event(ctx, c);
  const n = count.n;
  let f: (x: LtlNode) => LtlNode;
  switch (count.kind) {
    case 'atLeast':
      if (c.neg) throw new FormError('"never … at least N times" is unclear; say "at most N-1 times"', 'counting');
      f = (x) => atLeast(x, n);
      break;
    case 'atMost':
    case 'only':
      if (c.neg) throw new FormError('"not … at most N times" is unclear; say "at least N+1 times"', 'counting');
      f = (x) => not(atLeast(x, n + 1));
      break;
    case 'moreThan':
      f = c.neg ? (x) => not(atLeast(x, n + 1)) : (x) => atLeast(x, n + 1);
      break;
    case 'exactly':
      if (c.neg) throw new FormError('"not exactly N times" is not supported', 'counting');
      f = (x) => and([atLeast(x, n), not(atLeast(x, n + 1))]);
      break;
    case 'bare':
      if (c.only && !c.neg) {
        // "you can only go to A twice": at most that often.
        f = (x) => not(atLeast(x, n + 1));
        break;
      }
      if (!c.neg) {
        throw new FormError(`"${n === 1 ? 'once' : `${n} times`}" alone is unclear; say "at least ${n === 1 ? 'once' : `${n} times`}", "at most …" or "exactly …"`, 'counting');
      }
      // "never A twice": fewer than that.
      f = (x) => not(atLeast(x, n));
      break;
    case 'inARow':
      f = c.neg ? (x) => noRun(x, n) : (x) => F(run(x, n));
      break;
    case 'atMostInARow':
      if (c.neg) throw new FormError('"not … at most N times in a row" is unclear', 'counting');
      f = (x) => noRun(x, n + 1);
      break;
    case 'moreThanInARow':
      f = c.neg ? (x) => noRun(x, n + 1) : (x) => F(run(x, n + 1));
      break;
  }
  if (n < 1 && count.kind !== 'atMost' && count.kind !== 'only') throw new FormError('a count must be at least 1', 'counting');
  if (n > 50) throw new FormError('counts above 50 are not supported', 'counting');
  return { form: 'counting', formula: each1(e, false, f) };
}

function simple(ctx: Ctx, c: Clause): Reading {
  if (c.count) return counting(ctx, c);
  const e = event(ctx, c);
  const t = c.timing;
  if (c.neg) {
    if (t?.kind === 'next') return { form: 'prohibition', formula: each1(e, true, (x) => not(X(x))) };
    return { form: 'prohibition', formula: each1(e, true, (x) => G(not(x))) };
  }
  if (c.always || t?.kind === 'always') return { form: 'obligation', formula: each1(e, false, G) };
  if (c.may && !c.must) throw new FormError('"you may …" grants a permission; a rule needs "must", "never" or "only after"', 'obligation');
  if (t?.kind === 'next') return { form: 'obligation', formula: each1(e, false, X) };
  if (t?.kind === 'within') return { form: 'obligation', formula: each1(e, false, (x) => within(x, t.n)) };
  if (!c.must && !c.eventually && t?.kind !== 'later') {
    throw new FormError('a bare action is a task, not a rule; say "you must …" (at some point), "always …" or "never …"', 'obligation');
  }
  return { form: 'obligation', formula: each1(e, false, F) };
}

// --- sentence level -----------------------------------------------------------------------------

const CONDITION_WORDS = ['as soon as', 'every time', 'each time', 'any time', 'anytime', 'whenever', 'when', 'if', 'once', 'after', 'upon', 'in case', 'the moment'];
/** Words that open a clause: where an antecedent without a comma ends ("if you enter A you must …"). */
const CLAUSE_START = new Set(['you', 'we', 'i', 'never', 'always', 'do', 'must', 'please', 'then', 'immediately', 'avoid', 'make', 'remember', 'the robot', 'the agent']);

function firstWord(tokens: readonly Token[], list: readonly string[]): string | undefined {
  return list.find((w) => startsWithSeq(tokens, 0, w));
}

/** Where the antecedent of a leading condition ends and the consequence begins. */
function splitCondition(rest: readonly Token[]): [Token[], Token[]] | undefined {
  const comma = rest.findIndex((t) => t.w === ',' && !t.quoted);
  const then = rest.findIndex((t, i) => i > 0 && t.w === 'then' && !t.quoted);
  const cut = [comma, then].filter((i) => i > 0).sort((a, b) => a - b)[0];
  if (cut !== undefined) {
    const after = rest.slice(cut + 1);
    return [rest.slice(0, cut), after[0]?.w === 'then' ? after.slice(1) : after];
  }
  for (let i = 2; i < rest.length; i++) {
    if (CLAUSE_START.has(rest[i].w) && !rest[i].quoted) return [rest.slice(0, i), rest.slice(i)];
  }
  return undefined;
}

/** Index of a connective word at the top level of the sentence (not at its start), or -1. */
function connective(tokens: readonly Token[], seq: string, from = 1): number {
  return findSeq(tokens, seq, from);
}

const ORDER_BEFORE = ['before', 'prior to', 'ahead of', 'earlier than'];

function readOrdering(ctx: Ctx, tokens: readonly Token[]): Reading | undefined {
  // Leading "before B, A".
  const lead = firstWord(tokens, ORDER_BEFORE);
  if (lead) {
    const parts = splitCondition(tokens.slice(lead.split(' ').length));
    if (!parts) throw new FormError(`cannot tell where "${lead} …" ends; put a comma after it`, 'ordering');
    return ordering(ctx, clause(parts[1]), clause(parts[0]));
  }
  // "wait for A before B" / "wait until A before you B".
  if (startsWithSeq(tokens, 0, 'wait') || startsWithSeq(tokens, 0, 'you must wait') || startsWithSeq(tokens, 0, 'you have to wait')) {
    const w = findSeq(tokens, 'wait');
    const b = ORDER_BEFORE.map((s) => [s, connective(tokens, s)] as const).find(([, i]) => i > 0);
    const start = tokens[w + 1] && /^(for|until|till)$/.test(tokens[w + 1].w) ? w + 2 : w + 1;
    if (b) return precedence(ctx, clause(tokens.slice(b[1] + b[0].split(' ').length)), clause(tokens.slice(start, b[1])));
  }
  // "first A, then B": B is blocked until A.
  if (startsWithSeq(tokens, 0, 'first')) {
    const then = findSeq(tokens, 'then', 1);
    if (then > 0) return precedence(ctx, clause(tokens.slice(then + 1)), clause(tokens.slice(1, then)));
  }
  // "B only after A", "only B after A", "B is allowed only after A".
  const after = connective(tokens, 'after');
  if (after > 0 && tokens.slice(0, after).some((t) => t.w === 'only')) {
    const left = clause(tokens.slice(0, after).filter((t) => t.w !== 'only' || t.quoted));
    if (left.neg) throw new FormError('"not … only after …" is unclear', 'ordering');
    return precedence(ctx, left, clause(tokens.slice(after + 1)));
  }
  for (const s of ORDER_BEFORE) {
    const i = connective(tokens, s);
    if (i > 0) return ordering(ctx, clause(tokens.slice(0, i)), clause(tokens.slice(i + s.split(' ').length)));
  }
  for (const s of ['until', 'till', 'unless']) {
    const i = connective(tokens, s);
    if (i <= 0) continue;
    const left = clause(tokens.slice(0, i));
    const right = clause(tokens.slice(i + 1));
    if (s === 'unless') {
      // "never B unless you have A": A is B's precondition.
      if (!left.neg) throw new FormError('"… unless …" is read only after a prohibition ("never B unless A")', 'ordering');
      return precedence(ctx, { ...left, neg: false }, right);
    }
    noCount(left, 'ordering');
    const b = event(ctx, left);
    const a = event(ctx, right);
    // "do not B until A" = !B W A; "stay in B until A" = B W A (weak: A need not come).
    return { form: 'ordering', formula: each2(b, left.neg, a, false, (x, y) => W(left.neg ? not(x) : x, y)) };
  }
  return undefined;
}

/** "X before Y": an obligation-free order; which one is blocked depends on X's polarity. */
function ordering(ctx: Ctx, x: Clause, y: Clause): Reading {
  if (y.neg) throw new FormError('a negated event after "before" is not supported', 'ordering');
  // "never B before A" blocks B until A; "A before B" blocks B until A.
  return x.neg ? precedence(ctx, { ...x, neg: false }, y) : precedence(ctx, y, x);
}

/** "X after Y" (Y not at the start): see the module comment for which reading each modality gets. */
function readAfter(ctx: Ctx, tokens: readonly Token[]): Reading | undefined {
  for (let i = 1; i < tokens.length - 1; i++) {
    if (tokens[i].w !== 'after' || tokens[i].quoted) continue;
    if (/^(that|this|it|wards)$/.test(tokens[i + 1].w)) continue;
    if (/^(right|immediately|directly|straight)$/.test(tokens[i - 1].w)) {
      // "wash your hands immediately after entering the bathroom": the next step after the trigger.
      if (i < 2) continue;
      const x = clause(tokens.slice(0, i - 1));
      return response(ctx, clause(tokens.slice(i + 1)), { ...x, timing: { kind: 'next' } });
    }
    if (/^(shortly|soon)$/.test(tokens[i - 1].w)) continue;
    const x = clause(tokens.slice(0, i));
    const y = clause(tokens.slice(i + 1));
    if (x.neg) {
      // "never B after A": absence after A.
      return response(ctx, y, x);
    }
    if (x.must || x.always || x.eventually || x.timing) return response(ctx, y, x);
    return precedence(ctx, x, y);
  }
  return undefined;
}

function readFollowedBy(ctx: Ctx, tokens: readonly Token[]): Reading | undefined {
  const i = connective(tokens, 'followed by');
  if (i <= 0) return undefined;
  const left = [...tokens.slice(0, i)];
  let neg = false;
  let next = false;
  while (left.length > 1 && /^(is|are|be|must|should|has|have|to|always|immediately|directly|never|not|eventually|also)$/.test(left[left.length - 1].w)) {
    const w = left.pop()!.w;
    if (w === 'never' || w === 'not') neg = true;
    if (w === 'immediately' || w === 'directly') next = true;
  }
  const trigger = clause(left);
  const then = clause(tokens.slice(i + 2));
  return response(ctx, trigger, { ...then, neg: neg || then.neg, timing: next ? { kind: 'next' } : then.timing });
}

function readCondition(ctx: Ctx, tokens: readonly Token[]): Reading | undefined {
  const lead = firstWord(tokens, CONDITION_WORDS);
  if (lead && !(lead === 'once' && tokens.length > 1 && tokens[1].w === ',')) {
    const parts = splitCondition(tokens.slice(lead.split(' ').length));
    if (!parts) throw new FormError(`cannot tell where "${lead} …" ends and the rule begins; put a comma after the condition`, 'response');
    // "if A then never B and always C": the condition governs every consequence.
    const readings = consequences(parts[1]).map((c) => response(ctx, clause(parts[0]), clause(c)));
    return { form: 'response', formula: and(readings.map((r) => r.formula)) };
  }
  // "A means / implies B", "B requires A".
  for (const s of ['means that', 'means', 'implies that', 'implies', 'entails']) {
    const i = connective(tokens, s);
    if (i > 0) return response(ctx, clause(tokens.slice(0, i)), clause(tokens.slice(i + s.split(' ').length)));
  }
  for (const s of ['requires', 'require', 'needs', 'depends on', 'presupposes']) {
    const i = connective(tokens, s);
    // "B needs A" is a precondition; "the robot needs to reach B" is an obligation; "B needs
    // A later" is a response.
    if (i > 0 && tokens[i + s.split(' ').length]?.w !== 'to') {
      const left = clause(tokens.slice(0, i));
      const right = clause(tokens.slice(i + s.split(' ').length));
      if (right.timing || right.eventually) return response(ctx, left, { ...right, must: true });
      return precedence(ctx, left, right);
    }
  }
  // Trailing conditions: "never visit A if you have been in B", "you cannot go to B if you have not been to A".
  for (const s of ['only if', 'only when', 'every time', 'each time', 'any time', 'whenever', 'when', 'if', 'once', 'as soon as']) {
    const i = connective(tokens, s);
    if (i <= 0) continue;
    // "once" is a trailing condition only before a clause ("… once you have …"), not a count ("at least once").
    if (s === 'once' && !(tokens[i + 1] && CLAUSE_START.has(tokens[i + 1].w))) continue;
    const then = clause(tokens.slice(0, i));
    const trigger = clause(tokens.slice(i + s.split(' ').length));
    if (s === 'only if' || s === 'only when') {
      if (!trigger.perfect) throw new FormError(`"${s}" is read only with a past condition ("only if you have visited A"); or say "only after"`, 'ordering');
      return precedence(ctx, then, trigger);
    }
    return response(ctx, trigger, then);
  }
  return undefined;
}

/** A consequence split at "and" where a new clause starts ("never B and always C"). */
function consequences(tokens: readonly Token[]): Token[][] {
  const split = splitConjunction(tokens, (t) => SENTENCE_START.has(t.w) && t.w !== 'if' && t.w !== 'when' && t.w !== 'whenever');
  return split ? [split[0], ...consequences(split[1])] : [[...tokens]];
}

const SENTENCE_START = new Set(['never', 'always', 'you', 'we', 'do', 'must', 'please', 'if', 'when', 'whenever', 'avoid', 'make', 'remember', 'also', 'only', 'once', 'after', 'before', 'eventually', 'dont']);

/** Read one constraint sentence (tokens of a segment). */
export function readSentence(tokens: readonly Token[], scope: EventScope): Reading {
  const ctx: Ctx = { scope };
  const mark = scope.groundings.length;
  const attempt = (read: () => Reading): Reading | FormError => {
    try {
      return read();
    } catch (e) {
      if (!(e instanceof FormError)) throw e;
      scope.groundings.length = mark;
      return e;
    }
  };
  // "never A and always B": two constraints, when what follows "and" starts a clause of its own —
  // but not after a leading condition, which governs everything after it.
  const conditional = firstWord(tokens, [...CONDITION_WORDS, ...ORDER_BEFORE, 'first']) !== undefined;
  const split = conditional ? undefined : splitConjunction(tokens, (t) => SENTENCE_START.has(t.w));
  if (split) {
    const r = attempt(() => both(split, scope));
    if (!(r instanceof FormError)) return r;
  }
  const r = attempt(
    () => readCondition(ctx, tokens) ?? readFollowedBy(ctx, tokens) ?? readOrdering(ctx, tokens) ?? readAfter(ctx, tokens) ?? simple(ctx, clause(tokens)),
  );
  if (!(r instanceof FormError)) return r;
  // As a last resort, any "and" may separate two constraints (not after a leading condition).
  const any = conditional ? undefined : splitConjunction(tokens, () => true);
  if (any) {
    const r2 = attempt(() => both(any, scope));
    if (!(r2 instanceof FormError)) return r2;
  }
  throw r;
}

function splitConjunction(tokens: readonly Token[], opensClause: (t: Token) => boolean): [Token[], Token[]] | undefined {
  for (let i = 1; i < tokens.length - 1; i++) {
    const t = tokens[i];
    if (t.quoted || !(t.w === 'and' || t.w === 'also' || t.w === 'but')) continue;
    let j = i + 1;
    while (tokens[j] && /^(also|then|,)$/.test(tokens[j].w)) j++;
    if (!tokens[j] || !opensClause(tokens[j])) continue;
    const left = tokens.slice(0, tokens[i - 1].w === ',' ? i - 1 : i);
    return [left, tokens.slice(j)];
  }
  return undefined;
}

function both([left, right]: [Token[], Token[]], scope: EventScope): Reading {
  const a = readSentence(left, scope);
  const b = readSentence(right, scope);
  return { form: a.form, formula: and([a.formula, b.formula]) };
}

