/**
 * Grounding: which proposition an English phrase names. With a vocabulary (the propositions a
 * rule may use), a phrase grounds to the one entry it matches — "walk into the living room",
 * "entering living room" and "the living room" all meet `living_room`, `at:living_room` or
 * `livingroom` — and a phrase that matches none is an error listing the closest entries. Without
 * one, the phrase becomes an identifier of its words (articles and movement verbs dropped).
 *
 * Matching compares word stems, in tiers from strict to loose (whole phrase, phrase without its
 * movement verb, entry without its namespace, same words in any order); the first tier with a
 * match decides, and two entries matching in the same tier make the phrase ambiguous (an error,
 * never a guess).
 */
import { distance } from 'fastest-levenshtein';
import { baseForm, stem } from './words.js';

export class GroundingError extends Error {
  constructor(
    message: string,
    readonly phrase: string,
    /** Closest vocabulary entries, best first. */
    readonly suggestions: readonly string[],
  ) {
    super(message);
    this.name = 'GroundingError';
  }
}

export interface Grounding {
  readonly phrase: string;
  readonly proposition: string;
  /** `vocabulary`: matched an entry; `verbatim`: a name or "quoted phrase" used as written; `words`: made from the phrase. */
  readonly how: 'vocabulary' | 'verbatim' | 'words';
}

const DETERMINERS = new Set(['the', 'a', 'an', 'your', 'my', 'our', 'their', 'his', 'her', 'its', 'this', 'that', 'these', 'those', 'any', 'some', 'each', 'every']);

/** Verbs of going somewhere, dropped so "go to the garage" and "the garage" meet `garage`. */
const MOTION = new Set(
  [
    'go', 'walk', 'run', 'move', 'head', 'travel', 'step', 'proceed', 'return', 'navigate', 'get', 'come', 'drive', 'be',
    'stay', 'remain', 'enter', 'visit', 'reach', 'arrive', 'pass', 'approach', 'use', 'wander', 'sneak', 'end', 'set',
    // light verbs: "make a refund", "perform a lookup"
    'make', 'do', 'perform', 'issue',
  ].map(stem),
);
/** Words that may follow a motion verb ("walk back into", "set foot in", "end up in"). */
const MOTION_TAIL = new Set(['to', 'into', 'in', 'inside', 'toward', 'towards', 'through', 'back', 'over', 'up', 'down', 'at', 'onto', 'on', 'foot', 'by', 'of']);
/** Small words ignored by the loosest tier. */
const FILLER = new Set(['to', 'into', 'in', 'inside', 'at', 'of', 'the', 'a', 'an', 'be', 'is', 'are', 'up']);
/** Leading words of vocabulary names that only say what kind of proposition it is (`at_kitchen`, `call:refund`). */
const NAMESPACE_WORDS = new Set(['at', 'in', 'is', 'agent', 'call', 'visit', 'enter', 'goto', 'go', 'room', 'loc', 'location', 'place', 'robot', 'event', 'ok', 'result', 'tool', 'action', 'do']);

/** Words of a vocabulary name: split at `_ - . : / ( ) ,`, spaces and camelCase humps. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[\s_\-.:/(),]+/)
    .filter((w) => w.length > 0);
}

interface Variant {
  readonly stems: readonly string[];
  readonly raw: string;
}

function variant(words: readonly string[]): Variant {
  return { stems: words.map(stem), raw: words.join('') };
}

/** The phrase without a leading movement verb and its prepositions; undefined when it has none. */
export function withoutMotion(words: readonly string[]): string[] | undefined {
  if (words.length < 2 || !MOTION.has(stem(words[0]))) return undefined;
  let i = 1;
  while (i < words.length - 1 && MOTION_TAIL.has(words[i])) i++;
  return words.slice(i);
}

function entryVariants(name: string): Variant[] {
  const words = nameWords(name);
  const out = [variant(words)];
  const colon = name.lastIndexOf(':');
  if (colon > 0 && colon < name.length - 1) out.push(variant(nameWords(name.slice(colon + 1))));
  const paren = /^[^(]*\(([^()]+)\)$/.exec(name);
  if (paren) out.push(variant(nameWords(paren[1])));
  let i = 0;
  while (i < words.length - 1 && NAMESPACE_WORDS.has(words[i])) i++;
  if (i > 0) out.push(variant(words.slice(i)));
  return out;
}

function sameSeq(a: Variant, b: Variant): boolean {
  return a.raw === b.raw || (a.stems.length === b.stems.length && a.stems.every((s, i) => s === b.stems[i])) || a.stems.join('') === b.stems.join('');
}

function sameBag(a: Variant, b: Variant): boolean {
  const bag = (v: Variant) =>
    v.stems
      .filter((s) => !FILLER.has(s))
      .slice()
      .sort()
      .join(' ');
  const x = bag(a);
  return x !== '' && x === bag(b);
}

export interface Vocabulary {
  readonly names: readonly string[];
  readonly variants: ReadonlyMap<string, readonly Variant[]>;
}

export function vocabulary(names: readonly string[]): Vocabulary {
  const unique = [...new Set(names.filter((n) => n.trim() !== ''))];
  return { names: unique, variants: new Map(unique.map((n) => [n, entryVariants(n)])) };
}

/** Content words of a phrase: lower case, determiners dropped. */
export function contentWords(words: readonly string[]): string[] {
  return words.map((w) => w.toLowerCase()).filter((w) => !DETERMINERS.has(w));
}

/** The entries a phrase matches in the first tier that has any; [] when none. */
function matches(phraseWords: readonly string[], vocab: Vocabulary): string[] {
  // Names written inside the phrase ("call send_email") compare by their words too.
  const words = phraseWords.flatMap(nameWords);
  const full = variant(words);
  const moved = withoutMotion(words);
  const phraseVariants = moved ? [full, variant(moved)] : [full];
  const tiers: ((p: Variant, e: Variant, entryIndex: number) => boolean)[] = [
    (p, e, k) => k === 0 && p === full && sameSeq(p, e),
    (p, e, k) => k === 0 && sameSeq(p, e),
    (p, e) => sameSeq(p, e),
    (p, e) => sameBag(p, e),
  ];
  for (const tier of tiers) {
    const hits = vocab.names.filter((n) => vocab.variants.get(n)!.some((e, k) => phraseVariants.some((p) => tier(p, e, k))));
    if (hits.length > 0) return hits;
  }
  return [];
}

/** Entries closest to a phrase that matched none, best first (at most three). */
export function suggestions(words: readonly string[], vocab: Vocabulary): string[] {
  const probes = [words.join(''), ...(withoutMotion(words) ? [withoutMotion(words)!.join('')] : [])];
  const stems = new Set(words.map(stem));
  const scored = vocab.names.map((n) => {
    const vs = vocab.variants.get(n)!;
    let best = Infinity;
    for (const v of vs) for (const p of probes) best = Math.min(best, distance(p, v.raw) / Math.max(p.length, v.raw.length, 1));
    const shared = vs.some((v) => v.stems.some((s) => stems.has(s)));
    return { n, score: shared ? best - 0.5 : best };
  });
  return scored
    .filter((s) => s.score <= 0.45)
    .sort((a, b) => a.score - b.score)
    .slice(0, 3)
    .map((s) => s.n);
}

/** A name made from a phrase when there is no vocabulary: `turn_off_oven`, `living_room`, `call:refund`. */
function identifier(words: readonly string[]): string {
  const moved = withoutMotion(words) ?? words;
  // "call refund" / "call the refund tool": the shields' own convention for tool calls.
  if (moved.length >= 2 && (moved[0] === 'call' || moved[0] === 'calling' || moved[0] === 'called')) {
    const rest = moved.slice(1).filter((w) => w !== 'tool' && w !== 'function');
    if (rest.length > 0) return `call:${rest.join('_')}`;
  }
  const out = [...moved];
  // The first word is a verb when a particle or a preposition follows it ("turned off the oven").
  if (out.length >= 2 && /(ing|ed|es|s)$/.test(out[0]) && /^(off|on|up|down|out|in|into|away|back|over|to|at)$/.test(out[1])) {
    out[0] = baseForm(out[0]);
  }
  return out.join('_');
}

/**
 * Ground a phrase (its words as written, determiners already dropped) to a proposition.
 * Throws `GroundingError` when a vocabulary is given and the phrase matches none or several.
 */
export function groundWords(words: readonly string[], vocab: Vocabulary | undefined, phrase: string): Grounding {
  if (words.length === 0) throw new GroundingError(`"${phrase}" names nothing to ground`, phrase, []);
  if (!vocab || vocab.names.length === 0) return { phrase, proposition: identifier(words), how: 'words' };
  const hits = matches(words, vocab);
  if (hits.length === 1) return { phrase, proposition: hits[0], how: 'vocabulary' };
  if (hits.length > 1) {
    throw new GroundingError(`"${phrase}" is ambiguous: it could be ${hits.map((h) => `'${h}'`).join(' or ')}`, phrase, hits);
  }
  const close = suggestions(words, vocab);
  throw new GroundingError(
    `"${phrase}" does not name a known proposition` +
      (close.length > 0 ? `; closest: ${close.map((c) => `'${c}'`).join(', ')}` : `; known: ${vocab.names.slice(0, 8).join(', ')}${vocab.names.length > 8 ? ', …' : ''}`),
    phrase,
    close,
  );
}
