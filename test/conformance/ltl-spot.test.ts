/**
 * Conformance of our Spot-syntax LTL reader and printers with Spot 2.12.1 (`ltlfilt`).
 *
 * test/fixtures/spot/ltl-parse.json records, for a few thousand seeded inputs (corner cases,
 * random formulas in many spellings/parenthesisations/spacings, token soup, mutations, and
 * `randltl` output in Spot's, Spin's, UTF-8 and Wring's syntax), what `ltlfilt -p` made of each:
 * its fully parenthesised reading or its rejection. For every input we check that
 * - we reject exactly what Spot rejects, and otherwise read the same formula: compared after
 *   applying to our tree the rewrites Spot's constructors apply while it parses (`a & a`, `!!a`,
 *   `FFa`, `1 U a`…; see spotNormal in spot-ltl/compare.ts), modulo operand order of `& | xor <->`;
 * - `printLtl` (runtime) and `toSpot` (compiler → ltlsynt) print text that Spot reads as that same
 *   formula (their outputs and Spot's readings of them are recorded too), and that we read back.
 *
 * Regenerate the fixture with `node scripts/spot-ltl-fixtures.mjs` (needs `ltlfilt` on PATH;
 * skips otherwise). When `ltlfilt` is installed, one more test compares live on fresh inputs.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LtlSyntaxError, parseLtl } from '../../runtime/ltl/parse.js';
import { printLtl } from '../../runtime/ltl/print.js';
import type { LtlNode } from '../../runtime/ltl/syntax.js';
import { type Formula } from '../../src/ltl/formula.js';
import { fromSyntax } from '../../src/ltl/from-syntax.js';
import { toSpot } from '../../src/ltl/print.js';
import { distinguishingWord, key, readSpotFull, spotNormal } from './spot-ltl/compare.js';
import { EDGE_CASES, generatedInputs, type Input } from './spot-ltl/inputs.js';
import { ltlfiltVersion, readWithSpot, type SpotReading } from './spot-ltl/ltlfilt.js';

const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/spot/ltl-parse.json');
const SEED = 20_250_117;
const PER_FAMILY = 450;

interface Record_ {
  readonly family: string;
  readonly input: string;
  /** Spot's `-p` reading, or null when it rejects the input (then `error` is its complaint). */
  readonly spot: string | null;
  readonly error?: string;
  /** `printLtl` of our reading when the fixture was made, and Spot's reading of that text. */
  readonly printed?: string;
  readonly spotPrinted?: string | null;
  /** `toSpot(fromSyntax(…))` of our reading, and Spot's reading of that text. */
  readonly toSpot?: string;
  readonly spotToSpot?: string | null;
}
interface Fixture {
  readonly tool: string;
  readonly seed: number;
  readonly records: readonly Record_[];
}

function toSyntax(f: Formula): LtlNode {
  switch (f.kind) {
    case 'true':
    case 'false':
      return { op: f.kind };
    case 'ap':
      return { op: 'ap', name: f.name };
    case 'not':
      return { op: '!', arg: toSyntax(f.arg) };
    case 'X':
    case 'F':
    case 'G':
      return { op: f.kind, arg: toSyntax(f.arg) };
    case 'and':
    case 'or':
      return { op: f.kind === 'and' ? '&' : '|', args: f.args.map(toSyntax) };
    case 'implies':
      return { op: '->', left: toSyntax(f.left), right: toSyntax(f.right) };
    case 'iff':
      return { op: '<->', left: toSyntax(f.left), right: toSyntax(f.right) };
    default:
      return { op: f.kind, left: toSyntax(f.left), right: toSyntax(f.right) };
  }
}

type Ours = { ok: true; node: LtlNode } | { ok: false; error: LtlSyntaxError };
function readOurs(input: string): Ours {
  try {
    return { ok: true, node: parseLtl(input) };
  } catch (e) {
    if (e instanceof LtlSyntaxError) return { ok: false, error: e };
    throw new Error(`parseLtl(${JSON.stringify(input)}) threw a non-syntax error: ${String(e)}`);
  }
}

/**
 * Deliberate differences: Spot also reads PSL (`{a;b}[]-> c`, and `{a}` is `a`) and strong next
 * (`X[!] a`, `Ⓧ a`, `F[1..2!] a`), which have no meaning in tslc's infinite-trace LTL; we refuse
 * them with a message that says so.
 */
function deliberatelyRefused(input: string, ours: Ours, spot: string | null): boolean {
  return spot !== null && !ours.ok && /is not supported/.test(ours.error.message) && (spot.includes('X[!]') || input.includes('{'));
}

/** Why our reading of `input` differs from Spot's `spot` (null = Spot rejects), or null if it does not. */
function disagreement(what: string, input: string, ours: Ours, spot: string | null, spotError?: string): string | null {
  const shown = JSON.stringify(input);
  if (spot === null) {
    if (!ours.ok) return null;
    return `${what} ${shown}: Spot rejects it (${spotError ?? 'error'}), we read ${printLtl(ours.node)}`;
  }
  if (deliberatelyRefused(input, ours, spot)) return null;
  if (!ours.ok) return `${what} ${shown}: Spot reads ${spot}, we reject it at column ${ours.error.col}: ${ours.error.message}`;
  const mine = spotNormal(ours.node);
  const theirs = spotNormal(readSpotFull(spot));
  if (key(mine) === key(theirs)) return null;
  const word = distinguishingWord(mine, theirs);
  return `${what} ${shown}: we read ${printLtl(ours.node)}, Spot reads ${spot}${word ? `; they differ on ${word}` : ' (no distinguishing lasso found: a structural difference)'}`;
}

/** Every check for one record; returns the problems found. */
function checkRecord(rec: Record_): string[] {
  const problems: string[] = [];
  const ours = readOurs(rec.input);
  const d = disagreement('input', rec.input, ours, rec.spot, rec.error);
  if (d) problems.push(d);
  if (!ours.ok || rec.spot === null) return problems;
  if (rec.printed !== undefined) {
    const printed = printLtl(ours.node);
    if (printed !== rec.printed) {
      problems.push(`printLtl of ${JSON.stringify(rec.input)} is now ${JSON.stringify(printed)}, recorded ${JSON.stringify(rec.printed)}: regenerate the fixture (node scripts/spot-ltl-fixtures.mjs) so Spot checks the new text`);
    } else {
      const spotRead = rec.spotPrinted ?? null;
      const p = disagreement(`printLtl output for ${JSON.stringify(rec.input)}, i.e.`, printed, { ok: true, node: ours.node }, spotRead);
      if (p) problems.push(p);
      const back = readOurs(printed);
      if (!back.ok || key(spotNormal(back.node)) !== key(spotNormal(ours.node))) {
        problems.push(`we do not read printLtl's ${JSON.stringify(printed)} back as ${JSON.stringify(rec.input)}`);
      }
    }
  }
  if (rec.toSpot !== undefined) {
    const f = fromSyntax(ours.node);
    const text = toSpot(f);
    if (text !== rec.toSpot) {
      problems.push(`toSpot of ${JSON.stringify(rec.input)} is now ${JSON.stringify(text)}, recorded ${JSON.stringify(rec.toSpot)}: regenerate the fixture`);
    } else {
      const t = disagreement(`toSpot output for ${JSON.stringify(rec.input)}, i.e.`, text, { ok: true, node: toSyntax(f) }, rec.spotToSpot ?? null);
      if (t) problems.push(t);
    }
  }
  return problems;
}

function report(problems: readonly string[], total: number): string {
  return `${problems.length} disagreement(s) with Spot out of ${total} inputs; first ones:\n${problems.slice(0, 12).join('\n')}`;
}

function loadFixture(): Fixture {
  // A missing fixture fails the count test below instead of the whole file.
  if (!existsSync(FIXTURE)) return { tool: 'none', seed: 0, records: [] };
  return JSON.parse(readFileSync(FIXTURE, 'utf8')) as Fixture;
}

describe('Spot-syntax LTL against recorded ltlfilt output', () => {
  const fixture = loadFixture();
  const families = [...new Set(fixture.records.map((r) => r.family.replace(/-(one|none|mixed)$/, '')))];

  it('has at least 2,000 recorded inputs from Spot 2.12.1, accepted and rejected ones', () => {
    expect(fixture.tool).toBe('ltlfilt (spot) 2.12.1');
    expect(fixture.records.length).toBeGreaterThanOrEqual(2000);
    const accepted = fixture.records.filter((r) => r.spot !== null).length;
    expect(accepted).toBeGreaterThan(1500);
    expect(fixture.records.length - accepted).toBeGreaterThan(300);
  });

  for (const family of families) {
    const records = fixture.records.filter((r) => r.family.replace(/-(one|none|mixed)$/, '') === family);
    it(`reads, prints and rejects like Spot: ${family} (${records.length} inputs)`, () => {
      const problems = records.flatMap(checkRecord);
      expect(problems, report(problems, records.length)).toEqual([]);
    });
  }

  it('refuses on purpose only PSL/SERE and strong next, which Spot reads', () => {
    const refused = fixture.records.filter((r) => r.spot !== null && !readOurs(r.input).ok);
    expect(refused.every((r) => deliberatelyRefused(r.input, readOurs(r.input), r.spot))).toBe(true);
    expect(refused.map((r) => r.input).sort()).toEqual(['F[1..2!]a', 'X[!]a', '{a;b}[]->c', '{a}', 'Ⓧa']);
  });

  it('covers every printer record (none skipped for lack of a Spot reading)', () => {
    const missing = fixture.records.filter((r) => r.spot !== null && readOurs(r.input).ok && (r.printed === undefined || r.toSpot === undefined));
    expect(missing.map((r) => r.input)).toEqual([]);
  });
});

/** Build the records for `inputs` with Spot (used for the fixture and the live test). */
function recordWithSpot(inputs: readonly Input[]): Record_[] {
  const first = readWithSpot(inputs.map((i) => i.input));
  const printedOf = new Map<number, { printed: string; toSpot: string }>();
  inputs.forEach((inp, k) => {
    const ours = readOurs(inp.input);
    if (ours.ok && first[k].spot !== null) printedOf.set(k, { printed: printLtl(ours.node), toSpot: toSpot(fromSyntax(ours.node)) });
  });
  const ks = [...printedOf.keys()];
  const second = readWithSpot(ks.flatMap((k) => [printedOf.get(k)!.printed, printedOf.get(k)!.toSpot]));
  const spotOf = (r: SpotReading) => r.spot;
  return inputs.map((inp, k) => {
    const s = first[k];
    const base: Record_ = s.spot === null ? { family: inp.family, input: inp.input, spot: null, error: s.error } : { family: inp.family, input: inp.input, spot: s.spot };
    const p = printedOf.get(k);
    if (!p) return base;
    const at = ks.indexOf(k);
    return { ...base, printed: p.printed, spotPrinted: spotOf(second[2 * at]), toSpot: p.toSpot, spotToSpot: spotOf(second[2 * at + 1]) };
  });
}

function randltlInputs(): Input[] {
  const out: Input[] = [];
  const styles: [string, string[]][] = [
    ['spot', []],
    ['spin', ['--spin']],
    ['utf8', ['--utf8']],
    ['wring', ['--wring']],
  ];
  styles.forEach(([name, flags], k) => {
    const r = spawnSync('randltl', [...flags, `--seed=${SEED + k}`, '-n', '110', '--tree-size=5..30', 'a', 'b', 'c', 'p.q', '_d'], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`randltl failed: ${r.stderr}`);
    for (const line of r.stdout.split('\n')) if (line !== '') out.push({ family: `randltl-${name}`, input: line });
  });
  return out;
}

const version = ltlfiltVersion();
describe.skipIf(version === null)('Spot-syntax LTL against a live ltlfilt', () => {
  it('agrees on fresh random inputs (another seed)', () => {
    const inputs = generatedInputs(SEED + 1, 60);
    const problems = recordWithSpot(inputs).flatMap(checkRecord);
    expect(problems, report(problems, inputs.length)).toEqual([]);
  }, 600_000);

  // Not a check: `SPOT_LTL_FIXTURES=write` (scripts/spot-ltl-fixtures.mjs) rewrites the fixture.
  it.runIf(process.env.SPOT_LTL_FIXTURES === 'write')('rewrites the fixture', () => {
    const inputs: Input[] = [...EDGE_CASES.map((input) => ({ family: 'edge', input })), ...generatedInputs(SEED, PER_FAMILY), ...randltlInputs()];
    const fixture: Fixture = { tool: version!, seed: SEED, records: recordWithSpot(inputs) };
    writeFileSync(FIXTURE, `${JSON.stringify(fixture, null, 0).replace(/\},\{/g, '},\n{')}\n`);
  }, 3_600_000);
});
