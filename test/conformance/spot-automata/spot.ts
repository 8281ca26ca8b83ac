/**
 * Spot's side of the automata conformance (test/conformance/automata-spot.test.ts): the formulas
 * (Spot's `genltl` pattern sets from the literature, and seeded random ones), Spot's automata and
 * accepting words for them, and Spot's language-equivalence verdict on our translations. Only the
 * recording runs the native tools; the committed records (test/fixtures/spot/automata.jsonl) are
 * what the test reads.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Lasso, Valuation } from '../../../src/automata/lasso.js';
import { printHoa } from '../../../src/automata/hoa-print.js';
import { tgbaToHoa } from '../../../src/automata/hoa-convert.js';
import { translateLtl } from '../../../src/automata/translate.js';
import { atoms, evalPropositional, type Formula } from '../../../src/ltl/formula.js';
import { fromSyntax } from '../../../src/ltl/from-syntax.js';
import { parseSyntax } from '../../../src/ltl/parse.js';

export const AUTOMATA_FIXTURE = join(import.meta.dirname, '../../fixtures/spot/automata.jsonl');

/** The ways the compiler translates a formula, each checked on its own. */
export const MODES = ['auto', 'product', 'tableau-unsimplified'] as const;
export type Mode = (typeof MODES)[number];

export interface AutomatonRecord {
  /** `genltl --<family>-patterns`, or `random`. */
  readonly source: string;
  /** Spot syntax, as Spot printed it (`genltl`) or as `toSpot` printed it (random). */
  readonly formula: string;
  /** `autfilt --stats=%w` of `ltl2tgba` of the formula and of its negation; absent: empty language. */
  readonly word?: string;
  readonly negatedWord?: string;
  /** Per mode: the SHA-256 prefix of our automaton's HOA text when recorded, and Spot's verdict on it. */
  readonly ours: Readonly<Record<Mode, { readonly hash: string; readonly equivalent: boolean }>>;
}

export function readFormula(text: string): Formula {
  return fromSyntax(parseSyntax(text));
}

export function ourHoa(f: Formula, mode: Mode): string {
  const options = mode === 'product' ? { productOfConjuncts: true } : mode === 'tableau-unsimplified' ? { productOfConjuncts: false, simplify: false } : {};
  return printHoa(tgbaToHoa(translateLtl(f, options)));
}

export function hoaHash(hoa: string): string {
  return createHash('sha256').update(hoa).digest('hex').slice(0, 12);
}

export function readRecords(): AutomatonRecord[] {
  if (!existsSync(AUTOMATA_FIXTURE)) return [];
  return readFileSync(AUTOMATA_FIXTURE, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as AutomatonRecord);
}

/**
 * A Spot word (`a & !b; cycle{!a; b}`) as a lasso over `names`: each letter is a Boolean formula,
 * and the first valuation of `names` that satisfies it (fewest atoms true) is taken.
 */
export function parseSpotWord(word: string, names: readonly string[]): Lasso {
  const cycleAt = word.indexOf('cycle{');
  if (cycleAt < 0 || !word.endsWith('}')) throw new Error(`not a Spot word: ${word}`);
  const split = (s: string) =>
    s
      .split(';')
      .map((x) => x.trim())
      .filter((x) => x !== '');
  const letter = (text: string): Valuation => {
    const f = readFormula(text);
    const free = [...new Set([...names, ...atoms(f)])].sort();
    for (let bits = 0; bits < 1 << free.length; bits++) {
      const on = new Set(free.filter((_, i) => (bits >> i) & 1));
      if (evalPropositional(f, (a) => on.has(a))) return on;
    }
    throw new Error(`unsatisfiable letter in a Spot word: ${text}`);
  };
  return { prefix: split(word.slice(0, cycleAt)).map(letter), cycle: split(word.slice(cycleAt + 6, -1)).map(letter) };
}

// ---- recording (native tools) ----

/** Runs a Spot tool, its output as text; whole batches go through one call, hence the generous limits. */
export function run(cmd: string, args: readonly string[], input?: string): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8', input, timeout: 600_000, maxBuffer: 256 * 1024 * 1024 });
  if (r.error || r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${r.error?.message ?? r.stderr}`);
  return r.stdout;
}

export function spotVersion(): string | undefined {
  const r = spawnSync('ltl2tgba', ['--version'], { encoding: 'utf8' });
  return r.error || r.status !== 0 ? undefined : r.stdout.split('\n')[0].trim();
}

export const PATTERN_SETS = ['dac', 'eh', 'sb', 'hkrss', 'p', 'sejk'] as const;

/** Spot's parametric families at sizes whose automata Spot complements quickly (not `eil-gsi`: LTLf, with strong next). */
export const PARAMETRIC = [
  'and-f=2..4', 'and-fg=2..3', 'and-gf=2..3', 'ccj-alpha=1..3', 'ccj-beta=1..3', 'ccj-beta-prime=1..3', 'gh-q=1..3',
  'gh-r=1..3', 'go-theta=1..3', 'gf-equiv=1..3', 'gf-implies=1..3', 'ms-example=1..2', 'ms-phi-h=1..2', 'ms-phi-r=1..2',
  'ms-phi-s=1..2', 'or-fg=2..3', 'or-g=2..3', 'or-gf=2..3', 'r-left=2..3', 'r-right=2..3', 'rv-counter=1..2',
  'rv-counter-carry=1..2', 'tv-f1=1..3', 'tv-f2=1..3', 'tv-g1=1..3', 'tv-g2=1..3', 'tv-uu=1..3', 'u-left=2..3',
  'u-right=2..3', 'kr-n=1', 'pps-arbiter-standard=2..3', 'pps-arbiter-strict=2..3', 'fxg-or=1..3',
  'gxf-and=1..3', 'sejk-f=1..2', 'sejk-j=1..2', 'sejk-k=1..2',
] as const;

/** `genltl --<set>-patterns` (or a parametric family `--name=range`): [source, formula] pairs. */
export function genltl(option: string): [string, string][] {
  return run('genltl', ['--format=%F=%L\t%f', `--${option}`])
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      const [name, formula] = l.split('\t');
      return [option.endsWith('-patterns') ? option.slice(0, -'-patterns'.length) : `genltl ${name}`, formula];
    });
}

function acceptingWord(formula: string): string | undefined {
  const w = run('ltl2tgba', ['-f', formula]).trim();
  const out = run('autfilt', ['--stats=%w'], `${w}\n`).trim();
  return out === '' ? undefined : out;
}

export function recordAutomaton(source: string, formula: string, dir: string): AutomatonRecord {
  const f = readFormula(formula);
  const spotFile = join(dir, 'spot.hoa');
  writeFileSync(spotFile, run('ltl2tgba', ['-H', '-f', formula]));
  const ours = {} as Record<Mode, { hash: string; equivalent: boolean }>;
  for (const mode of MODES) {
    const hoa = ourHoa(f, mode);
    const file = join(dir, `ours-${mode}.hoa`);
    writeFileSync(file, hoa);
    // `--equivalent-to` keeps the automaton only if its language is Spot's; `-c` counts those kept
    // (and autfilt exits 1 when it keeps none).
    const check = spawnSync('autfilt', ['-c', `--equivalent-to=${spotFile}`, file], { encoding: 'utf8', timeout: 120_000 });
    if (check.error || (check.status !== 0 && check.status !== 1)) throw new Error(`autfilt on ${formula}: ${check.error?.message ?? check.stderr}`);
    const kept = check.stdout.trim();
    ours[mode] = { hash: hoaHash(hoa), equivalent: kept === '1' };
  }
  const word = acceptingWord(formula);
  const negatedWord = acceptingWord(`!(${formula})`);
  return { source, formula, ...(word ? { word } : {}), ...(negatedWord ? { negatedWord } : {}), ours };
}

export function writeRecords(records: readonly AutomatonRecord[], header: string): void {
  writeFileSync(AUTOMATA_FIXTURE, [`# ${header}`, ...records.map((r) => JSON.stringify(r)), ''].join('\n'));
}
