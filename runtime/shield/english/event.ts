/**
 * Event phrases → propositions: "walk into the dining room", "the garage or the attic", "it",
 * "leave the kitchen", "turn off the oven and the stove". A phrase grounds whole when it can
 * (names may contain "and"); otherwise it is read as a list ("or": any of them; "and": each of
 * them, the constraint repeated per item), a pronoun for the last thing named, or "leave X" (not
 * at X). Every grounding is recorded so the translation can show what each phrase became.
 */
import type { LtlNode } from '../../ltl/syntax.js';
import { type Grounding, GroundingError, type Vocabulary, contentWords, groundWords, nameWords, suggestions, withoutMotion } from './ground.js';
import { text } from './clause.js';
import type { Token } from './words.js';

export interface EventScope {
  readonly vocab: Vocabulary | undefined;
  readonly groundings: Grounding[];
  /** The last single proposition named, for "it" / "there". */
  last?: LtlNode;
}

/** What an event phrase stands for: one formula, any of several, or each of several. */
export interface EventSet {
  readonly join: 'or' | 'and';
  readonly items: readonly LtlNode[];
}

export class EventError extends Error {
  constructor(
    message: string,
    readonly suggestions: readonly string[] = [],
  ) {
    super(message);
    this.name = 'EventError';
  }
}

const CONNECTIVES = new Set(['while', 'because', 'unless', 'until', 'till', 'before', 'after', 'if', 'when', 'whenever', 'then', 'than', 'during', 'except', 'although', 'though', 'whereas', 'so']);
const PRONOUNS = new Set(['it', 'there', 'them', 'that', 'this', 'that room', 'that place', 'this room', 'same room', 'same place', 'it again', 'there again', 'place']);
/** Leaving a place is being somewhere else: "leave the kitchen" reads as `!kitchen`. */
const LEAVING = ['get out of', 'step out of', 'walk out of', 'go out of', 'move out of', 'depart from', 'leave', 'leaves', 'left', 'leaving', 'exit', 'exits', 'exited', 'exiting', 'depart'];
/** Opposites tried when the phrase itself names nothing: "close the fridge" when only `fridge_open` exists. */
const ANTONYMS: readonly [string, string][] = [
  ['close', 'open'],
  ['closes', 'open'],
  ['closed', 'open'],
  ['closing', 'open'],
  ['shut', 'open'],
  ['turn off', 'turn on'],
  ['turned off', 'turn on'],
  ['turning off', 'turn on'],
  ['switch off', 'switch on'],
  ['switched off', 'switch on'],
  ['switching off', 'switch on'],
];

const ap = (name: string): LtlNode => ({ op: 'ap', name });
const not = (n: LtlNode): LtlNode => (n.op === '!' ? n.arg : { op: '!', arg: n });

function startsWith(words: readonly string[], seq: string): number {
  const s = seq.split(' ');
  return s.every((w, i) => words[i] === w) ? s.length : 0;
}

/** Words that never belong to a name: left in a phrase, they show the sentence was misread. */
const FUNCTION_WORDS = new Set(['not', 'never', 'no', 'always', 'must', 'should', 'can', 'may', 'will', 'would', 'do', 'does', 'did', 'and', 'or', 'nor', 'forever', 'ever']);

function one(scope: EventScope, words: readonly string[], phrase: string): LtlNode {
  const stray = words.find((w) => FUNCTION_WORDS.has(w));
  if (stray) throw new EventError(`"${phrase}" has "${stray}" where a name should be`);
  const g = groundWords(words, scope.vocab, phrase);
  scope.groundings.push(g);
  const node = ap(g.proposition);
  scope.last = node;
  return node;
}

function pronoun(scope: EventScope, words: readonly string[]): LtlNode | undefined {
  const key = (withoutMotion(words) ?? words).join(' ');
  if (!PRONOUNS.has(key)) return undefined;
  if (!scope.last) throw new EventError(`"${key}" refers to nothing named before it`);
  return scope.last;
}

function leaving(scope: EventScope, words: readonly string[], phrase: string): LtlNode | undefined {
  for (const l of LEAVING) {
    const k = startsWith(words, l);
    if (k === 0 || k >= words.length) continue;
    const rest = words.slice(k);
    return not(pronoun(scope, rest) ?? one(scope, rest, phrase));
  }
  return undefined;
}

function antonym(scope: EventScope, words: readonly string[], phrase: string): LtlNode | undefined {
  for (const [from, to] of ANTONYMS) {
    const k = startsWith(words, from);
    if (k === 0 || k >= words.length) continue;
    const rest = words.slice(k);
    const target = pronoun(scope, rest);
    // "switch it off" negates what "it" is only when that names the opposite ("is_switched_on").
    if (target) return target.op === 'ap' && nameWords(target.name).includes(to.split(' ').pop()!) ? not(target) : undefined;
    try {
      return not(one(scope, [...to.split(' '), ...rest], phrase));
    } catch (e) {
      if (e instanceof GroundingError) {
        try {
          return not(one(scope, [...rest, to.split(' ').pop()!], phrase));
        } catch (e2) {
          if (e2 instanceof GroundingError) return undefined;
          throw e2;
        }
      }
      throw e;
    }
  }
  return undefined;
}

/** Split at list words; items after the first borrow its verb when they have none ("turn off the oven and the stove"). */
function splitList(words: readonly string[], separators: ReadonlySet<string>): string[][] | undefined {
  const parts: string[][] = [[]];
  for (const w of words) {
    if (separators.has(w)) parts.push([]);
    else parts[parts.length - 1].push(w);
  }
  const items = parts.filter((p) => p.length > 0);
  return items.length > 1 ? items : undefined;
}

const PARTICLES = new Set(['off', 'on', 'up', 'down', 'out', 'away', 'back']);

/** "verify_identity succeeds" / "the lookup failed": the shields' result events `ok:<tool>` / `error:<tool>`. */
const OUTCOMES: readonly [string, string][] = [
  ['has succeeded', 'ok'],
  ['succeeded', 'ok'],
  ['succeeds', 'ok'],
  ['is successful', 'ok'],
  ['was successful', 'ok'],
  ['has completed', 'ok'],
  ['completed', 'ok'],
  ['completes', 'ok'],
  ['has failed', 'error'],
  ['failed', 'error'],
  ['fails', 'error'],
];

function outcome(scope: EventScope, words: readonly string[], phrase: string): LtlNode | undefined {
  for (const [tail, ns] of OUTCOMES) {
    const t = tail.split(' ');
    if (words.length <= t.length || !t.every((w, i) => words[words.length - t.length + i] === w)) continue;
    const rest = words.slice(0, words.length - t.length);
    if (!scope.vocab) return one(scope, [`${ns}:${rest.join('_')}`], phrase);
    try {
      return one(scope, [ns, ...rest], phrase);
    } catch (e) {
      if (e instanceof GroundingError) return undefined;
      throw e;
    }
  }
  return undefined;
}

function single(scope: EventScope, written: readonly string[], phrase: string): LtlNode {
  // "switch it off" → "switch off it": the particle back beside its verb.
  const words = written.length === 3 && /^(it|them)$/.test(written[1]) && PARTICLES.has(written[2]) ? [written[0], written[2], written[1]] : written;
  const p = pronoun(scope, words);
  if (p) return p;
  const o = outcome(scope, words, phrase);
  if (o) return o;
  if (!scope.vocab) {
    const l = leaving(scope, words, phrase);
    if (l) return l;
    return one(scope, words, phrase);
  }
  try {
    return one(scope, words, phrase);
  } catch (e) {
    if (!(e instanceof GroundingError)) throw e;
    const l = leaving(scope, words, phrase) ?? antonym(scope, words, phrase);
    if (l) return l;
    throw e;
  }
}

function listItems(scope: EventScope, items: readonly string[][]): LtlNode[] {
  const verb = items[0].length > 1 ? items[0].slice(0, -1) : [];
  return items.map((item, i) => {
    const phrase = item.join(' ');
    if (i === 0 || verb.length === 0) return single(scope, item, phrase);
    try {
      return single(scope, item, phrase);
    } catch (e) {
      if (!(e instanceof GroundingError)) throw e;
      // Drop the first item's object, keep its verb ("turn off the oven and the stove").
      for (let k = verb.length; k > 0; k--) {
        try {
          return single(scope, [...verb.slice(0, k), ...item], phrase);
        } catch (e2) {
          if (!(e2 instanceof GroundingError)) throw e2;
        }
      }
      throw e;
    }
  });
}

/** Read an event phrase. Grounding failures surface as `EventError` with the closest names. */
export function readEvent(tokens: readonly Token[], scope: EventScope): EventSet {
  if (tokens.length === 0) throw new EventError('the sentence names no action or place');
  if (tokens.length === 1 && tokens[0].quoted) {
    // A quoted name is exact; with a vocabulary it must be one of its entries.
    if (scope.vocab && !scope.vocab.names.includes(tokens[0].raw)) {
      throw new EventError(`"${tokens[0].raw}" is not a known proposition`, suggestions(tokens[0].raw.toLowerCase().split(/\s+/), scope.vocab));
    }
    const g: Grounding = { phrase: tokens[0].raw, proposition: tokens[0].raw, how: 'verbatim' };
    scope.groundings.push(g);
    scope.last = ap(g.proposition);
    return { join: 'or', items: [scope.last] };
  }
  // A name written as one token (`call:refund`, `door_open`, `turnOffOven`) is used as written
  // when there is no vocabulary to ground it to.
  if (!scope.vocab && tokens.length === 1 && /[:_./0-9]|[a-z][A-Z]/.test(tokens[0].raw) && !FUNCTION_WORDS.has(tokens[0].w)) {
    const g: Grounding = { phrase: tokens[0].raw, proposition: tokens[0].raw, how: 'verbatim' };
    scope.groundings.push(g);
    scope.last = ap(g.proposition);
    return { join: 'or', items: [scope.last] };
  }
  const words = contentWords(tokens.filter((t) => !t.quoted).map((t) => t.w)).filter((w) => w !== 'either' && w !== 'neither' && w !== 'both');
  const phrase = text(tokens);
  if (tokens.some((t) => t.quoted)) throw new EventError(`"${phrase}" mixes a quoted name with other words`);
  // A connective left inside a phrase means the sentence has a shape no form reads; naming a
  // proposition after it ("sing_while_cooking") would hide that.
  const connective = words.find((w) => CONNECTIVES.has(w));
  if (connective) throw new EventError(`"${phrase}" contains "${connective}", which no supported form reads there`);
  const before = scope.groundings.length;
  let first: unknown;
  if (scope.vocab) {
    try {
      return { join: 'or', items: [single(scope, words, phrase)] };
    } catch (e) {
      if (!(e instanceof GroundingError) && !(e instanceof EventError)) throw e;
      first = e;
      scope.groundings.length = before;
    }
  }
  const anyOf = splitList(words, new Set(['or', 'nor']));
  const eachOf = anyOf ? undefined : splitList(words, new Set(['and']));
  try {
    if (anyOf) return { join: 'or', items: listItems(scope, anyOf) };
    if (eachOf) return { join: 'and', items: listItems(scope, eachOf) };
    if (first) throw first;
    return { join: 'or', items: [single(scope, words, phrase)] };
  } catch (e) {
    const cause = first ?? e;
    if (cause instanceof GroundingError) throw new EventError(cause.message, cause.suggestions);
    throw cause;
  }
}

/** The event as one formula: the items' disjunction (for "or", or a single item). */
export function anyNode(set: EventSet): LtlNode {
  return set.items.length === 1 ? set.items[0] : { op: '|', args: set.items };
}

/**
 * The formulas a constraint is repeated over: each item of an "and" list; for an "or" list one
 * disjunction — or each item where the event is negated ("never A or B" is "never A" and "never B",
 * the same formula, which reads back item by item).
 */
export function itemsOf(set: EventSet, negated: boolean): readonly LtlNode[] {
  return set.join === 'and' || negated ? set.items : [anyNode(set)];
}
