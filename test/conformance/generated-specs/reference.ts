/**
 * ltlsynt's verdicts on the generated specs (test/fixtures/generated/ltlsynt.tsv): how they are
 * recorded with the native tools, and how the committed table is read back without them.
 *
 * `ltlsynt --tlsf` answers for Mealy semantics whatever the file says: it takes syfco's formula
 * and input/output split and never asks for the semantics (a Moore spec it calls realizable can
 * have no Moore controller: gen-147 of this stream is one). For a Moore spec the reference is
 * therefore ltlsynt on syfco's formula with every input delayed by one step (`i` becomes `X i`):
 * a Mealy controller of that formula chooses its outputs at step t knowing the real inputs only up
 * to step t − 1, which is what a Moore controller knows.
 *
 * Each spec is decided twice: with ltlsynt's default options and with `--decompose=no`. The
 * default splits `A → G` into independent sub-specifications, and in ltlsynt 2.12.1 that split
 * is unsound where an assumption mentions an output: on seed 1001's gen-1853 it says
 * UNREALIZABLE, while `--decompose=no` says REALIZABLE, and the controller "o2 in the first step
 * only" (which falsifies the assumption `G(o2 → X F(¬i3 R o2))`) satisfies the formula, as Spot's
 * own `ltl2tgba` confirms (the product with the negation is empty). The reference verdict is the
 * undecomposed one; the default one is kept to show where the two differ.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GeneratedSpec } from './generate.js';

export const GENERATED_FIXTURE = join(import.meta.dirname, '../../fixtures/generated/ltlsynt.tsv');

export type Verdict = 'realizable' | 'unrealizable';

/** How the reference answer was obtained (see the file comment). */
export type ReferenceMethod = 'tlsf' | 'moore-delayed-inputs';

export interface ReferenceRecord {
  readonly id: string;
  readonly hash: string;
  readonly method: ReferenceMethod;
  /** ltlsynt's first output line (REALIZABLE / UNREALIZABLE), TIMEOUT, or ERROR, by default. */
  readonly answer: string;
  /** The same with `--decompose=no`: the reference. */
  readonly undecomposed: string;
  /** The undecomposed answer's verdict, or the default one's where that alone decided. */
  readonly verdict?: Verdict;
  /** Wall seconds of the undecomposed run. */
  readonly seconds: number;
}

function verdictOf(answer: string): Verdict | undefined {
  return answer === 'REALIZABLE' ? 'realizable' : answer === 'UNREALIZABLE' ? 'unrealizable' : undefined;
}

/** The committed records by spec id; empty when the fixture is absent. */
export function referenceRecords(): ReadonlyMap<string, ReferenceRecord> {
  const out = new Map<string, ReferenceRecord>();
  if (!existsSync(GENERATED_FIXTURE)) return out;
  const lines = readFileSync(GENERATED_FIXTURE, 'utf8').split('\n').filter((l) => l !== '' && !l.startsWith('#'));
  lines.shift(); // header
  for (const line of lines) {
    const [id, hash, method, answer, undecomposed, seconds] = line.split('\t');
    const verdict = verdictOf(undecomposed) ?? verdictOf(answer);
    out.set(id, { id, hash, method: method as ReferenceMethod, answer, undecomposed, seconds: Number(seconds), ...(verdict ? { verdict } : {}) });
  }
  return out;
}

export function toolVersion(tool: string): string | undefined {
  const r = spawnSync(tool, ['--version'], { encoding: 'utf8' });
  return r.error || r.status !== 0 ? undefined : r.stdout.split('\n')[0].trim();
}

function run(cmd: string, args: readonly string[], limitS: number): { stdout: string; timedOut: boolean; status: number | null } {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: limitS * 1000, killSignal: 'SIGKILL', maxBuffer: 16 * 1024 * 1024 });
  const timedOut = r.error !== undefined && (r.error as NodeJS.ErrnoException).code === 'ETIMEDOUT';
  return { stdout: r.stdout ?? '', timedOut, status: r.status };
}

/** Every input atom `(i)` of syfco's fully parenthesised formula becomes `(X i)`. */
export function delayInputs(formula: string, inputs: readonly string[]): string {
  const names = new Set(inputs);
  return formula.replace(/\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (whole, name: string) => (names.has(name) ? `(X ${name})` : whole));
}

/** Runs ltlsynt (and for Moore specs syfco) on one spec written to `dir`, with `options`. */
function decide(spec: GeneratedSpec, file: string, moore: boolean, options: readonly string[], limitS: number): { answer: string; seconds: number } {
  const started = performance.now();
  let result;
  if (!moore) result = run('ltlsynt', ['--tlsf', file, '--realizability', ...options], limitS);
  else {
    const ins = run('syfco', ['-ins', file], 60).stdout.trim().split(/\s*,\s*/).filter(Boolean);
    const outs = run('syfco', ['-outs', file], 60).stdout.trim().split(/\s*,\s*/).filter(Boolean);
    const formula = delayInputs(run('syfco', ['-f', 'ltl', '-m', 'fully', file], 60).stdout.trim(), ins);
    result = run('ltlsynt', ['-f', formula, `--ins=${ins.join(',')}`, `--outs=${outs.join(',')}`, '--realizability', ...options], limitS);
  }
  const seconds = Math.round(performance.now() - started) / 1000;
  const first = result.stdout.split('\n')[0].trim();
  return { answer: result.timedOut ? 'TIMEOUT' : verdictOf(first) ? first : 'ERROR', seconds };
}

/** Both answers for one spec (each run again with `retryS` where it timed out within `limitS`). */
export function recordReference(spec: GeneratedSpec, dir: string, limitS: number, retryS = limitS): ReferenceRecord {
  const file = join(dir, `${spec.id}.tlsf`);
  writeFileSync(file, spec.tlsf);
  const moore = /SEMANTICS:\s*Moore/.test(spec.tlsf);
  const once = (options: readonly string[]) => {
    const first = decide(spec, file, moore, options, limitS);
    return first.answer === 'TIMEOUT' && retryS > limitS ? decide(spec, file, moore, options, retryS) : first;
  };
  const byDefault = once([]);
  const undecomposed = once(['--decompose=no']);
  const verdict = verdictOf(undecomposed.answer) ?? verdictOf(byDefault.answer);
  return {
    id: spec.id,
    hash: spec.hash,
    method: moore ? 'moore-delayed-inputs' : 'tlsf',
    answer: byDefault.answer,
    undecomposed: undecomposed.answer,
    seconds: undecomposed.seconds,
    ...(verdict ? { verdict } : {}),
  };
}

export function writeReferenceRecords(records: readonly ReferenceRecord[], comment: readonly string[]): void {
  const rows = records.map((r) => [r.id, r.hash, r.method, r.answer, r.undecomposed, r.seconds.toFixed(3)].join('\t'));
  writeFileSync(GENERATED_FIXTURE, [...comment.map((c) => `# ${c}`), 'id\thash\tmethod\tanswer\tanswer_decompose_no\tseconds', ...rows, ''].join('\n'));
}
