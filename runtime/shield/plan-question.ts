/**
 * A person's question about a plan — "Will you go to the bedroom?", "Will you visit the living
 * room before the bathroom?" — read into the LTLf formula the finished plan must satisfy for the
 * answer to be yes. Questions ask about the whole plan, so a bare action means "at some point"
 * (`F a`), never "at the first step"; places are grounded to the plan's own steps, so multi-word
 * names need no quotes.
 *
 *   will you A?                        F A            (also "ever", "at some point")
 *   will you A first / now / next?     A              (the plan's first step)
 *   will you A last / at the end?      F (A & !X true)
 *   will you never A? / avoid A?       G !A
 *   will you always A?                 G A
 *   will you A before B?               !B U (A & !B)  (A happens, and no B before it)
 *   will you A after B?                F (B & X F A)
 *   will you A and then B?             F (A & X F B)
 *   will you A and B? / A or B?        F A & F B / F (A | B)
 *   will you A at least / at most / exactly N times?  (counts; a bare "twice" is "at least")
 *
 * Anything else is read as a constraint sentence (english/translate.ts), then as LTL.
 */
import { LtlSyntaxError, parseLtl } from '../ltl/parse.js';
import type { LtlNode } from '../ltl/syntax.js';
import { type Clause, ClauseError, readClause } from './english/clause.js';
import { EventError, type EventScope, type EventSet, anyNode, readEvent } from './english/event.js';
import { vocabulary as makeVocabulary } from './english/ground.js';
import { EnglishError, translateConstraint } from './english/translate.js';
import { explainLtl } from './patterns.js';
import { expandContractions, type Token, tokenize } from './english/words.js';

export interface PlanQuestion {
  readonly formula: LtlNode;
  /** The formula read back in English: what "yes" means. */
  readonly reading: string;
  /** Phrases that name nothing in the plan, with the plan's closest names. */
  readonly unknown: readonly { phrase: string; closest: readonly string[] }[];
}

export class PlanQuestionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PlanQuestionError';
  }
}

const PREFIX = /^(will|would|do|does|did|are|is|can|could|shall)\s+(you|we|i|the robot|the agent|the plan|it)(\s+|$)/i;
const LEAD = /^((be\s+)?going\s+to|plan\s+to|intend\s+to|have\s+to|ever|also|actually)\s+/i;

const not = (n: LtlNode): LtlNode => (n.op === '!' ? n.arg : { op: '!', arg: n });
const and = (xs: readonly LtlNode[]): LtlNode => (xs.length === 1 ? xs[0] : { op: '&', args: xs });
const F = (arg: LtlNode): LtlNode => ({ op: 'F', arg });
const G = (arg: LtlNode): LtlNode => ({ op: 'G', arg });
const X = (arg: LtlNode): LtlNode => ({ op: 'X', arg });
const TRUE: LtlNode = { op: 'true' };

function atLeast(e: LtlNode, k: number): LtlNode {
  return k <= 1 ? F(e) : F(and([e, X(atLeast(e, k - 1))]));
}

interface Grounder {
  event(c: Clause | readonly Token[]): EventSet;
  readonly unknown: { phrase: string; closest: readonly string[] }[];
}

/** Ground to the plan's names; a phrase that names none of them becomes a name the plan does not contain. */
function grounder(names: readonly string[]): Grounder {
  const vocab = names.length > 0 ? makeVocabulary(names) : undefined;
  const scope: EventScope = { vocab, groundings: [] };
  const loose: EventScope = { vocab: undefined, groundings: [] };
  const unknown: { phrase: string; closest: readonly string[] }[] = [];
  return {
    unknown,
    event(c) {
      const tokens = 'words' in c ? c.words : c;
      try {
        return readEvent(tokens, scope);
      } catch (e) {
        if (!(e instanceof EventError) || /ambiguous|refers to nothing|names no/.test(e.message)) throw e;
        // Only a plain name may be missing from the plan; a phrase with connectives is misread.
        if (tokens.length > 6 || tokens.some((t) => CONNECTIVES.has(t.w))) throw e;
        const set = readEvent(tokens, loose);
        unknown.push({ phrase: tokens.map((t) => t.raw).join(' '), closest: e.suggestions });
        return set;
      }
    },
  };
}

function clauseOf(tokens: readonly Token[]): Clause {
  try {
    return readClause(tokens);
  } catch (e) {
    if (e instanceof ClauseError) throw new PlanQuestionError(e.message);
    throw e;
  }
}

function split(tokens: readonly Token[], word: string): [Token[], Token[]] | undefined {
  const i = tokens.findIndex((t, k) => k > 0 && k < tokens.length - 1 && t.w === word && !t.quoted);
  return i > 0 ? [tokens.slice(0, i), tokens.slice(i + 1)] : undefined;
}

/** Words that make a question a constraint sentence rather than one of the question forms. */
const CONNECTIVES = new Set(['until', 'till', 'unless', 'only', 'if', 'whenever', 'when', 'means', 'implies', 'followed', 'requires', 'not', 'never', 'before', 'after', 'then', 'once']);
const CONSTRAINT = /\b(until|till|unless|only after|if|whenever|means|implies|followed by|requires|every time|each time)\b/i;

const FIRST = /^(first|now|next|right away|straight away|immediately|at once|at the start|to begin with|first of all)$/;
const LAST = /^(last|at the end|finally|in the end|lastly)$/;

/** Strip a time phrase the question ends or starts with: "first", "at the end". */
function when(tokens: readonly Token[]): { tokens: Token[]; at?: 'first' | 'last' } {
  const t = [...tokens];
  for (const len of [3, 2, 1]) {
    if (t.length > len) {
      const tail = t.slice(-len).map((x) => x.w).join(' ');
      if (FIRST.test(tail)) return { tokens: t.slice(0, -len), at: 'first' };
      if (LAST.test(tail)) return { tokens: t.slice(0, -len), at: 'last' };
      const head = t.slice(0, len).map((x) => x.w).join(' ');
      if (FIRST.test(head) && head !== 'next') return { tokens: t.slice(len).filter((x, i) => !(i === 0 && x.w === ',')), at: 'first' };
      if (LAST.test(head)) return { tokens: t.slice(len).filter((x, i) => !(i === 0 && x.w === ',')), at: 'last' };
    }
  }
  return { tokens: t };
}

function readQuestionForms(tokens: readonly Token[], g: Grounder): LtlNode {
  const before = split(tokens, 'before');
  if (before) {
    const a = anyNode(g.event(clauseOf(before[0])));
    const b = anyNode(g.event(clauseOf(before[1])));
    return { op: 'U', left: not(b), right: and([a, not(b)]) };
  }
  const after = split(tokens, 'after');
  if (after) {
    const a = anyNode(g.event(clauseOf(after[0])));
    const b = anyNode(g.event(clauseOf(after[1])));
    return F(and([b, X(F(a))]));
  }
  const then = split(tokens, 'then');
  if (then) {
    const left = then[0].at(-1)?.w === 'and' || then[0].at(-1)?.w === ',' ? then[0].slice(0, -1) : then[0];
    const a = anyNode(g.event(clauseOf(left)));
    const b = anyNode(g.event(clauseOf(then[1])));
    return F(and([a, X(F(b))]));
  }
  const { tokens: rest, at } = when(tokens);
  const c = clauseOf(rest);
  const e = g.event(c);
  const items = (negated: boolean) => (e.join === 'and' || negated ? e.items : [anyNode(e)]);
  if (c.neg) {
    if (c.count || at) throw new PlanQuestionError('a negated question with a count or a time is not supported');
    return and(items(true).map((x) => G(not(x))));
  }
  if (c.count) {
    const n = c.count.n;
    switch (c.count.kind) {
      case 'atLeast':
      case 'bare':
        return and(items(false).map((x) => atLeast(x, n)));
      case 'atMost':
      case 'only':
        return and(items(false).map((x) => not(atLeast(x, n + 1))));
      case 'exactly':
        return and(items(false).map((x) => and([atLeast(x, n), not(atLeast(x, n + 1))])));
      case 'moreThan':
        return and(items(false).map((x) => atLeast(x, n + 1)));
      default:
        throw new PlanQuestionError('questions about runs in a row are not supported');
    }
  }
  if (at === 'first') return and(items(false));
  if (at === 'last') return and(items(false).map((x) => F(and([x, not(X(TRUE))]))));
  if (c.always || c.timing?.kind === 'always') return and(items(false).map(G));
  return and(items(false).map(F));
}

/** Read a question about a plan whose steps carry the propositions `names`. */
export function readPlanQuestion(question: string, names: readonly string[]): PlanQuestion {
  const text = expandContractions(question.trim().replace(/[?.!]+$/, '')).trim();
  const body = text.replace(PREFIX, '').replace(LEAD, '').replace(LEAD, '').trim();
  if (body === '') throw new PlanQuestionError('the question names nothing to check');
  const g = grounder(names);
  // Operators (`G !cellar`, `F (a & X b)`): the question is a formula.
  if (/[!&|()"]|->|\b[GFXUWR]\b/.test(body)) {
    try {
      const formula = parseLtl(body);
      return { formula, reading: explainLtl(formula), unknown: [] };
    } catch (e) {
      if (!(e instanceof LtlSyntaxError)) throw e;
    }
  }
  let formula: LtlNode;
  try {
    if (CONSTRAINT.test(body)) throw new PlanQuestionError(`"${body}" is a constraint sentence`);
    formula = readQuestionForms(tokenize(body), g);
  } catch (e) {
    if (!(e instanceof PlanQuestionError) && !(e instanceof EventError)) throw e;
    // Not a question form: a constraint sentence, or LTL with operators.
    try {
      formula = translateConstraint(body, { vocabulary: names }).formula;
    } catch (e2) {
      if (!(e2 instanceof EnglishError)) throw e2;
      try {
        formula = parseLtl(body);
      } catch (e3) {
        if (!(e3 instanceof LtlSyntaxError)) throw e3;
        throw new PlanQuestionError(`cannot read the question "${question.trim()}": ${e.message}`);
      }
    }
  }
  return { formula, reading: explainLtl(formula), unknown: g.unknown };
}
