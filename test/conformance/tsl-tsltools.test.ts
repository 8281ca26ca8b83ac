/**
 * TSL semantics checked against tsltools: for every `.tsl` of the SYNTCOMP smart-home corpus that
 * has the TLSF tsltools generated, our abstraction (`--names tsltools`) has the same inputs,
 * outputs and semantics as syfco's reading of that TLSF, and a formula equivalent to syfco's
 * (product emptiness with our translator, confirmed by the independent lasso evaluator, plus
 * random words). The data is recorded in test/fixtures/tsltools (see its README), so neither the
 * shared corpus nor syfco is needed here. docs/conformance.md explains what is checked.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { type GameSpec, specFormula } from '../../src/game/spec.js';
import * as ltl from '../../src/ltl/formula.js';
import { loadTslGame } from '../../src/tsl/index.js';
import { compareFormulas, type CompareResult, formatFailure } from '../support/equivalence.js';
import { parseSyfcoLtl } from '../support/ltl-tree.js';

interface FixtureFile {
  readonly name: string;
  readonly tsl: string;
  readonly tlsf?: string;
  readonly syfco?: { readonly ltl: string; readonly ins: readonly string[]; readonly outs: readonly string[]; readonly semantics: string };
}
const fixture = JSON.parse(gunzipSync(readFileSync(join(import.meta.dirname, '../fixtures/tsltools/corpus.json.gz'))).toString('utf8')) as {
  readonly syfco: string;
  readonly files: readonly FixtureFile[];
};
const paired = fixture.files.filter((f) => f.syfco !== undefined);
const unpaired = fixture.files.filter((f) => f.syfco === undefined);

/**
 * Files where tslc deliberately reads the TSL differently from tsltools, with the reason (also in
 * docs/conformance.md). A file listed here must really differ, so a stale entry fails too.
 */
const DELIBERATE = new Map<string, string>([]);

/** Product time per comparison: every pair needs far less (the slowest under 0.1 s on an idle core). */
const CAP_MS = 2000;

const load = (f: FixtureFile) => loadTslGame(`${f.name}.tsl`, f.tsl, { names: 'tsltools' }).game;
const oneHot = (game: GameSpec) => game.signals.map((s) => s.updates);
const sorted = (xs: readonly string[]) => [...xs].sort();

function compareWithTsltools(f: FixtureFile, ours: ltl.Formula, game: GameSpec, cap = CAP_MS): CompareResult {
  const s = f.syfco!;
  return compareFormulas(ours, parseSyfcoLtl(s.ltl), { oneHot: oneHot(game), atoms: [...s.ins, ...s.outs], timeoutMs: cap });
}

describe('TSL abstraction against tsltools (syfco readings of its TLSF)', () => {
  it('the fixture holds the whole corpus', () => {
    expect(fixture.files).toHaveLength(189);
    expect(paired).toHaveLength(181);
    expect(fixture.syfco).toMatch(/^SyFCo \(v1\.2\.1\.2\)/);
    for (const name of DELIBERATE.keys()) expect(paired.map((f) => f.name)).toContain(name);
  });

  it.each(paired.map((f) => [f.name, f] as const))('%s', (_, f) => {
    const game = load(f);
    const s = f.syfco!;
    expect(sorted(game.inputs.map((p) => p.name))).toEqual(sorted(s.ins));
    expect(sorted(game.outputs.map((p) => p.name))).toEqual(sorted(s.outs));
    expect(s.semantics).toBe('Mealy');
    expect(game.semantics).toBe('mealy');
    const ours = specFormula(game);
    const r = compareWithTsltools(f, ours, game);
    const reason = DELIBERATE.get(f.name);
    if (reason !== undefined) {
      expect(r.verdict, `${f.name} is listed as a deliberate difference (${reason}) but compares ${r.verdict}`).toBe('different');
      return;
    }
    // Every pair is proved equivalent (random words agreeing is not enough here: all pairs are
    // decided in well under the cap, so a pair that no longer is points at a front-end change).
    if (r.verdict !== 'equivalent') expect.fail(formatFailure(`${f.name}.tsl`, ours, parseSyfcoLtl(s.ltl), r, ['tslc', 'tsltools']));
    expect(r.wordsChecked).toBeGreaterThanOrEqual(200);
  });
});

/**
 * The check catches front-end bugs: the kinds an abstraction could have (a lost assumption, a
 * wrong operator, two predicates' propositions swapped, no signal constraint, a lost self-update)
 * each stop the comparison from proving equivalence, and mostly refute it with a lasso the
 * evaluator confirmed.
 */
describe('altered abstractions are caught', () => {
  const sample = paired.filter((_, i) => i % 18 === 0);

  /** Rebuilds a formula bottom-up, mapping each node (memoised by id). */
  const rewrite = (f: ltl.Formula, visit: (node: ltl.Formula, rebuilt: ltl.Formula) => ltl.Formula) => ltl.mapFormula(f, visit);
  const withParts = (game: GameSpec, assumptions: GameSpec['assumptions'], guarantees: GameSpec['guarantees'], signals = game.signals): GameSpec => ({
    ...game,
    assumptions,
    guarantees,
    signals,
  });

  const mutations: readonly [string, (game: GameSpec) => ltl.Formula | null][] = [
    ['the last assumption dropped', (g) => (g.assumptions.length === 0 ? null : specFormula(withParts(g, g.assumptions.slice(0, -1), g.guarantees)))],
    ['the first guarantee dropped', (g) => (g.guarantees.length < 2 ? null : specFormula(withParts(g, g.assumptions, g.guarantees.slice(1))))],
    ['no exactly-one constraint on signals', (g) => (g.signals.length === 0 ? null : specFormula(withParts(g, g.assumptions, g.guarantees, [])))],
    [
      "a signal's self-update left out of its exactly-one group",
      (g) => {
        const s = g.signals.find((x) => x.updates.length >= 3 && x.selfUpdate !== undefined);
        if (!s) return null;
        const signals = g.signals.map((x) => (x === s ? { ...x, updates: x.updates.filter((u) => u !== x.selfUpdate) } : x));
        return specFormula(withParts(g, g.assumptions, g.guarantees, signals));
      },
    ],
    [
      'every F read as G',
      (g) => {
        const f = specFormula(g);
        const changed = rewrite(f, (node, rebuilt) => (rebuilt.kind === 'F' ? ltl.G(rebuilt.arg) : rebuilt));
        return changed === f ? null : changed;
      },
    ],
    [
      'two input propositions swapped',
      (g) => {
        if (g.inputs.length < 2) return null;
        const [x, y] = [g.inputs[0].name, g.inputs[1].name];
        return rewrite(specFormula(g), (node, rebuilt) => (node.kind === 'ap' && node.name === x ? ltl.ap(y) : node.kind === 'ap' && node.name === y ? ltl.ap(x) : rebuilt));
      },
    ],
  ];

  it.each(mutations.map(([what, m]) => [what, m] as const))('%s', (what, mutate) => {
    let tried = 0;
    let refuted = 0;
    const missed: string[] = [];
    for (const f of sample) {
      const game = load(f);
      const altered = mutate(game);
      if (altered === null) continue;
      tried++;
      // A short cap: proving these different is harder than proving the originals equivalent,
      // and the test above already fails on anything short of `equivalent`.
      const r = compareWithTsltools(f, altered, game, 1000);
      if (r.verdict === 'equivalent') missed.push(f.name);
      if (r.verdict === 'different') refuted++;
    }
    expect(tried, `no sample file admits "${what}"`).toBeGreaterThanOrEqual(3);
    expect(missed).toEqual([]);
    // Most are refuted outright, with a lasso the evaluator confirmed.
    expect(refuted).toBeGreaterThanOrEqual(Math.ceil(tried / 2));
  });
});

describe('corpus .tsl files tsltools made no TLSF for', () => {
  it.each(unpaired.map((f) => [f.name, f] as const))('%s parses, checks and abstracts', (_, f) => {
    const { game, diagnostics } = loadTslGame(`${f.name}.tsl`, f.tsl, { names: 'tsltools' });
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(game.assumptions.length + game.guarantees.length).toBeGreaterThan(0);
    // An empty `guarantee {}` is legal but suspicious: the loader says so.
    expect(diagnostics.some((d) => d.code === 'no-guarantees')).toBe(game.guarantees.length === 0);
  });
  it('are the eight known ones', () => {
    expect(unpaired.map((f) => f.name)).toEqual([
      'CheckAlarm_88f351a6',
      'CheckCoffeMachine_1cf58fc1',
      'CheckRoom_88c5c1c3',
      'CheckTime_6479ef9a',
      'CheckWindows_2418b67e',
      'FelixSpecFixed4_dd3a27e1',
      'PlugDeviceModel_b0840146',
      'Shades_b209ff21',
    ]);
  });
});
