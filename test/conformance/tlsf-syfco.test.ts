// Conformance of the TLSF reader with syfco on every file of SYNTCOMP's `tlsf/` folder (issue 17):
// tslc reads each file, with syfco's inputs, outputs, semantics and target, and a formula
// equivalent to syfco's. Data: test/fixtures/syntcomp (syfco's answers recorded; no native tool).
//
// Per file, three judges:
//  1. the same normal form (test/support/normal-form.ts) — identical formulas, cheap;
//  2. ≥ 224 random lasso words on which tslc's formula and syfco's (parsed into an independent
//     tree) are evaluated by the direct evaluator of test/support/lasso-eval.ts — every file;
//  3. for files whose normal forms differ: product emptiness both ways with our automata under a
//     time cap (test/support/equivalence.ts); past the cap the file counts as "random words only".
// Strict files are compared with syfco's `-os` rendering of the strict meaning (see the README).
import { afterAll, describe, expect, it } from 'vitest';
import { specFormula } from '../../src/game/spec.js';
import { gameFromTlsf, parseTlsf, type TlsfDocument } from '../../src/tlsf/index.js';
import { compareFormulas, type CompareResult, formatFailure, formulaFromTree } from '../support/equivalence.js';
import { evaluateBatch, formatLasso, randomLassoBatches, unpackLane } from '../support/lasso-eval.js';
import { type LtlTree, parseSyfcoLtl, printTree, treeFromFormula } from '../support/ltl-tree.js';
import { normalForm } from '../support/normal-form.js';
import { syfcoFormula, syntcompCases, type SyntcompCase } from '../support/syntcomp.js';

const cases = syntcompCases();
/** Time for both emptiness checks of one file. */
const EMPTINESS_CAP_MS = 3000;
const WORDS = 224;

const counts = {
  files: cases.length,
  readBySyfco: 0,
  readByTslc: 0,
  identical: 0,
  /** Identical once tsltools' signal groups are not recovered (the evaluator's own output). */
  identicalWithoutRecovery: 0,
  equivalentByEmptiness: 0,
  randomWordsOnly: 0,
  seconds: 0,
};
/** Files whose products were not decided within the cap (random words only), and why. */
const undecided: string[] = [];
/** The three files whose emptiness checks took longest (ms). */
const slowest: Array<[number, string]> = [];
const started = performance.now();

const SEMANTICS: Readonly<Record<string, string>> = {
  mealy: 'Mealy',
  moore: 'Moore',
  'mealy-strict': 'Strict,Mealy',
  'moore-strict': 'Strict,Moore',
};

/** The first random lasso on which the two formulas differ, or undefined after all of them. */
function randomWordDifference(ours: LtlTree, theirs: LtlTree, atoms: readonly string[]): string | undefined {
  const all = [...new Set([...ours.atoms(), ...theirs.atoms(), ...atoms])].sort();
  for (const batch of randomLassoBatches(all, { seed: 17, words: WORDS })) {
    const diff = (evaluateBatch(ours, batch) ^ evaluateBatch(theirs, batch)) >>> 0;
    if (diff !== 0) {
      const lane = 31 - Math.clz32(diff & -diff);
      const ourValue = ((evaluateBatch(ours, batch) >>> lane) & 1) === 1;
      return `${formatLasso(unpackLane(batch, lane))} (tslc: ${ourValue}, syfco: ${!ourValue})`;
    }
  }
  return undefined;
}

/** Everything wrong with tslc's reading of one file (empty when it agrees with syfco). */
function check(c: SyntcompCase): string[] {
  const answer = c.syfco;
  if (!answer.ok) return [];
  counts.readBySyfco++;
  let doc: TlsfDocument;
  try {
    doc = parseTlsf(c.file, c.source);
  } catch (err) {
    return [`${c.file}: tslc cannot read it: ${(err as Error).message}`];
  }
  counts.readByTslc++;
  const game = gameFromTlsf(doc, c.file);
  const problems: string[] = [];
  const sorted = (xs: readonly string[]) => [...xs].sort().join(', ');
  // syfco lists single signals in reverse declaration order, then buses: only the sets matter.
  if (sorted(game.inputs.map((p) => p.name)) !== sorted(answer.ins)) problems.push(`${c.file}: inputs ${sorted(game.inputs.map((p) => p.name))}, syfco: ${sorted(answer.ins)}`);
  if (sorted(game.outputs.map((p) => p.name)) !== sorted(answer.outs)) problems.push(`${c.file}: outputs ${sorted(game.outputs.map((p) => p.name))}, syfco: ${sorted(answer.outs)}`);
  const { semantics, target } = doc;
  if (SEMANTICS[semantics] !== answer.semantics) problems.push(`${c.file}: semantics ${semantics}, syfco: ${answer.semantics}`);
  if ((target === 'mealy' ? 'Mealy' : 'Moore') !== answer.target) problems.push(`${c.file}: target ${target}, syfco: ${answer.target}`);

  const ours = specFormula(game);
  const theirTree = parseSyfcoLtl(syfcoFormula(answer));
  const ourTree = treeFromFormula(ours);
  const lasso = randomWordDifference(ourTree, theirTree, [...answer.ins, ...answer.outs]);
  if (lasso !== undefined) {
    problems.push(`${c.file}: the formulas differ on a random word\n  tslc:  ${printTree(ourTree, 240)}\n  syfco: ${printTree(theirTree, 240)}\n  distinguishing lasso: ${lasso}`);
    return problems;
  }
  const theirs = normalForm(formulaFromTree(theirTree));
  if (normalForm(specFormula(gameFromTlsf(doc, c.file, false))) === theirs) counts.identicalWithoutRecovery++;
  if (normalForm(ours) === theirs) {
    counts.identical++;
    return problems;
  }
  const t0 = performance.now();
  const result: CompareResult = compareFormulas(ours, theirTree, { timeoutMs: EMPTINESS_CAP_MS, atoms: [...answer.ins, ...answer.outs] });
  slowest.push([performance.now() - t0, c.file]);
  slowest.sort((x, y) => y[0] - x[0]).splice(3);
  if (result.verdict === 'equivalent') counts.equivalentByEmptiness++;
  else if (result.verdict === 'agree-on-words') {
    counts.randomWordsOnly++;
    undecided.push(`${c.file} (${result.undecided})`);
  }
  else problems.push(formatFailure(c.file, ours, theirTree, result, ['tslc', 'syfco']));
  return problems;
}

// One test per benchmark family, so a failure names its family and the others still run.
const families = new Map<string, SyntcompCase[]>();
for (const c of cases) {
  const family = c.file.split('/').slice(0, 2).join('/');
  families.set(family, [...(families.get(family) ?? []), c]);
}

describe.skipIf(cases.length === 0)('TLSF reader against syfco on SYNTCOMP tlsf/', () => {
  it('has the whole folder: 959 files', () => {
    expect(cases.length).toBe(959);
  });
  for (const [family, members] of families) {
    it(`${family} (${members.length} files)`, () => {
      const problems = members.flatMap(check);
      expect(problems, problems.join('\n\n')).toEqual([]);
    }, 600_000);
  }
  afterAll(() => {
    counts.seconds = Math.round((performance.now() - started) / 100) / 10;
    console.log(`TLSF conformance with syfco: ${JSON.stringify(counts)}${undecided.length ? `; random words only: ${undecided.join(', ')}` : ''}; slowest emptiness checks: ${slowest.map(([ms, f]) => `${f} ${Math.round(ms)} ms`).join(', ')}`);
  });
});
