/**
 * Formulas nobody here wrote: Spot's own random formula generator (`randltl`), read through tslc's
 * Spot-syntax front end (`tslc check --ltl … --ins … --outs …`) and decided against ltlsynt.
 *
 * The generated-spec streams (../generated-specs/) come from a generator of this project, whose
 * families say what its authors thought worth testing. `randltl` draws from the whole LTL grammar
 * with Spot's operator weights (`M`, `R`, `xor`, `<->`, constants and all), so its formulas reach
 * shapes and nestings no family here names. Each stream is a `randltl` command line (seeded, so
 * the same formulas on any machine with the same Spot); the formulas are committed
 * (test/fixtures/randltl/formulas.tsv), since CI has no Spot, and each row carries a hash so a
 * changed table shows up as a failing test.
 */
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReferenceInput } from '../generated-specs/reference.js';

export const RANDLTL_DIR = join(import.meta.dirname, '../../fixtures/randltl');
export const FORMULAS_FIXTURE = join(RANDLTL_DIR, 'formulas.tsv');
export const RANDLTL_REFERENCE = join(RANDLTL_DIR, 'ltlsynt.tsv');

/** One `randltl` run: its seed, atoms, sizes and weights, and the semantics its formulas are solved under. */
export interface RandltlStream {
  readonly name: string;
  readonly seed: number;
  /** How many distinct formulas the stream keeps. */
  readonly count: number;
  readonly ins: readonly string[];
  readonly outs: readonly string[];
  /** `--tree-size` (randltl's size of the formula's syntax tree before it is printed). */
  readonly treeSize: string;
  /** `--ltl-priorities`, where the stream changes Spot's default weights. */
  readonly priorities?: string;
  /**
   * Moore streams are printed fully parenthesised (`-p`): ltlsynt has no Moore semantics, so its
   * answer is for the formula with every input `i` read as `X i` (reference.ts, delayInputs), a
   * rewrite that needs each atom standing alone (`F(i0)`, not Spot's compact `Fi0`).
   */
  readonly semantics: 'mealy' | 'moore';
}

const io = (n: number) => ({ ins: Array.from({ length: n }, (_, k) => `i${k}`), outs: Array.from({ length: n }, (_, k) => `o${k}`) });

export const RANDLTL_STREAMS: readonly RandltlStream[] = [
  // Spot's default weights over three inputs and three outputs.
  { name: 'mealy3', seed: 2026, count: 500, ...io(3), treeSize: '10..30', semantics: 'mealy' },
  // Larger formulas over four and four.
  { name: 'mealy4', seed: 2027, count: 200, ...io(4), treeSize: '15..40', semantics: 'mealy' },
  // The operators of specifications (G, F, X, →) weighted up: response- and GR(1)-like shapes.
  {
    name: 'spec3',
    seed: 2028,
    count: 200,
    ...io(3),
    treeSize: '15..35',
    priorities: 'xor=0,equiv=1,M=0,R=0,W=1,U=1,F=3,G=3,X=2,implies=3,and=3,or=1,not=1,true=0,false=0',
    semantics: 'mealy',
  },
  // Moore semantics: the controller's outputs at a step cannot depend on that step's inputs.
  { name: 'moore3', seed: 2029, count: 200, ...io(3), treeSize: '10..30', semantics: 'moore' },
];

/** One formula of a stream, with what the reference needs to decide it. */
export interface RandltlSpec extends ReferenceInput {
  readonly stream: string;
  readonly semantics: 'mealy' | 'moore';
}

function hashOf(stream: RandltlStream, formula: string): string {
  return createHash('sha256').update(`${stream.semantics}|${stream.ins.join(',')}|${stream.outs.join(',')}|${formula}`).digest('hex').slice(0, 12);
}

function specOf(stream: RandltlStream, index: number, formula: string): RandltlSpec {
  return {
    id: `${stream.name}-${index}`,
    stream: stream.name,
    hash: hashOf(stream, formula),
    ltl: formula,
    ins: stream.ins,
    outs: stream.outs,
    moore: stream.semantics === 'moore',
    semantics: stream.semantics,
  };
}

/** The command line that makes a stream's formulas (run with Spot's binaries on PATH). */
export function randltlArgs(stream: RandltlStream, seed = stream.seed, count = stream.count): string[] {
  return [
    '-n', String(count),
    ...stream.ins, ...stream.outs,
    '--seed', String(seed),
    `--tree-size=${stream.treeSize}`,
    ...(stream.priorities ? [`--ltl-priorities=${stream.priorities}`] : []),
    ...(stream.semantics === 'moore' ? ['-p'] : []),
  ];
}

/** A stream's formulas drawn by `randltl` now (it must be on PATH); `seed` overrides the stream's. */
export function drawStream(stream: RandltlStream, seed = stream.seed, count = stream.count): RandltlSpec[] {
  const run = spawnSync('randltl', randltlArgs(stream, seed, count), { encoding: 'utf8' });
  if (run.error || run.status !== 0) throw new Error(`randltl failed: ${run.error?.message ?? run.stderr}`);
  // randltl prints distinct formulas already; the set only guards against a version that does not.
  const formulas = [...new Set(run.stdout.split('\n').filter((l) => l.trim() !== ''))];
  const name = seed === stream.seed ? stream.name : `${stream.name}-s${seed}`;
  return formulas.slice(0, count).map((f, k) => specOf({ ...stream, name }, k, f));
}

const HEADER = 'id\tstream\tsemantics\tins\touts\thash\tformula';

/** The committed formulas, in stream order; empty when the fixture is absent. */
export function committedSpecs(path = FORMULAS_FIXTURE): RandltlSpec[] {
  if (!existsSync(path)) return [];
  const lines = readFileSync(path, 'utf8').split('\n').filter((l) => l !== '' && !l.startsWith('#'));
  if (lines.shift() !== HEADER) throw new Error(`${path}: unexpected header`);
  return lines.map((line) => {
    const [id, stream, semantics, ins, outs, hash, formula] = line.split('\t');
    return { id, stream, hash, ltl: formula, ins: ins.split(','), outs: outs.split(','), moore: semantics === 'moore', semantics: semantics as RandltlSpec['semantics'] };
  });
}

export function writeSpecs(specs: readonly RandltlSpec[], comment: readonly string[], path = FORMULAS_FIXTURE): void {
  const rows = specs.map((s) => [s.id, s.stream, s.semantics, s.ins.join(','), s.outs.join(','), s.hash, s.ltl].join('\t'));
  writeFileSync(path, [...comment.map((c) => `# ${c}`), HEADER, ...rows, ''].join('\n'));
}

/** The hash a committed row must carry: its stream's split and semantics with its formula (a hand-edited row no longer matches). */
export function expectedHash(spec: RandltlSpec): string {
  const stream = RANDLTL_STREAMS.find((s) => s.name === spec.stream);
  if (!stream) throw new Error(`${spec.id}: no stream named ${spec.stream}`);
  return hashOf(stream, spec.ltl);
}
