/**
 * ltlsynt's verdicts on the generated specs (test/fixtures/generated/ltlsynt.tsv): how they are
 * recorded with the native tools, and how the committed table is read back without them.
 *
 * ltlsynt reads each spec as the one LTL formula the generator writes beside its TLSF
 * (`GeneratedSpec.ltl`, TLSF's semantics as syfco defines it), not through `--tlsf`: that option
 * runs syfco, and syfco 1.2.1.2 misprints some formulas — `!((!a) <-> (!b))` comes out as
 * `!((!a) <-> a)`, dropping `b` (seed 3003's gen-1180: ltlsynt then answered for another formula).
 * tslc reads the TLSF text itself, so its TLSF reader is part of what is compared.
 *
 * `ltlsynt --tlsf` would also answer for Mealy semantics whatever the file says (it never asks
 * syfco for the semantics), and a spec with a Mealy controller may have no Moore one (gen-147 of
 * this stream). For a Moore spec every input `i` of the formula becomes `X i`: a Mealy controller
 * of that formula chooses its outputs at step t knowing the real inputs only up to step t − 1,
 * which is what a Moore controller knows.
 *
 * ltlsynt is not always right either, so each spec is decided three times, each with `--verify`
 * (ltlsynt checks its own strategy against the formula, with Spot's automata, before it answers):
 * - default options. Its decomposition of `A → G` into independent parts is unsound in 2.12.1
 *   where an assumption mentions an output (the system may win by falsifying it): on seed 1001's
 *   gen-1853 it says UNREALIZABLE, yet the controller "o2 in the first step only" satisfies the
 *   formula (Spot's `ltl2tgba` finds `(o2 ∧ X G ¬o2) ∧ ¬φ` empty);
 * - `--decompose=no`;
 * - `--decompose=no --algo=ds`. The default algorithm (`lar`, and `acd`) answered REALIZABLE on
 *   seed 2002's gen-3124, `F((¬i0 ∨ ¬o0) ↔ G i0) ↔ (¬o1 ↔ i0)`, with a controller that `--verify`
 *   refuses ("strategy is not OK"; Spot finds the word `cycle{¬i0 ∧ o1}`); `ds`, `sd` and `ps` say
 *   UNREALIZABLE, as tslc does.
 * The reference verdict: REALIZABLE if either undecomposed run found a strategy that passed its
 * check; else UNREALIZABLE if either of them says so; else none (`secondOpinionVerdict`, the rule
 * the benchmarks use where tslc and ltlsynt disagree). The default run is kept only to show where
 * it differs.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { secondOpinionVerdict } from '../../../bench/syntcomp.js';
import type { GeneratedSpec } from './generate.js';

export const GENERATED_FIXTURE = join(import.meta.dirname, '../../fixtures/generated/ltlsynt.tsv');
/** The same for the generated TSL specs (generate-tsl.ts), on their LTL abstraction. */
export const GENERATED_TSL_FIXTURE = join(import.meta.dirname, '../../fixtures/generated/ltlsynt-tsl.tsv');

/** What the reference needs of a spec: its formula and input/output split. */
export type ReferenceInput = Pick<GeneratedSpec, 'id' | 'hash' | 'ltl' | 'ins' | 'outs' | 'moore'>;

export type Verdict = 'realizable' | 'unrealizable';

/** How the reference answer was obtained (see the file comment). */
export type ReferenceMethod = 'mealy' | 'moore-delayed-inputs';

export interface ReferenceRecord {
  readonly id: string;
  readonly hash: string;
  readonly method: ReferenceMethod;
  /**
   * ltlsynt's answer by default, with `--decompose=no`, and with `--decompose=no --algo=ds`: its
   * first line (REALIZABLE / UNREALIZABLE), REFUTED when `--verify` refused its own strategy,
   * TIMEOUT, or ERROR.
   */
  readonly answer: string;
  readonly undecomposed: string;
  readonly ds: string;
  /** The reference verdict drawn from the two undecomposed answers (see the file comment). */
  readonly verdict?: Verdict;
  /** Wall seconds of the undecomposed run. */
  readonly seconds: number;
  /**
   * Whether syfco's reading of the TLSF text (`-f ltl`, with `-os` for Strict) is the same
   * language as the formula the generator wrote (`ltlfilt --equivalent-to`): `yes`, `no`, or `-`
   * where not known (TSL specs, or syfco absent). A check of the generator's semantics of TLSF.
   */
  readonly syfco: string;
}


function verdictOf(answer: string): Verdict | undefined {
  return answer === 'REALIZABLE' ? 'realizable' : answer === 'UNREALIZABLE' ? 'unrealizable' : undefined;
}

/** The committed records by spec id; empty when the fixture is absent. */
export function referenceRecords(path = GENERATED_FIXTURE): ReadonlyMap<string, ReferenceRecord> {
  const out = new Map<string, ReferenceRecord>();
  if (!existsSync(path)) return out;
  const lines = readFileSync(path, 'utf8').split('\n').filter((l) => l !== '' && !l.startsWith('#'));
  lines.shift(); // header
  for (const line of lines) {
    const [id, hash, method, answer, undecomposed, ds, seconds, syfco] = line.split('\t');
    const verdict = secondOpinionVerdict(undecomposed, ds);
    out.set(id, { id, hash, method: method as ReferenceMethod, answer, undecomposed, ds, seconds: Number(seconds), syfco: syfco ?? '-', ...(verdict ? { verdict } : {}) });
  }
  return out;
}

export function toolVersion(tool: string): string | undefined {
  const r = spawnSync(tool, ['--version'], { encoding: 'utf8' });
  return r.error || r.status !== 0 ? undefined : r.stdout.split('\n')[0].trim();
}

function run(cmd: string, args: readonly string[], limitS: number): { stdout: string; stderr: string; timedOut: boolean; status: number | null } {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: limitS * 1000, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 * 1024 });
  const timedOut = r.error !== undefined && (r.error as NodeJS.ErrnoException).code === 'ETIMEDOUT';
  return { stdout: r.stdout ?? '', stderr: r.stderr ?? '', timedOut, status: r.status };
}

/** Every input atom of a formula in the generator's syntax (`i0`, `i1`, …) becomes `(X i)`. */
export function delayInputs(formula: string, inputs: readonly string[]): string {
  const names = new Set(inputs);
  return formula.replace(/\b[A-Za-z_][A-Za-z0-9_]*\b/g, (name) => (names.has(name) ? `(X ${name})` : name));
}

/** ltlsynt on the spec's formula (inputs delayed for Moore), with `--verify` and `options`. */
function decide(spec: ReferenceInput, options: readonly string[], limitS: number): { answer: string; seconds: number } {
  const started = performance.now();
  const formula = spec.moore ? delayInputs(spec.ltl, spec.ins) : spec.ltl;
  const result = run('ltlsynt', ['-f', formula, `--ins=${spec.ins.join(',')}`, `--outs=${spec.outs.join(',')}`, '--verify', ...options], limitS);
  const seconds = Math.round(performance.now() - started) / 1000;
  const first = result.stdout.split('\n')[0].trim();
  // `--verify` reports a strategy that fails its check on stderr ("strategy is not OK"), exit 2.
  if (!result.timedOut && /not OK/.test(result.stderr)) return { answer: 'REFUTED', seconds };
  return { answer: result.timedOut ? 'TIMEOUT' : verdictOf(first) ? first : 'ERROR', seconds };
}

/** `yes` if syfco reads `tlsf` as the same language as `ltl`, `no` if not, `-` if unknown. */
export function syfcoAgrees(tlsf: string, ltl: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'tslc-syfco-'));
  try {
    const file = join(dir, 'spec.tlsf');
    writeFileSync(file, tlsf);
    const strict = /SEMANTICS:\s*\w+\s*,\s*Strict/.test(tlsf);
    const target = /TARGET:\s*Moore/.test(tlsf) ? 'Moore' : 'Mealy';
    const read = run('syfco', ['-f', 'ltl', '-m', 'fully', ...(strict ? ['-os', target] : []), file], 60);
    if (read.status !== 0 || read.stdout.trim() === '') return '-';
    const same = run('ltlfilt', ['-f', ltl, `--equivalent-to=${read.stdout.trim()}`], 60);
    if (same.timedOut || (same.status !== 0 && same.status !== 1)) return '-';
    return same.stdout.trim() === '' ? 'no' : 'yes';
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The three answers for one spec (each run again with `retryS` where it timed out within `limitS`). */
export function recordReference(spec: ReferenceInput, limitS: number, retryS = limitS, tlsf?: string): ReferenceRecord {
  const once = (options: readonly string[]) => {
    const first = decide(spec, options, limitS);
    return first.answer === 'TIMEOUT' && retryS > limitS ? decide(spec, options, retryS) : first;
  };
  const byDefault = once([]);
  const undecomposed = once(['--decompose=no']);
  const ds = once(['--decompose=no', '--algo=ds']);
  const verdict = secondOpinionVerdict(undecomposed.answer, ds.answer);
  return {
    id: spec.id,
    hash: spec.hash,
    method: spec.moore ? 'moore-delayed-inputs' : 'mealy',
    answer: byDefault.answer,
    undecomposed: undecomposed.answer,
    ds: ds.answer,
    seconds: undecomposed.seconds,
    syfco: tlsf === undefined ? '-' : syfcoAgrees(tlsf, spec.ltl),
    ...(verdict ? { verdict } : {}),
  };
}

export function writeReferenceRecords(records: readonly ReferenceRecord[], comment: readonly string[], path = GENERATED_FIXTURE): void {
  const rows = records.map((r) => [r.id, r.hash, r.method, r.answer, r.undecomposed, r.ds, r.seconds.toFixed(3), r.syfco].join('\t'));
  const header = 'id\thash\tmethod\tanswer\tanswer_decompose_no\tanswer_decompose_no_algo_ds\tseconds\tsyfco_agrees';
  writeFileSync(path, [...comment.map((c) => `# ${c}`), header, ...rows, ''].join('\n'));
}
