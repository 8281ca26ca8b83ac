/**
 * Z3's side of the #UF conformance (test/conformance/uf-z3.test.ts): seeded conjunctions of
 * ground literals — equalities and disequalities between terms built from signals (read now or
 * next), literal values and uninterpreted functions, and predicate literals — with Z3's verdict.
 *
 * How a conjunction is put to Z3 (QF_UF), matching the theory tslc decides: one sort `U` of
 * values; each function `f` of arity n is `U^n → U`; each predicate `p` is a separate `U^n → U`
 * whose value is one of two constants `true` / `false` (a positive literal says `p(…) = true`, a
 * negative one `p(…) = false`); every literal value is a constant and all of them are pairwise
 * distinct (`3`, `"3"`, `true` and `false` among them), as values are at run time.
 */
import { join } from 'node:path';
import { readJsonLines, writeJsonLines } from '../json-lines.js';
import { runZ3 } from './systems.js';
import { mulberry32 } from '../../../runtime/random.js';
import type { TLiteral, TTerm } from '../../../src/theory/terms.js';

export const UF_FIXTURE = join(import.meta.dirname, '../../fixtures/z3/uf.jsonl.br');
export const UF_SEED = 4401;
export const UF_SYSTEMS = 1500;

export interface UfRecord {
  readonly literals: readonly TLiteral[];
  readonly z3: 'sat' | 'unsat';
}

export function readUfRecords(): UfRecord[] {
  return readJsonLines<UfRecord>(UF_FIXTURE);
}

const FUNCTIONS: ReadonlyArray<readonly [string, number]> = [['f', 1], ['g', 2], ['h', 1]];
const PREDICATES: ReadonlyArray<readonly [string, number]> = [['p', 1], ['q', 2]];
const VALUES: ReadonlyArray<number | string | boolean> = [0, 1, 3, '3', 'a', true, false];

export function ufSystems(): TLiteral[][] {
  const rand = mulberry32(UF_SEED);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const out: TLiteral[][] = [];
  for (let i = 0; i < UF_SYSTEMS; i++) {
    // Few signals and shallow terms, so that literals share terms and congruence has work to do.
    const signals = ['x', 'y', 'z'].slice(0, 2 + Math.floor(rand() * 2));
    const term = (depth: number): TTerm => {
      const r = rand();
      if (depth <= 0 || r < 0.45) return { kind: 'var', name: pick(signals), time: rand() < 0.2 ? 1 : 0 };
      if (r < 0.55) return { kind: 'lit', value: pick(VALUES) };
      const [fn, arity] = pick(FUNCTIONS);
      return { kind: 'app', fn, args: Array.from({ length: arity }, () => term(depth - 1)) };
    };
    const literals = Array.from({ length: 3 + Math.floor(rand() * 6) }, (): TLiteral => {
      const positive = rand() < 0.75;
      if (rand() < 0.7) return { atom: { fn: 'eq', args: [term(1 + Math.floor(rand() * 2)), term(1)] }, positive };
      const [fn, arity] = pick(PREDICATES);
      return { atom: { fn, args: Array.from({ length: arity }, () => term(1)) }, positive };
    });
    // A probe: a function (or predicate) of two terms the literals mention, told to differ. It
    // contradicts the rest exactly when congruence merges the two: the case the closure exists for.
    const mentioned = literals.flatMap((l) => l.atom.args);
    if (rand() < 0.6 && mentioned.length >= 2) {
      const a = pick(mentioned);
      const b = pick(mentioned);
      if (rand() < 0.5) literals.push({ atom: { fn: 'eq', args: [{ kind: 'app', fn: 'h', args: [a] }, { kind: 'app', fn: 'h', args: [b] }] }, positive: false });
      else literals.push({ atom: { fn: 'p', args: [a] }, positive: true }, { atom: { fn: 'p', args: [b] }, positive: false });
    }
    out.push(literals);
  }
  return out;
}

function valueName(v: number | string | boolean): string {
  return typeof v === 'boolean' ? `val_${v}` : typeof v === 'number' ? `val_n${v}` : `val_s${[...v].map((c) => c.charCodeAt(0)).join('_')}`;
}

function smt(t: TTerm): string {
  switch (t.kind) {
    case 'var':
      return `sig_${t.name}_${t.time}`;
    case 'lit':
      return valueName(t.value);
    case 'app':
      return `(fn_${t.fn} ${t.args.map(smt).join(' ')})`;
  }
}

export function z3UfVerdicts(systems: ReadonlyArray<readonly TLiteral[]>): ('sat' | 'unsat')[] {
  const script = ['(set-logic QF_UF)', '(declare-sort U 0)'];
  const values = VALUES.map(valueName);
  script.push(...values.map((v) => `(declare-const ${v} U)`), `(assert (distinct ${values.join(' ')}))`);
  for (const [fn, arity] of FUNCTIONS) script.push(`(declare-fun fn_${fn} (${Array(arity).fill('U').join(' ')}) U)`);
  for (const [fn, arity] of PREDICATES) script.push(`(declare-fun pred_${fn} (${Array(arity).fill('U').join(' ')}) U)`);
  for (const system of systems) {
    const vars = new Set<string>();
    const collect = (t: TTerm): void => {
      if (t.kind === 'var') vars.add(smt(t));
      else if (t.kind === 'app') t.args.forEach(collect);
    };
    system.forEach((l) => l.atom.args.forEach(collect));
    script.push('(push 1)', ...[...vars].sort().map((v) => `(declare-const ${v} U)`));
    for (const { atom, positive } of system) {
      if (atom.fn === 'eq') script.push(`(assert ${positive ? '' : '(not '}(= ${smt(atom.args[0])} ${smt(atom.args[1])})${positive ? '' : ')'})`);
      else script.push(`(assert (= (pred_${atom.fn} ${atom.args.map(smt).join(' ')}) ${valueName(positive)}))`);
    }
    script.push('(check-sat)', '(pop 1)');
  }
  return runZ3(script, systems.length);
}

export function writeUfRecords(records: readonly UfRecord[], header: string): void {
  writeJsonLines(UF_FIXTURE, header, records);
}
