/**
 * One clause of a constraint sentence, read into what the sentence forms need: its polarity
 * ("never", "do not", "avoid", "is forbidden"), its modality ("must", "always", "may", "only"),
 * when it is meant ("in the next step", "later", "from then on", "within 3 steps"), how often
 * ("at most twice", "3 times in a row") and what it is about — the event phrase left once
 * subject, auxiliaries and adverbs are taken off, which grounding turns into a proposition.
 */
import { TIMES_WORDS, type Token, numberWord } from './words.js';

export type Timing = { readonly kind: 'next' | 'later' | 'onward' | 'always' } | { readonly kind: 'within'; readonly n: number };

export type CountKind = 'atLeast' | 'atMost' | 'moreThan' | 'exactly' | 'only' | 'bare' | 'inARow' | 'atMostInARow' | 'moreThanInARow';

export interface Count {
  readonly kind: CountKind;
  readonly n: number;
}

export interface Clause {
  readonly neg: boolean;
  readonly must: boolean;
  readonly always: boolean;
  readonly may: boolean;
  readonly only: boolean;
  /** Perfect aspect or "already"/"yet": "if you have not been to A" (a precondition, not an event now). */
  readonly perfect: boolean;
  /** "again", "any more": the event is meant at a later step than the trigger. */
  readonly again: boolean;
  readonly eventually: boolean;
  readonly timing?: Timing;
  readonly count?: Count;
  readonly words: readonly Token[];
}

type Effect = 'neg' | 'must' | 'always' | 'may' | 'only' | 'perfect' | 'again' | 'eventually' | 'skip' | Timing['kind'];

/** Word sequences (`N` = a number) with what they say; longest first where they overlap. */
const TIMING: readonly [string, Effect][] = [
  ['at some point in the future', 'later'],
  ['in the next step', 'next'],
  ['at the next step', 'next'],
  ['on the next step', 'next'],
  ['in the next turn', 'next'],
  ['in the following step', 'next'],
  ['at the following step', 'next'],
  ['the step after', 'next'],
  ['immediately after that', 'next'],
  ['immediately afterwards', 'next'],
  ['immediately afterward', 'next'],
  ['immediately after', 'next'],
  ['right after that', 'next'],
  ['right after this', 'next'],
  ['right afterwards', 'next'],
  ['right after', 'next'],
  ['directly after that', 'next'],
  ['directly afterwards', 'next'],
  ['straight after that', 'next'],
  ['right away', 'next'],
  ['straight away', 'next'],
  ['immediately', 'next'],
  ['next', 'next'],
  ['at some point', 'later'],
  ['in the future', 'later'],
  ['some time later', 'later'],
  ['sooner or later', 'later'],
  ['later on', 'later'],
  ['after that', 'later'],
  ['after this', 'later'],
  ['afterwards', 'later'],
  ['afterward', 'later'],
  ['thereafter', 'later'],
  ['subsequently', 'later'],
  ['later', 'later'],
  ['eventually', 'eventually'],
  ['sometime', 'later'],
  ['from then on', 'onward'],
  ['from that point on', 'onward'],
  ['from now on', 'onward'],
  ['ever again', 'again'],
  ['never again', 'again'],
  ['again', 'again'],
  ['any more', 'again'],
  ['anymore', 'again'],
  ['any longer', 'again'],
  ['at all times', 'always'],
  ['all the time', 'always'],
  ['forever', 'always'],
  ['even once', 'skip'],
  ['at all', 'skip'],
  ['first', 'skip'],
  ['as well', 'skip'],
  ['too', 'skip'],
  ['please', 'skip'],
];

/** Sequences read at the front of a clause, after the subject. */
const FRONT: readonly [string, Effect[]][] = [
  ['make sure that you', ['must']],
  ['make sure you', ['must']],
  ['make sure to', ['must']],
  ['be sure to', ['must']],
  ['ensure that you', ['must']],
  ['ensure you', ['must']],
  ['remember to', ['must']],
  ['are required to', ['must']],
  ['is required to', ['must']],
  ['required to', ['must']],
  ['are supposed to', ['must']],
  ['are expected to', ['must']],
  ['need to', ['must']],
  ['needs to', ['must']],
  ['have got to', ['must']],
  ['have to', ['must']],
  ['has to', ['must']],
  ['had to', ['must']],
  ['got to', ['must']],
  ['ought to', ['must']],
  ['must', ['must']],
  ['should', ['must']],
  ['shall', ['must']],
  ['under no circumstances', ['neg']],
  ['at no time', ['neg']],
  ['in no case', ['neg']],
  ['by no means', ['neg']],
  ['are allowed to', ['may']],
  ['is allowed to', ['may']],
  ['be allowed to', ['may']],
  ['allowed to', ['may']],
  ['are permitted to', ['may']],
  ['is permitted to', ['may']],
  ['permitted to', ['may']],
  ['are free to', ['may']],
  ['are able to', ['may']],
  ['can', ['may']],
  ['could', ['may']],
  ['may', ['may']],
  ['might', ['may']],
  ['allowed', ['may']],
  ['permitted', ['may']],
  ['are forbidden to', ['neg']],
  ['is forbidden to', ['neg']],
  ['forbidden to', ['neg']],
  ['are forbidden from', ['neg']],
  ['are prohibited from', ['neg']],
  ['is prohibited from', ['neg']],
  ['prohibited from', ['neg']],
  ['are banned from', ['neg']],
  ['banned from', ['neg']],
  ['refrain from', ['neg']],
  ['stay away from', ['neg']],
  ['keep away from', ['neg']],
  ['stay out of', ['neg']],
  ['keep out of', ['neg']],
  ['stay clear of', ['neg']],
  ['steer clear of', ['neg']],
  ['avoid', ['neg']],
  ['no longer', ['neg', 'again']],
  ['never', ['neg']],
  ['not', ['neg']],
  ['no', ['neg']],
  ['always', ['always']],
  ['only', ['only']],
  ['already', ['perfect']],
  ['yet', ['perfect']],
  ['eventually', ['eventually']],
  ['also', ['skip']],
  ['just', ['skip']],
  ['ever', ['skip']],
  ['even', ['skip']],
  ['then', ['skip']],
  ['so', ['skip']],
  ['and', ['skip']],
  ['but', ['skip']],
  ['do', ['skip']],
  ['does', ['skip']],
  ['did', ['skip']],
  ['will', ['skip']],
  ['would', ['skip']],
  ['to', ['skip']],
];

/** Sequences read at the end of a clause: "… is forbidden", "… must never happen". */
const TAIL: readonly [string, Effect[]][] = [
  ['is not allowed', ['neg']],
  ['are not allowed', ['neg']],
  ['is not permitted', ['neg']],
  ['are not permitted', ['neg']],
  ['is forbidden', ['neg']],
  ['are forbidden', ['neg']],
  ['is prohibited', ['neg']],
  ['are prohibited', ['neg']],
  ['is banned', ['neg']],
  ['is disallowed', ['neg']],
  ['is off limits', ['neg']],
  ['are off limits', ['neg']],
  ['off limits', ['neg']],
  ['is out of bounds', ['neg']],
  ['must be avoided', ['neg']],
  ['should be avoided', ['neg']],
  ['is required', ['must']],
  ['is mandatory', ['must']],
  ['must never happen', ['neg']],
  ['should never happen', ['neg']],
  ['must not happen', ['neg']],
  ['should not happen', ['neg']],
  ['never happens', ['neg']],
  ['may never happen', ['neg']],
  ['must always hold', ['always']],
  ['must always happen', ['always']],
  ['always holds', ['always']],
  ['must eventually happen', ['must']],
  ['must happen', ['must']],
  ['has to happen', ['must']],
  ['should happen', ['must']],
  ['happens', ['skip']],
  ['happen', ['skip']],
  ['occurs', ['skip']],
  ['yet', ['perfect']],
  ['already', ['perfect']],
];

const SUBJECTS: readonly string[] = ['the robot', 'the agent', 'the assistant', 'the user', 'robot', 'agent', 'you', 'we', 'i', 'they', 'it is', 'it'];

function words(seq: string): string[] {
  return seq.split(' ');
}

/** Does `seq` (with `N` for a number) occur at `i`? Returns the number read, or true, or undefined. */
function at(tokens: readonly Token[], i: number, seq: readonly string[]): { n?: number; end: number } | undefined {
  let n: number | undefined;
  for (let k = 0; k < seq.length; k++) {
    const t = tokens[i + k];
    if (!t || t.quoted) return undefined;
    if (seq[k] === 'N') {
      const v = numberWord(t.w);
      if (v === undefined) return undefined;
      n = v;
    } else if (seq[k] === 'T') {
      const v = TIMES_WORDS.get(t.w);
      if (v === undefined) return undefined;
      n = v;
    } else if (t.w !== seq[k]) return undefined;
  }
  return { n, end: i + seq.length };
}

export function startsWithSeq(tokens: readonly Token[], i: number, seq: string): boolean {
  return at(tokens, i, words(seq)) !== undefined;
}

/** Index of the first occurrence of `seq` at or after `from` (not inside quotes), or -1. */
export function findSeq(tokens: readonly Token[], seq: string, from = 0): number {
  const w = words(seq);
  for (let i = from; i < tokens.length; i++) if (at(tokens, i, w)) return i;
  return -1;
}

/** Counting phrases: `N` = a number word, `T` = once / twice / thrice. */
const COUNTS: readonly [string, CountKind][] = [
  ['at most N times in a row', 'atMostInARow'],
  ['no more than N times in a row', 'atMostInARow'],
  ['more than N times in a row', 'moreThanInARow'],
  ['more than T in a row', 'moreThanInARow'],
  ['at most T in a row', 'atMostInARow'],
  ['N times in a row', 'inARow'],
  ['T in a row', 'inARow'],
  ['N times consecutively', 'inARow'],
  ['T consecutively', 'inARow'],
  ['N consecutive times', 'inARow'],
  ['N times back to back', 'inARow'],
  ['T back to back', 'inARow'],
  ['at least N times', 'atLeast'],
  ['at least T', 'atLeast'],
  ['at most N times', 'atMost'],
  ['at most T', 'atMost'],
  ['no more than N times', 'atMost'],
  ['no more than T', 'atMost'],
  ['not more than N times', 'atMost'],
  ['not more than T', 'atMost'],
  ['up to N times', 'atMost'],
  ['a maximum of N times', 'atMost'],
  ['more than N times', 'moreThan'],
  ['more than T', 'moreThan'],
  ['exactly N times', 'exactly'],
  ['exactly T', 'exactly'],
  ['only N times', 'only'],
  ['only T', 'only'],
  ['N times', 'bare'],
  ['a single time', 'bare'],
  ['T', 'bare'],
];

export class ClauseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ClauseError';
  }
}

interface Flags {
  neg: boolean;
  must: boolean;
  always: boolean;
  may: boolean;
  only: boolean;
  perfect: boolean;
  again: boolean;
  eventually: boolean;
  timing?: Timing;
  count?: Count;
}

function apply(flags: Flags, e: Effect): void {
  switch (e) {
    case 'neg':
      flags.neg = true;
      return;
    case 'must':
    case 'always':
    case 'may':
    case 'only':
    case 'perfect':
    case 'again':
    case 'eventually':
      flags[e] = true;
      return;
    case 'skip':
      return;
    case 'next':
    case 'later':
    case 'onward':
      flags.timing = { kind: e };
      return;
  }
}

/** Read a clause: flags from its adverbs, subject, modal words and predicate; the rest is its event phrase. */
export function readClause(input: readonly Token[]): Clause {
  const flags: Flags = { neg: false, must: false, always: false, may: false, only: false, perfect: false, again: false, eventually: false };
  let toks = input.filter((t) => t.w !== ',' || t.quoted);

  // Counting and timing phrases may stand anywhere in the clause.
  for (let i = 0; i < toks.length; i++) {
    for (const [seq, kind] of COUNTS) {
      const hit = at(toks, i, words(seq));
      if (!hit) continue;
      // "once" opening a clause is "as soon as", read by the sentence forms, not a count.
      if (seq === 'T' && toks[i].w === 'once' && i === 0) continue;
      // "not … even once": "ever", not a count.
      if (seq === 'T' && i > 0 && toks[i - 1].w === 'even') continue;
      if (flags.count) throw new ClauseError('two counts in one clause');
      flags.count = { kind, n: hit.n ?? 1 };
      toks = [...toks.slice(0, i), ...toks.slice(hit.end)];
      i--;
      break;
    }
  }
  for (let i = 0; i < toks.length; i++) {
    const within = at(toks, i, ['within', 'N']);
    if (within) {
      let end = within.end;
      if (toks[end] && /^(steps?|turns?|moves?|actions?|events?)$/.test(toks[end].w)) end++;
      flags.timing = { kind: 'within', n: within.n! };
      toks = [...toks.slice(0, i), ...toks.slice(end)];
      i--;
      continue;
    }
    for (const [seq, effect] of TIMING) {
      const hit = at(toks, i, words(seq));
      if (!hit) continue;
      // "next" / "first" inside a name ("the next room") stay when words follow them in the phrase.
      if ((seq === 'next' || seq === 'first') && i > 0 && i < toks.length - 1 && !/^(,|then)$/.test(toks[i + 1].w)) continue;
      if (seq === 'never again') flags.neg = true;
      apply(flags, effect);
      toks = [...toks.slice(0, i), ...toks.slice(hit.end)];
      i--;
      break;
    }
  }

  // Subject, then modal words, at the front.
  for (const s of SUBJECTS) {
    if (at(toks, 0, words(s))) {
      toks = toks.slice(words(s).length);
      break;
    }
  }
  let progress = true;
  while (progress && toks.length > 0) {
    progress = false;
    // "have not been", "have already", "has visited": perfect aspect, not "have to".
    if (/^(have|has|had)$/.test(toks[0].w) && toks[1] && toks[1].w !== 'to' && toks[1].w !== 'got') {
      flags.perfect = true;
      toks = toks.slice(1);
      progress = true;
      continue;
    }
    if (/^(are|is|am|be)$/.test(toks[0].w) && toks[1] && /^(not|never|always|only|allowed|permitted|forbidden|prohibited|banned|required|supposed|expected|free|able|to)$/.test(toks[1].w)) {
      toks = toks.slice(1);
      progress = true;
      continue;
    }
    for (const [seq, effects] of FRONT) {
      const hit = at(toks, 0, words(seq));
      if (!hit) continue;
      for (const e of effects) apply(flags, e);
      toks = toks.slice(hit.end);
      progress = true;
      break;
    }
  }
  // Predicates at the end: "… is forbidden", "… must never happen".
  progress = true;
  while (progress && toks.length > 0) {
    progress = false;
    for (const [seq, effects] of TAIL) {
      const w = words(seq);
      if (toks.length <= w.length) continue;
      if (!at(toks, toks.length - w.length, w)) continue;
      for (const e of effects) apply(flags, e);
      toks = toks.slice(0, toks.length - w.length);
      progress = true;
      break;
    }
  }
  // The passive reads modal words into `flags`, so it runs before the flags are copied.
  const eventWords = passive(toks, flags);
  return { ...flags, words: eventWords };
}

const PARTICIPLE = /^(\w+(ed|en)|done|made|seen|put|shut|left|run|gone|kept|held|taken|brought|sent|paid|found)$/;
const PASSIVE_AUX = new Set(['must', 'should', 'shall', 'can', 'may', 'might', 'could', 'will', 'need', 'needs', 'has', 'have', 'had', 'to', 'is', 'are', 'was', 'were', 'not', 'never', 'only', 'always', 'eventually', 'also', 'ever']);

/**
 * "the kitchen must be visited", "the oven is turned off", "a refund is made": the passive turned
 * round ("visited the kitchen"), its modal words read as the clause's own.
 */
function passive(toks: Token[], flags: Flags): Token[] {
  const be = toks.findIndex((t, i) => i > 0 && /^(be|is|are|was|were|been)$/.test(t.w) && !t.quoted);
  if (be < 0) return toks;
  const rest = toks.slice(be + 1);
  if (rest.length === 0 || rest.length > 2 || !PARTICIPLE.test(rest[0].w)) return toks;
  if (rest.length === 2 && !/^(off|on|up|down|out|away|in|over)$/.test(rest[1].w)) return toks;
  let start = be;
  while (start > 0 && PASSIVE_AUX.has(toks[start - 1].w)) start--;
  if (start === 0) return toks;
  const modal = toks.slice(start, be);
  for (let i = 0; i < modal.length; ) {
    const hit = FRONT.find(([seq]) => at(modal, i, words(seq)));
    if (hit) {
      for (const e of hit[1]) apply(flags, e);
      i += words(hit[0]).length;
    } else i++;
  }
  return [...rest, ...toks.slice(0, start)];
}

export function text(tokens: readonly Token[]): string {
  return tokens.map((t) => (t.quoted ? JSON.stringify(t.raw) : t.raw)).join(' ');
}
