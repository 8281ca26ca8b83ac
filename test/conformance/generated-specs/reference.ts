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
  /** ltlsynt's first output line (REALIZABLE / UNREALIZABLE), TIMEOUT, or ERROR. */
  readonly answer: string;
  readonly verdict?: Verdict;
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
    const [id, hash, method, answer, seconds] = line.split('\t');
    const verdict = verdictOf(answer);
    out.set(id, { id, hash, method: method as ReferenceMethod, answer, seconds: Number(seconds), ...(verdict ? { verdict } : {}) });
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

/** Runs ltlsynt (and for Moore specs syfco) on one spec written to `dir`. */
export function recordReference(spec: GeneratedSpec, dir: string, limitS: number): ReferenceRecord {
  const file = join(dir, `${spec.id}.tlsf`);
  writeFileSync(file, spec.tlsf);
  const moore = /SEMANTICS:\s*Moore/.test(spec.tlsf);
  const started = performance.now();
  let result;
  if (!moore) result = run('ltlsynt', ['--tlsf', file, '--realizability'], limitS);
  else {
    const ins = run('syfco', ['-ins', file], 60).stdout.trim().split(/\s*,\s*/).filter(Boolean);
    const outs = run('syfco', ['-outs', file], 60).stdout.trim().split(/\s*,\s*/).filter(Boolean);
    const formula = delayInputs(run('syfco', ['-f', 'ltl', '-m', 'fully', file], 60).stdout.trim(), ins);
    result = run('ltlsynt', ['-f', formula, `--ins=${ins.join(',')}`, `--outs=${outs.join(',')}`, '--realizability'], limitS);
  }
  const seconds = Math.round(performance.now() - started) / 1000;
  const first = result.stdout.split('\n')[0].trim();
  const answer = result.timedOut ? 'TIMEOUT' : verdictOf(first) ? first : 'ERROR';
  const verdict = verdictOf(answer);
  return { id: spec.id, hash: spec.hash, method: moore ? 'moore-delayed-inputs' : 'tlsf', answer, seconds, ...(verdict ? { verdict } : {}) };
}

export function writeReferenceRecords(records: readonly ReferenceRecord[], comment: readonly string[]): void {
  const rows = records.map((r) => [r.id, r.hash, r.method, r.answer, r.seconds.toFixed(3)].join('\t'));
  writeFileSync(GENERATED_FIXTURE, [...comment.map((c) => `# ${c}`), 'id\thash\tmethod\tanswer\tseconds', ...rows, ''].join('\n'));
}
