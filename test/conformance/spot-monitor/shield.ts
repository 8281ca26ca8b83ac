/**
 * Spot's side of the shield conformance (test/conformance/shield-spot.test.ts). A shield allows a
 * proposed event when, after it, some finite continuation of single events (one proposition or
 * none per step) can still satisfy every rule, read on finite traces (LTLf); `status()` says
 * whether the trace so far, ended now, satisfies them. Spot decides both: the rules' conjunction
 * converted by `ltlfilt --from-ltlf` (our strong `X` as `X[!]`), the history fixed letter by
 * letter with `alive`, at most one proposition true at any step, and for the status `G !alive`
 * right after the history. Satisfiable (`ltl2tgba`, then `autfilt --stats=%w`) means allowed, or
 * satisfied.
 *
 * Rule sets: one to three formulas over four propositions (p0 … p3; the test names them
 * `call:t0`, `call:t1`, `call:t2` and `result:r0`), drawn from Spot's `genltl --dac-patterns` and
 * a `randltl` stream. Histories: the start of a trace Spot found satisfying all the rules (so
 * the shield is asked about live sessions, not only dead ones) and a random one.
 */
import { join } from 'node:path';
import { readJsonLines, writeJsonLines } from '../json-lines.js';
import { ltlAtoms } from '../../../runtime/ltl/atoms.js';
import { parseLtl } from '../../../runtime/ltl/parse.js';
import { mulberry32 } from '../../../runtime/random.js';
import { acceptingWords, prefixFormula, run, toSpotStrongNext, unroll } from './spot.js';

export const SHIELD_FIXTURE = join(import.meta.dirname, '../../fixtures/spot/shield-ltlf.jsonl');
export const SHIELD_APS = ['p0', 'p1', 'p2', 'p3'] as const;
export const SHIELD_SEED = 4201;
export const RULE_SETS = 200;
export const RANDLTL_RULES = { seed: 4202, count: 300, args: ['4', '--tree-size=4..14', '--ltl-priorities=G=4,F=3,implies=3,X=2,U=2,W=2,R=1,M=1,xor=0,equiv=1'] } as const;
export const HISTORY_LENGTH = 6;

export interface ShieldRecord {
  /** Spot syntax over p0 … p3. */
  readonly rules: readonly string[];
  readonly histories: ReadonlyArray<{
    readonly kind: 'model' | 'random';
    /** Each letter: the one proposition true at that step, or none (`[]`). */
    readonly letters: ReadonlyArray<readonly string[]>;
    /**
     * `allowed[k][c]`: after the first k letters, may the event `candidates()[c]` happen (k = 0 …
     * HISTORY_LENGTH)? `satisfied[k - 1]`: does the trace of the first k letters satisfy every
     * rule (k = 1 …)?
     */
    readonly allowed: ReadonlyArray<readonly boolean[]>;
    readonly satisfied: readonly boolean[];
  }>;
}

/** The events a shield may be asked about at each step: none, or one proposition. */
export function candidates(): string[][] {
  return [[], ...SHIELD_APS.map((p) => [p])];
}

export function readShieldRecords(): ShieldRecord[] {
  return readJsonLines<ShieldRecord>(SHIELD_FIXTURE);
}

const AT_MOST_ONE = `G(${SHIELD_APS.flatMap((a, i) => SHIELD_APS.slice(i + 1).map((b) => `!(${a} & ${b})`)).join(' & ')})`;

export function recordShieldFixture(): ShieldRecord[] {
  const lines = (text: string) => text.split('\n').filter((l) => l.trim() !== '');
  // Dwyer's patterns over five propositions are left out: the sets speak of four.
  const overFour = (f: string) => [...ltlAtoms(parseLtl(f))].every((a) => (SHIELD_APS as readonly string[]).includes(a));
  const pool = [
    ...lines(run('genltl', ['--dac-patterns'])).filter(overFour),
    ...lines(run('randltl', ['-n', String(RANDLTL_RULES.count), `--seed=${RANDLTL_RULES.seed}`, ...RANDLTL_RULES.args])),
  ];
  const rand = mulberry32(SHIELD_SEED);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const sets = Array.from({ length: RULE_SETS }, () => Array.from({ length: 1 + Math.floor(rand() * 3) }, () => pick(pool)));
  // Each set's conjunction as Spot reads LTLf, with single events only.
  const converted = lines(
    run('ltlfilt', ['--from-ltlf', '-F', '-'], sets.map((rules) => rules.map((r) => `(${toSpotStrongNext(parseLtl(r))})`).join(' & ')).join('\n') + '\n'),
  ).map((f) => `(${f}) & ${AT_MOST_ONE}`);
  if (converted.length !== sets.length) throw new Error(`ltlfilt converted ${converted.length} of ${sets.length} rule sets`);
  const models = acceptingWords(converted);
  const aps = [...SHIELD_APS, 'alive'];
  const histories = sets.map((_, i) => {
    const random = Array.from({ length: HISTORY_LENGTH }, () => pick(candidates()));
    const out: { kind: 'model' | 'random'; letters: string[][] }[] = [];
    const model = models[i];
    if (model !== undefined) {
      // Past the end of Spot's finite trace (no `alive`) any single events will do.
      const letters = unroll(model, aps, HISTORY_LENGTH).map((l) => (l.includes('alive') ? l.filter((a) => a !== 'alive') : pick(candidates())));
      out.push({ kind: 'model', letters });
    }
    out.push({ kind: 'random', letters: random });
    return out;
  });
  const queries: string[] = [];
  sets.forEach((_, i) => {
    for (const h of histories[i]) {
      for (let k = 0; k <= HISTORY_LENGTH; k++)
        for (const c of candidates()) queries.push(`(${prefixFormula([...h.letters.slice(0, k), c], k + 1, SHIELD_APS, true, false)}) & ${converted[i]}`);
      for (let k = 1; k <= HISTORY_LENGTH; k++) queries.push(`(${prefixFormula(h.letters, k, SHIELD_APS, true)}) & ${converted[i]}`);
    }
  });
  const answers = acceptingWords(queries);
  let q = 0;
  return sets.map((rules, i) => ({
    rules,
    histories: histories[i].map((h) => ({
      ...h,
      allowed: Array.from({ length: HISTORY_LENGTH + 1 }, () => candidates().map(() => answers[q++] !== undefined)),
      satisfied: Array.from({ length: HISTORY_LENGTH }, () => answers[q++] !== undefined),
    })),
  }));
}

export function writeShieldRecords(records: readonly ShieldRecord[], header: string): void {
  writeJsonLines(SHIELD_FIXTURE, header, records);
}
