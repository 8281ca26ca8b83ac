/**
 * Z3's side of the #LIA conformance (test/conformance/omega-z3.test.ts): seeded systems of linear
 * integer constraints, *unbounded* (the brute-force test in test/theory/omega.test.ts can only
 * judge systems boxed small enough to enumerate, which never reach the Omega test's dark shadows
 * and splinters with large solutions), and Z3's `sat`/`unsat` for each. Only the recording runs
 * Z3 (`z3 -in`, SMT-LIB 2, QF_LIA); the test reads the committed records
 * (test/fixtures/z3/omega.jsonl).
 *
 * Shapes: `random` (one to four variables, mixed signs); `strip` (pairs of opposite inequalities
 * a·x ≥ c and a·x ≤ c + g with a small gap and coprime-ish coefficients, the shape where the real
 * shadow is non-empty but no integer fits: exactly what dark shadows and splinters are for);
 * `counter` (what the theory derivation asks: a counter and its next value `n1 = n0 + k`,
 * compared with constants and with each other, as in `[n <- n + 1] when !(n < 3) ...`).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { readJsonLines, writeJsonLines } from '../json-lines.js';
import { mulberry32 } from '../../../runtime/random.js';
import type { Constraint } from '../../../src/theory/omega.js';

export const OMEGA_FIXTURE = join(import.meta.dirname, '../../fixtures/z3/omega.jsonl.br');
export const SHAPES = { random: 900, strip: 700, counter: 400 } as const;
export type Shape = keyof typeof SHAPES;
export const SYSTEM_SEED = 4301;

/** A constraint as data: `Σ coeffs·x + constant ≥ 0` (`ge`) or `= 0` (`eq`). */
export interface ConstraintRecord {
  readonly kind: 'ge' | 'eq';
  readonly coeffs: Readonly<Record<string, number>>;
  readonly constant: number;
}

export interface OmegaRecord {
  readonly shape: Shape;
  readonly system: readonly ConstraintRecord[];
  readonly z3: 'sat' | 'unsat';
  /** Z3 on the same system over the rationals (QF_LRA): where it is sat and `z3` unsat, no real relaxation decides. */
  readonly z3Rational: 'sat' | 'unsat';
}

export function toConstraint(c: ConstraintRecord): Constraint {
  return {
    kind: c.kind,
    expr: { coeffs: new Map(Object.entries(c.coeffs).filter(([, a]) => a !== 0).map(([x, a]) => [x, BigInt(a)])), constant: BigInt(c.constant) },
  };
}

export function readOmegaRecords(): OmegaRecord[] {
  return readJsonLines<OmegaRecord>(OMEGA_FIXTURE);
}

/** The seeded systems, in a fixed order. */
export function omegaSystems(): { shape: Shape; system: ConstraintRecord[] }[] {
  const rand = mulberry32(SYSTEM_SEED);
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const nonzero = (m: number) => (rand() < 0.5 ? -1 : 1) * int(1, m);
  const out: { shape: Shape; system: ConstraintRecord[] }[] = [];
  for (let i = 0; i < SHAPES.random; i++) {
    const vars = ['x', 'y', 'z', 'w'].slice(0, int(1, 4));
    out.push({
      shape: 'random',
      system: Array.from({ length: int(1, 6) }, () => ({
        kind: rand() < 0.2 ? 'eq' : 'ge',
        coeffs: Object.fromEntries(vars.map((x) => [x, rand() < 0.25 ? 0 : nonzero(7)])),
        constant: int(-30, 30),
      })),
    });
  }
  for (let i = 0; i < SHAPES.strip; i++) {
    const vars = ['x', 'y', 'z'].slice(0, int(2, 3));
    const system: ConstraintRecord[] = [];
    for (let k = int(1, 3); k > 0; k--) {
      const coeffs = Object.fromEntries(vars.map((x) => [x, nonzero(13)]));
      const c = int(-40, 40);
      const gap = int(0, 3);
      // c ≤ a·x ≤ c + gap
      system.push({ kind: 'ge', coeffs, constant: -c });
      system.push({ kind: 'ge', coeffs: Object.fromEntries(Object.entries(coeffs).map(([x, a]) => [x, -a])), constant: c + gap });
    }
    if (rand() < 0.5) system.push({ kind: rand() < 0.3 ? 'eq' : 'ge', coeffs: Object.fromEntries(vars.map((x) => [x, nonzero(9)])), constant: int(-25, 25) });
    out.push({ shape: 'strip', system });
  }
  for (let i = 0; i < SHAPES.counter; i++) {
    const step = int(-3, 3);
    // n1 = n0 + step (an update), then literals about n0, n1 and a second signal m.
    const system: ConstraintRecord[] = [{ kind: 'eq', coeffs: { n1: 1, n0: -1 }, constant: -step }];
    for (let k = int(1, 4); k > 0; k--) {
      const v = ['n0', 'n1', 'm'][int(0, 2)];
      const bound = int(-5, 5);
      const form = int(0, 3);
      if (form === 0) system.push({ kind: 'ge', coeffs: { [v]: 1 }, constant: -bound }); // v ≥ bound
      else if (form === 1) system.push({ kind: 'ge', coeffs: { [v]: -1 }, constant: bound - 1 }); // v < bound
      else if (form === 2) system.push({ kind: 'eq', coeffs: { [v]: 1 }, constant: -bound }); // v = bound
      else system.push({ kind: 'ge', coeffs: { [v]: int(1, 3), m: -int(1, 3) }, constant: bound }); // a·v ≥ b·m - bound
    }
    out.push({ shape: 'counter', system });
  }
  return out;
}

function smtTerm(c: ConstraintRecord): string {
  const terms = Object.entries(c.coeffs)
    .filter(([, a]) => a !== 0)
    .map(([x, a]) => `(* ${a < 0 ? `(- ${-a})` : a} ${x})`);
  terms.push(c.constant < 0 ? `(- ${-c.constant})` : String(c.constant));
  return terms.length === 1 ? terms[0] : `(+ ${terms.join(' ')})`;
}

/**
 * Z3's verdict on every system, in one `z3 -in` run (push / check-sat / pop per system), over the
 * integers or, for comparison, the rationals.
 */
export function z3Verdicts(systems: ReadonlyArray<readonly ConstraintRecord[]>, domain: 'Int' | 'Real' = 'Int'): ('sat' | 'unsat')[] {
  const script = [`(set-logic ${domain === 'Int' ? 'QF_LIA' : 'QF_LRA'})`];
  for (const system of systems) {
    const vars = [...new Set(system.flatMap((c) => Object.keys(c.coeffs)))].sort();
    script.push('(push 1)', ...vars.map((x) => `(declare-const ${x} ${domain})`));
    for (const c of system) script.push(`(assert (${c.kind === 'eq' ? '=' : '>='} ${smtTerm(c)} 0))`);
    script.push('(check-sat)', '(pop 1)');
  }
  return runZ3(script, systems.length);
}

/** One `z3 -in` run of an SMT-LIB script with `expected` `(check-sat)` commands: their answers. */
export function runZ3(script: readonly string[], expected: number): ('sat' | 'unsat')[] {
  const r = spawnSync('z3', ['-in'], { input: script.join('\n') + '\n', encoding: 'utf8', timeout: 600_000, maxBuffer: 64 * 1024 * 1024 });
  if (r.error || r.status !== 0) throw new Error(`z3: ${r.error?.message ?? r.stderr ?? r.stdout}`);
  const answers = r.stdout.split('\n').filter((l) => l.trim() !== '');
  if (answers.length !== expected || answers.some((a) => a !== 'sat' && a !== 'unsat')) throw new Error(`z3 answered ${answers.length} of ${expected}: ${answers.find((a) => a !== 'sat' && a !== 'unsat')}`);
  return answers as ('sat' | 'unsat')[];
}

export function z3Version(): string | undefined {
  const r = spawnSync('z3', ['--version'], { encoding: 'utf8' });
  return r.error || r.status !== 0 ? undefined : r.stdout.trim();
}

export function writeOmegaRecords(records: readonly OmegaRecord[], header: string): void {
  writeJsonLines(OMEGA_FIXTURE, header, records);
}
