/**
 * Text mutations shared by the generators: character and token edits, splices of another seed
 * text, duplicated regions and repeated tokens. A mutation keeps most of a real input intact, so
 * it reaches the later stages of a front end that pure noise never gets past.
 */
import type { Rand } from './rand.js';

/** Words, numbers, the usual multi-character operators, or any single character. */
const TOKEN_RE = /\s+|\/\/[^\n]*|<->|<=>|<-|->|=>|&&|\|\||\/\\|\\\/|\[\]|<>|[A-Za-z_@][A-Za-z0-9_@'.]*|[0-9]+(?:\.[0-9]+)?|"[^"\n]*"|./gsu;

export function tokens(text: string): string[] {
  return text.match(TOKEN_RE) ?? [];
}

export interface Alphabet {
  /** Single characters worth inserting. */
  readonly chars: string;
  /** Tokens of the language, and tokens that are nearly right. */
  readonly tokens: readonly string[];
}

/** One to `maxRounds` random edits of `text`; `donors` are texts to splice from. */
export function mutate(text: string, r: Rand, alphabet: Alphabet, donors: readonly string[] = [], maxRounds = 4): string {
  let out = text;
  const rounds = 1 + r.int(maxRounds);
  for (let k = 0; k < rounds; k++) out = mutateOnce(out, r, alphabet, donors);
  return out;
}

function mutateOnce(text: string, r: Rand, alphabet: Alphabet, donors: readonly string[]): string {
  const chars = [...alphabet.chars];
  const at = r.int(text.length + 1);
  switch (r.weighted<string>([
    [3, 'char'],
    [4, 'token'],
    [1, 'splice'],
    [1, 'duplicate'],
    [1, 'repeat'],
    [1, 'truncate'],
  ])) {
    case 'char': {
      const op = r.int(3);
      if (op === 0) return text.slice(0, at) + r.pick(chars) + text.slice(at);
      if (op === 1) return text.slice(0, at) + text.slice(at + 1);
      return text.slice(0, at) + r.pick(chars) + text.slice(at + 1);
    }
    case 'token': {
      const ts = tokens(text);
      const i = r.int(ts.length + 1);
      const op = r.int(4);
      if (op === 0) ts.splice(i, 1);
      else if (op === 1) ts.splice(i, 0, r.pick(alphabet.tokens));
      else if (op === 2) ts.splice(i, 1, r.pick(alphabet.tokens));
      else if (ts.length > 1) {
        const j = r.int(ts.length);
        const a = i % ts.length;
        [ts[a], ts[j]] = [ts[j], ts[a]];
      }
      return ts.join('');
    }
    case 'splice': {
      if (donors.length === 0) return text;
      const donor = r.pick(donors);
      const from = r.int(donor.length + 1);
      const piece = donor.slice(from, from + r.logSize(400));
      return text.slice(0, at) + piece + text.slice(at + r.int(40));
    }
    case 'duplicate': {
      const len = r.logSize(200);
      return text.slice(0, at + len) + text.slice(at, at + len) + text.slice(at + len);
    }
    case 'repeat': {
      const ts = tokens(text);
      const i = r.int(ts.length);
      if (ts.length === 0) return text;
      ts.splice(i, 0, ts[i].repeat(r.logSize(300)));
      return ts.join('');
    }
    default:
      return text.slice(0, at);
  }
}

/** `n` random tokens from the alphabet, separated by random white space (sometimes none). */
export function soup(r: Rand, alphabet: Alphabet, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    out.push(r.pick(alphabet.tokens));
    out.push(r.weighted([
      [6, ' '],
      [2, ''],
      [1, '\n'],
      [1, '\t'],
    ]));
  }
  return out.join('');
}
