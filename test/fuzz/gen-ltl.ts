/**
 * Generators of Spot-syntax LTL (as `check --ltl`, `explain-ltl`, audit rule files and shields read
 * it): random formulas in every spelling Spot accepts, token soups, mutations of the Spot
 * conformance inputs, deep nesting, long chains, huge and odd atoms (`__proto__`, quoted names).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Alphabet, mutate, soup } from './mutate.js';
import type { Rand } from './rand.js';

/** Atoms that break lookups on plain objects, need quoting, or look like operators. */
export const ODD_ATOMS = [
  '__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'prototype', '"a b"', '"call:refund"', '"F1"', '"X"', '"\\"q\\""',
  'Fire', 'GFa', 'X1a', 'a.b_1', 'true_', 'xor_', 'e', 'é', '"∀"', '""', '"tab\there"',
];
const ATOMS = ['a', 'b', 'c', 'req', 'grant', 'p', 'q'];

export const LTL_ALPHABET: Alphabet = {
  chars: '()[]{}!~&|^-><=:;.,"\'_ \n\tXFGUWRMVaz019\u0000é\\',
  tokens: [
    '(', ')', '!', '~', '&', '&&', '/\\', '|', '||', '\\/', '->', '=>', '-->', '<->', '<=>', '<-->', 'xor', '^', 'X', 'F', 'G', 'U', 'W', 'R',
    'M', 'V', '[]', '<>', 'X[3]', 'X[254]', 'X[255]', 'X[99999999999999]', 'F[1..3]', 'G[2:4]', 'F[3..1]', 'G[0..]', 'X[!]', '1', '0', 'true',
    'false', 'a', 'b', 'req', 'grant', '"a b"', '"', '{', '}', '[*]', ';', ':', ...ODD_ATOMS,
  ],
};

/** A random formula, `depth` levels at most, in a mix of Spot's spellings. */
export function ltlFormula(r: Rand, depth: number, atoms: readonly string[] = ATOMS): string {
  if (depth <= 0 || r.chance(0.2)) {
    return r.weighted<() => string>([
      [10, () => r.pick(atoms)],
      [1, () => r.pick(ODD_ATOMS)],
      [1, () => r.pick(['true', 'false', '1', '0'])],
    ])();
  }
  const sub = () => ltlFormula(r, depth - 1, atoms);
  const par = (s: string) => (r.chance(0.7) ? `(${s})` : s);
  return r.weighted<() => string>([
    [3, () => `${r.pick(['!', '~', 'X', 'F', 'G', '[]', '<>', 'X ', 'F ', 'G ', '! '])}${par(sub())}`],
    [1, () => `${r.pick(['X[2]', 'F[1..3]', 'G[0:2]', 'X[0]', 'F[2..2]'])}${par(sub())}`],
    [6, () => `${par(sub())} ${r.pick(['&', '&&', '/\\', '|', '||', '\\/', '->', '=>', '<->', '<=>', 'xor', '^', 'U', 'W', 'R', 'M', 'V'])} ${par(sub())}`],
  ])();
}

/** Spot's own test inputs (test/fixtures/spot), the seeds for mutation. */
export function ltlSeeds(): string[] {
  const file = join(import.meta.dirname, '../fixtures/spot/ltl-parse.json');
  const seeds = ['G (req -> F grant)', 'G F a & F G b', '!(a U b) R c', 'X[3] a -> F[1..2] b', 'G("call:pay" -> X "call:confirm")'];
  if (!existsSync(file)) return seeds;
  const data = JSON.parse(readFileSync(file, 'utf8')) as { records: { input: string }[] };
  return [...seeds, ...data.records.map((rec) => rec.input).filter((s) => s.length < 400)];
}

/** Deep nesting and long chains of every operator; `n` up to 100,000. */
export function deepLtl(r: Rand): string {
  const n = r.size([100, 999, 1000, 1001, 3000, 8400, 48_000, 100_000]);
  const kind = r.pick(['parens', 'not', 'X', 'F', 'G', 'box', 'mixed', 'U', 'R', 'W', 'M', 'implies', 'iff', 'xor', 'and', 'or', 'and-nested', 'X[k]', 'open'] as const);
  const chain = (op: string) => Array.from({ length: n }, (_, i) => ATOMS[i % ATOMS.length]).join(` ${op} `);
  switch (kind) {
    case 'parens':
      return `${'('.repeat(n)}a${')'.repeat(n)}`;
    case 'not':
      return `${'!'.repeat(n)}a`;
    case 'X':
    case 'F':
    case 'G':
      return `${kind} `.repeat(n) + 'a';
    case 'box':
      return `${'[]'.repeat(n)}a`;
    case 'mixed':
      return Array.from({ length: n }, () => r.pick(['!', 'X', 'F ', 'G', '(', '<>', '~'])).join('') + 'a' + ')'.repeat(0);
    case 'U':
    case 'R':
    case 'W':
    case 'M':
      return chain(kind);
    case 'implies':
      return chain('->');
    case 'iff':
      return chain('<->');
    case 'xor':
      return chain('xor');
    case 'and':
      return chain('&');
    case 'or':
      return chain('|');
    case 'and-nested':
      return Array.from({ length: n }, (_, k) => (k % 2 ? 'a | (' : 'b & (')).join('') + 'c' + ')'.repeat(n);
    case 'X[k]':
      return `X[${r.pick([254, 255, 1000, n, 2 ** 31, 2 ** 53])}] a`;
    default:
      return `${'('.repeat(n)}a`;
  }
}

/** Huge atoms, quoted atoms, numbers and unterminated quotes. */
export function hugeLtl(r: Rand): string {
  const n = r.size([1000, 100_000, 1_000_000]);
  switch (r.int(6)) {
    case 0:
      return `G ${'a'.repeat(n)}`;
    case 1:
      return `F "${'x '.repeat(n / 2)}"`;
    case 2:
      return `G "${'x'.repeat(n)}`;
    case 3:
      return `X[${'9'.repeat(Math.min(n, 5000))}] a`;
    case 4:
      return `G (${Array.from({ length: Math.min(n / 10, 20_000) }, (_, i) => `p${i}`).join(' | ')})`;
    default:
      return `${' '.repeat(n)}a`;
  }
}

export type LtlGenerator = 'random' | 'soup' | 'mutate' | 'deep' | 'huge';

export function ltlInput(r: Rand, seeds: readonly string[]): { generator: LtlGenerator; text: string } {
  const generator = r.weighted<LtlGenerator>([
    [6, 'random'],
    [2, 'soup'],
    [5, 'mutate'],
    [1, 'deep'],
    [0.4, 'huge'],
  ]);
  switch (generator) {
    case 'random':
      return { generator, text: ltlFormula(r, 1 + r.int(6)) };
    case 'soup':
      return { generator, text: soup(r, LTL_ALPHABET, r.logSize(60)) };
    case 'mutate':
      return { generator, text: mutate(r.chance(0.3) ? ltlFormula(r, 4) : r.pick(seeds), r, LTL_ALPHABET, seeds, 3) };
    case 'deep':
      return { generator, text: deepLtl(r) };
    default:
      return { generator, text: hugeLtl(r) };
  }
}
