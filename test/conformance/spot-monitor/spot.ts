/**
 * Spot's side of the monitor conformance (test/conformance/monitor-spot.test.ts): formulas nobody
 * here chose (Spot's `genltl` specification patterns and `randltl` streams), finite traces for
 * each, and Spot's LTL3 verdict after every prefix of every trace, with Spot's safety and
 * liveness classification of each formula. Only the recording runs the native tools; the test
 * reads the committed records (test/fixtures/spot/monitor-ltl3.jsonl).
 *
 * How Spot decides LTL3 (Bauer, Leucker and Schallhart's three-valued semantics) here: the
 * prefix u = l0 … l(k-1) becomes the formula P_u = l0 ∧ X(l1 ∧ X(… )), each letter a full
 * valuation of the formula's propositions. Then φ is violated after u exactly when P_u ∧ φ has no
 * model, satisfied exactly when P_u ∧ ¬φ has none, and pending otherwise; Spot decides each
 * satisfiability question by translating the formula (`ltl2tgba`) and looking for an accepting
 * word (`autfilt --stats=%w`). Nothing of the monitors' own machinery (our translation, live
 * states, progression) takes part.
 *
 * LTLf (a finished log judged as the whole trace): Spot reads an LTLf formula as LTL over an extra
 * proposition `alive` that holds exactly on the trace's positions (`ltlfilt --from-ltlf`). The
 * trace u then is the word u with `alive` on every letter followed by `!alive` forever, and φ holds
 * on u exactly when that word and the converted formula have a common model. Spot's LTLf `X` is the
 * weak next and `X[!]` the strong one; ours is strong, so every `X` is printed as `X[!]`.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { readJsonLines, writeJsonLines } from '../json-lines.js';
import { ltlAtoms } from '../../../runtime/ltl/atoms.js';
import { parseLtl } from '../../../runtime/ltl/parse.js';
import type { LtlNode } from '../../../runtime/ltl/syntax.js';
import { mulberry32 } from '../../../runtime/random.js';
import { parseSpotWord, run } from '../spot-automata/spot.js';

export { run, spotVersion } from '../spot-automata/spot.js';

export const MONITOR_FIXTURE = join(import.meta.dirname, '../../fixtures/spot/monitor-ltl3.jsonl');

export type Ltl3Verdict = 'violated' | 'satisfied' | 'pending';

export interface MonitorRecord {
  /** `genltl` pattern set (`dac`, `eh`, …) or randltl stream name. */
  readonly source: string;
  /** Spot syntax, as Spot printed it. */
  readonly formula: string;
  /** The formula's propositions, sorted: the letters of `traces` are subsets of them. */
  readonly aps: readonly string[];
  /**
   * Finite traces, each a list of letters (the propositions true at that step), and Spot's LTL3
   * verdict after each prefix: `verdicts[k]` is the verdict after the first k letters (k = 0: before any).
   */
  readonly traces: ReadonlyArray<{
    readonly kind: TraceKind;
    readonly letters: ReadonlyArray<readonly string[]>;
    readonly verdicts: readonly Ltl3Verdict[];
    /**
     * Spot's finite-trace (LTLf) truth of the formula on the trace cut after k letters, for
     * k = 1 … TRACE_LENGTH (`ltlf[k - 1]`), with `X` read as the strong next (our LTLf), which is
     * Spot's `X[!]`.
     */
    readonly ltlf: readonly boolean[];
  }>;
  /** `ltlfilt --safety` and `ltlfilt --liveness` (semantic classes, not syntactic). */
  readonly safety: boolean;
  readonly liveness: boolean;
}

/**
 * Where a trace comes from: uniformly random letters, or the first letters of a word Spot found in
 * the formula's language (`model`) or its complement's (`countermodel`), so that traces which
 * satisfy and which violate occur often, not only the ones random letters happen to hit.
 */
export type TraceKind = 'random' | 'model' | 'countermodel';

/** The randltl streams: Spot's default operator weights, and one weighted towards G, F and →. */
export const RANDLTL_STREAMS = [
  { name: 'randltl', seed: 4101, count: 300, args: ['3', '--tree-size=5..20'] },
  { name: 'randltl-spec', seed: 4102, count: 150, args: ['3', '--tree-size=8..24', '--ltl-priorities=G=4,F=4,implies=3,X=2,U=2,W=1,R=1,M=1,xor=0,equiv=1'] },
] as const;
export const PATTERN_SETS = ['dac', 'eh', 'sb', 'hkrss', 'p'] as const;
export const TRACE_LENGTH = 10;
export const TRACE_SEED = 4103;

// ---- reading ----

export function readMonitorRecords(): MonitorRecord[] {
  return readJsonLines<MonitorRecord>(MONITOR_FIXTURE);
}

// ---- recording (native tools) ----

/** The formulas: [source, Spot text] pairs, in a fixed order. */
export function monitorFormulas(): [string, string][] {
  const lines = (text: string) => text.split('\n').filter((l) => l.trim() !== '');
  return [
    ...PATTERN_SETS.flatMap((set) => lines(run('genltl', [`--${set}-patterns`])).map((f) => [set, f] as [string, string])),
    ...RANDLTL_STREAMS.flatMap((s) => lines(run('randltl', ['-n', String(s.count), `--seed=${s.seed}`, ...s.args])).map((f) => [s.name, f] as [string, string])),
  ];
}

/** Spot's accepting words of each formula, in order (undefined: empty language). One Spot run for all. */
export function acceptingWords(formulas: readonly string[]): (string | undefined)[] {
  if (formulas.length === 0) return [];
  const hoa = run('ltl2tgba', ['-F', '-'], formulas.join('\n') + '\n');
  const words = run('autfilt', ['--stats=%w'], hoa).split('\n').slice(0, formulas.length);
  if (words.length !== formulas.length) throw new Error(`autfilt gave ${words.length} words for ${formulas.length} formulas`);
  return words.map((w) => (w.trim() === '' ? undefined : w.trim()));
}

function letterFormula(letter: readonly string[], aps: readonly string[]): string {
  if (aps.length === 0) return '1';
  const on = new Set(letter);
  return aps.map((a) => (on.has(a) ? a : `!${a}`)).join(' & ');
}

/**
 * P_u for the first k letters: l0 & X(l1 & X(… )), or `1` for the empty prefix. With `alive`,
 * each letter also has `alive` (a position of a finite trace, for LTLf), and with `ended` the word
 * goes on with `G !alive`: the trace is exactly these letters.
 */
export function prefixFormula(letters: ReadonlyArray<readonly string[]>, k: number, aps: readonly string[], alive = false, ended = alive): string {
  let text = ended ? 'G !alive' : '';
  for (let i = k - 1; i >= 0; i--) {
    const letter = `(${letterFormula(letters[i], aps)})${alive ? ' & alive' : ''}`;
    text = text === '' ? letter : `${letter} & X(${text})`;
  }
  return text === '' ? '1' : text;
}

/** Spot syntax, fully parenthesized, with every `X` as Spot's strong next `X[!]`. */
export function toSpotStrongNext(n: LtlNode): string {
  switch (n.op) {
    case 'true':
      return '1';
    case 'false':
      return '0';
    case 'ap':
      return n.name;
    case '!':
    case 'F':
    case 'G':
      return `${n.op}(${toSpotStrongNext(n.arg)})`;
    case 'X':
      return `X[!](${toSpotStrongNext(n.arg)})`;
    case '&':
    case '|':
      return n.args.map((a) => `(${toSpotStrongNext(a)})`).join(` ${n.op} `);
    default:
      return `(${toSpotStrongNext(n.left)}) ${n.op} (${toSpotStrongNext(n.right)})`;
  }
}

function classify(formula: string, option: '--safety' | '--liveness'): boolean {
  const r = spawnSync('ltlfilt', ['-c', option, '-f', formula], { encoding: 'utf8', timeout: 600_000 });
  // `-c` prints how many formulas matched; ltlfilt exits 1 when none did.
  if (r.error || (r.status !== 0 && r.status !== 1)) throw new Error(`ltlfilt ${option} ${formula}: ${r.error?.message ?? r.stderr}`);
  return r.stdout.trim() === '1';
}

/** The first `length` letters of a Spot word, unrolled through its cycle (each: the `aps` true in it). */
export function unroll(word: string, aps: readonly string[], length: number): string[][] {
  const lasso = parseSpotWord(word, aps);
  const letters: string[][] = [];
  for (let i = 0; letters.length < length; i++) {
    const v = i < lasso.prefix.length ? lasso.prefix[i] : lasso.cycle[(i - lasso.prefix.length) % lasso.cycle.length];
    letters.push(aps.filter((a) => v.has(a)));
  }
  return letters;
}

/** Every record, Spot's answers included. */
export function recordMonitorFixture(): MonitorRecord[] {
  const inputs = monitorFormulas();
  const aps = inputs.map(([, f]) => [...ltlAtoms(parseLtl(f))].sort());
  const models = acceptingWords(inputs.map(([, f]) => f));
  const countermodels = acceptingWords(inputs.map(([, f]) => `!(${f})`));
  const rand = mulberry32(TRACE_SEED);
  const traces = inputs.map((_, i) => {
    const random = Array.from({ length: TRACE_LENGTH }, () => aps[i].filter(() => rand() < 0.5));
    const out: { kind: TraceKind; letters: string[][] }[] = [{ kind: 'random', letters: random }];
    const model = models[i];
    const countermodel = countermodels[i];
    if (model !== undefined) out.push({ kind: 'model', letters: unroll(model, aps[i], TRACE_LENGTH) });
    if (countermodel !== undefined) out.push({ kind: 'countermodel', letters: unroll(countermodel, aps[i], TRACE_LENGTH) });
    return out;
  });
  // Two satisfiability questions per prefix, all in one Spot run.
  const queries: string[] = [];
  inputs.forEach(([, f], i) => {
    for (const t of traces[i])
      for (let k = 0; k <= TRACE_LENGTH; k++) {
        const p = prefixFormula(t.letters, k, aps[i]);
        queries.push(`(${p}) & (${f})`, `(${p}) & !(${f})`);
      }
  });
  const answers = acceptingWords(queries);
  // LTLf: one more question per non-empty prefix, on the formula as Spot converts it.
  const converted = run('ltlfilt', ['--from-ltlf', '-F', '-'], inputs.map(([, f]) => toSpotStrongNext(parseLtl(f))).join('\n') + '\n')
    .split('\n')
    .slice(0, inputs.length);
  const finiteQueries: string[] = [];
  inputs.forEach((_, i) => {
    for (const t of traces[i]) for (let k = 1; k <= TRACE_LENGTH; k++) finiteQueries.push(`(${prefixFormula(t.letters, k, aps[i], true)}) & (${converted[i]})`);
  });
  const finiteAnswers = acceptingWords(finiteQueries);
  let q = 0;
  let fq = 0;
  return inputs.map(([source, formula], i) => ({
    source,
    formula,
    aps: aps[i],
    traces: traces[i].map((t) => ({
      ...t,
      verdicts: Array.from({ length: TRACE_LENGTH + 1 }, (): Ltl3Verdict => {
        const withModel = answers[q++] !== undefined;
        const withCountermodel = answers[q++] !== undefined;
        if (!withModel && !withCountermodel) throw new Error(`Spot found neither a model nor a countermodel extending a prefix of ${formula}`);
        return !withModel ? 'violated' : !withCountermodel ? 'satisfied' : 'pending';
      }),
      ltlf: Array.from({ length: TRACE_LENGTH }, () => finiteAnswers[fq++] !== undefined),
    })),
    safety: classify(formula, '--safety'),
    liveness: classify(formula, '--liveness'),
  }));
}

export function writeMonitorRecords(records: readonly MonitorRecord[], header: string): void {
  writeJsonLines(MONITOR_FIXTURE, header, records);
}
