/**
 * Words for the offline English → LTL translator: contractions expanded, the sentence cut into
 * tokens (words, commas, "quoted phrases", identifier-like names such as `call:refund`), number
 * words, and the word stems grounding compares phrases by. Stemming is the Porter stemmer of the
 * `stemmer` package (a well-kept, dependency-free implementation) after a small table of irregular
 * verbs, which Porter leaves alone ("went" must meet "go").
 */
import { stemmer } from 'stemmer';

export interface Token {
  /** Lower-case word, `,` for a comma, or the phrase itself for a quoted token. */
  readonly w: string;
  /** The text as written (case kept), for names used verbatim. */
  readonly raw: string;
  /** A "quoted phrase": a proposition named exactly, never split or stemmed. */
  readonly quoted?: boolean;
}

/** Contractions and spellings people type, rewritten before tokenising ("don't" → "do not"). */
const CONTRACTIONS: readonly [RegExp, string][] = [
  [/[\u2018\u2019\u02bc]/g, "'"],
  [/[\u201c\u201d]/g, '"'],
  [/\bcan'?t\b/gi, 'can not'],
  [/\bcannot\b/gi, 'can not'],
  [/\bwon'?t\b/gi, 'will not'],
  [/\bshan'?t\b/gi, 'shall not'],
  [/\b(do|does|did|is|are|was|were|has|have|had|must|should|would|could|may|might|need)n'?t\b/gi, '$1 not'],
  [/\b(you|we|they|i)'ve\b/gi, '$1 have'],
  [/\b(you|we|they)'re\b/gi, '$1 are'],
  [/\b(you|we|they|i)'ll\b/gi, '$1 will'],
  [/\b(you|we|they|i)'d\b/gi, '$1 would'],
  [/\bi'm\b/gi, 'i am'],
  [/\b(it|that|there)'s\b/gi, '$1 is'],
  [/\blet'?s\b/gi, ''],
  [/\b(\w+)'s\b/g, '$1'],
];

export function expandContractions(text: string): string {
  let out = text;
  for (const [re, by] of CONTRACTIONS) out = out.replace(re, by);
  return out;
}

/** Word characters: letters, digits and the joiners names use (`call:refund`, `at.kitchen`, `turn_off`). */
const WORD = /[A-Za-z0-9_](?:[A-Za-z0-9_:./\-']*[A-Za-z0-9_])?/y;

/** Tokens of one segment (no sentence-ending punctuation inside). */
export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '"') {
      const end = text.indexOf('"', i + 1);
      const inner = end < 0 ? text.slice(i + 1) : text.slice(i + 1, end);
      out.push({ w: inner, raw: inner, quoted: true });
      i = end < 0 ? text.length : end + 1;
      continue;
    }
    if (c === ',' || c === ':') {
      // A colon between words ("Rule: never …") is punctuation; inside a name it was eaten by WORD.
      out.push({ w: ',', raw: c });
      i++;
      continue;
    }
    WORD.lastIndex = i;
    const m = WORD.exec(text);
    if (m) {
      out.push({ w: m[0].toLowerCase(), raw: m[0] });
      i += m[0].length;
      continue;
    }
    i++; // other punctuation (parentheses, dashes between words, …) separates words
  }
  return out;
}

/** Split a text into constraint segments: sentences, `;`, and new lines. */
export function segments(text: string): string[] {
  return text
    .split(/;|\n|(?<=[a-z0-9")\]])[.!?](?=\s|$)/i)
    .map((s) => s.trim().replace(/^[-*•]\s+/, ''))
    .filter((s) => /[A-Za-z0-9"]/.test(s));
}

const NUMBERS: ReadonlyMap<string, number> = new Map([
  ['one', 1],
  ['a', 1],
  ['two', 2],
  ['three', 3],
  ['four', 4],
  ['five', 5],
  ['six', 6],
  ['seven', 7],
  ['eight', 8],
  ['nine', 9],
  ['ten', 10],
  ['eleven', 11],
  ['twelve', 12],
  ['fifteen', 15],
  ['twenty', 20],
]);

/** Adverbs that are a number with "times" built in. */
export const TIMES_WORDS: ReadonlyMap<string, number> = new Map([
  ['once', 1],
  ['twice', 2],
  ['thrice', 3],
]);

export function numberWord(w: string): number | undefined {
  if (/^\d{1,3}$/.test(w)) return Number(w);
  return NUMBERS.get(w);
}

const IRREGULAR: ReadonlyMap<string, string> = new Map([
  ['went', 'go'],
  ['gone', 'go'],
  ['goes', 'go'],
  ['going', 'go'],
  ['is', 'be'],
  ['are', 'be'],
  ['am', 'be'],
  ['was', 'be'],
  ['were', 'be'],
  ['been', 'be'],
  ['being', 'be'],
  ['has', 'have'],
  ['had', 'have'],
  ['having', 'have'],
  ['does', 'do'],
  ['did', 'do'],
  ['done', 'do'],
  ['ran', 'run'],
  ['came', 'come'],
  ['took', 'take'],
  ['taken', 'take'],
  ['left', 'leave'],
  ['made', 'make'],
  ['got', 'get'],
  ['gotten', 'get'],
  ['brought', 'bring'],
  ['held', 'hold'],
  ['drove', 'drive'],
  ['driven', 'drive'],
  ['ate', 'eat'],
  ['eaten', 'eat'],
  ['sat', 'sit'],
  ['saw', 'see'],
  ['seen', 'see'],
  ['gave', 'give'],
  ['given', 'give'],
  ['found', 'find'],
  ['threw', 'throw'],
  ['thrown', 'throw'],
  ['broke', 'break'],
  ['broken', 'break'],
  ['kept', 'keep'],
  ['slept', 'sleep'],
  ['sent', 'send'],
  ['paid', 'pay'],
  ['stood', 'stand'],
  ['began', 'begin'],
  ['begun', 'begin'],
  ['wrote', 'write'],
  ['written', 'write'],
  ['fed', 'feed'],
  ['led', 'lead'],
  ['put', 'put'],
  ['shut', 'shut'],
  ['switched', 'switch'],
]);

const stems = new Map<string, string>();

/** The stem grounding compares words by: irregular verbs first, then Porter. */
export function stem(word: string): string {
  const w = word.toLowerCase();
  let s = stems.get(w);
  if (s === undefined) {
    const base = IRREGULAR.get(w) ?? w;
    s = /^[a-z]+$/.test(base) ? stemmer(base) : base;
    stems.set(w, s);
  }
  return s;
}

/**
 * The base form of a verb as written, for names made without a vocabulary ("turned" → "turn").
 * Candidates are checked against the word's own stem, so nouns that look like verbs stay whole.
 */
export function baseForm(word: string): string {
  const w = word.toLowerCase();
  const irregular = IRREGULAR.get(w);
  if (irregular) return irregular;
  const s = stemmer(w);
  const candidates: string[] = [];
  for (const suffix of ['ing', 'ed', 'es', 's']) {
    if (!w.endsWith(suffix) || w.length - suffix.length < 2) continue;
    const root = w.slice(0, -suffix.length);
    candidates.push(root);
    if (suffix === 'ing' || suffix === 'ed') {
      candidates.push(`${root}e`);
      if (/([b-df-hj-np-tv-z])\1$/.test(root)) candidates.push(root.slice(0, -1));
    }
  }
  for (const c of candidates) if (stemmer(c) === s) return c;
  return w;
}
