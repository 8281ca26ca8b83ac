// Verdict conformance (issue 17): tslc never answers the opposite of ltlsynt's recorded verdict
// on a SYNTCOMP `tlsf/` file (or, where ltlsynt decided nothing, of the file's own `//STATUS`);
// `unknown` is allowed. Data: test/fixtures/syntcomp/ltlsynt.tsv (no native tool needed).
//
// CI runs a seeded sample stratified by family (every family is represented), through the real
// CLI in one batch with a short per-spec limit. TSLC_VERDICTS=all runs every file with a recorded
// verdict (about 15–30 minutes); TSLC_VERDICTS_TIMEOUT sets the per-spec limit in seconds.
// The whole collection at 10 s per spec, side by side with ltlsynt, is `npm run bench -- syntcomp`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectedVerdict, ltlsyntRecords, MISLABELLED_STATUS } from '../support/ltlsynt-verdicts.js';
import { syntcompCases, type SyntcompCase } from '../support/syntcomp.js';

const tslc = join(import.meta.dirname, '../../bin/tslc.js');
const cases = syntcompCases();
const records = ltlsyntRecords();
const ALL = process.env.TSLC_VERDICTS === 'all';
const TIMEOUT_S = Number(process.env.TSLC_VERDICTS_TIMEOUT ?? 2);
/** Files per family in the CI sample (families are the first two path components below tlsf/). */
const PER_FAMILY = 2;
const SEED = 20261124;

function family(file: string): string {
  return file.split('/').slice(1, -1).join('/');
}

/** A deterministic pseudo-random order (mulberry32), so the sample is the same on every run. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  let s = seed >>> 0;
  const next = (): number => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** Small files first within a family: the sample should mostly decide within the short limit. */
function sample(withVerdict: readonly SyntcompCase[]): SyntcompCase[] {
  if (ALL) return [...withVerdict];
  const byFamily = new Map<string, SyntcompCase[]>();
  for (const c of shuffled(withVerdict, SEED)) {
    const list = byFamily.get(family(c.file)) ?? [];
    list.push(c);
    byFamily.set(family(c.file), list);
  }
  const picked: SyntcompCase[] = [];
  for (const list of byFamily.values()) {
    const small = list.filter((c) => c.source.length < 20_000);
    picked.push(...(small.length >= PER_FAMILY ? small : list).slice(0, PER_FAMILY));
  }
  return picked.sort((a, b) => a.file.localeCompare(b.file));
}

interface Answer {
  readonly file: string;
  readonly verdict: string;
  readonly errors?: readonly { readonly message: string }[];
}

const tally = { checked: 0, agree: 0, unknown: 0, contradictions: 0, byLtlsynt: 0, byStatus: 0 };
let dir: string | undefined;

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  if (tally.checked > 0) {
    console.log(
      `verdicts vs ltlsynt: ${tally.checked} checked (${tally.byLtlsynt} against ltlsynt, ${tally.byStatus} against //STATUS), ` +
        `${tally.agree} agree, ${tally.unknown} unknown at ${TIMEOUT_S} s, ${tally.contradictions} contradict`,
    );
  }
});

describe.skipIf(cases.length === 0 || records.size === 0)('tslc verdicts against ltlsynt on SYNTCOMP tlsf/', () => {
  it('the fixture has a row for every file, and recorded verdicts only where ltlsynt answered', () => {
    expect(records.size).toBe(cases.length);
    for (const c of cases) {
      const r = records.get(c.file);
      expect(r, c.file).toBeDefined();
      if (r?.verdict) expect([r.at10s, r.at60s]).toContain(r.verdict.toUpperCase());
    }
    // The one //STATUS known to be wrong is overruled by ltlsynt's recorded verdict.
    for (const file of MISLABELLED_STATUS) expect(records.get(file)?.verdict, file).toBe('unrealizable');
  });

  it(`never contradicts a recorded verdict (${ALL ? 'every file' : `${PER_FAMILY} files per family`}, ${TIMEOUT_S} s each)`, () => {
    const withVerdict = cases.filter((c) => expectedVerdict(c, records) !== undefined);
    expect(withVerdict.length).toBeGreaterThan(600);
    const picked = sample(withVerdict);
    dir = mkdtempSync(join(tmpdir(), 'tslc-verdicts-'));
    const paths = picked.map((c) => {
      const path = join(dir!, c.file);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, c.source);
      return path;
    });
    const run = spawnSync(process.execPath, [tslc, 'check', '--json', '--no-explain', '--no-states', '--timeout', String(TIMEOUT_S), ...paths], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      // tslc's own hard limit is the timeout plus a grace period per spec; this only guards a hang.
      timeout: (TIMEOUT_S + 10) * 1000 * paths.length + 60_000,
    });
    const answers = new Map<string, Answer>();
    for (const line of run.stdout.split('\n')) {
      if (!line.startsWith('{')) continue;
      const a = JSON.parse(line) as Answer;
      answers.set(a.file, a);
    }
    const problems: string[] = [];
    picked.forEach((c, i) => {
      const expected = expectedVerdict(c, records)!;
      const a = answers.get(paths[i]);
      tally.checked++;
      if (expected.source === 'ltlsynt') tally.byLtlsynt++;
      else tally.byStatus++;
      if (!a) return void problems.push(`${c.file}: no answer (exit ${run.status}; ${run.stderr.split('\n')[0] ?? ''})`);
      if (a.verdict === 'unknown') return void tally.unknown++;
      if (a.verdict === expected.verdict) return void tally.agree++;
      if (a.verdict === 'error') return void problems.push(`${c.file}: read error: ${a.errors?.[0]?.message ?? '?'}`);
      tally.contradictions++;
      problems.push(`${c.file}: tslc says ${a.verdict}, ${expected.source === 'ltlsynt' ? 'ltlsynt' : 'its //STATUS'} says ${expected.verdict}`);
    });
    expect(problems).toEqual([]);
    // The sample must actually decide things, or this test would pass by saying "unknown".
    expect(tally.agree).toBeGreaterThanOrEqual(Math.ceil(picked.length / 2));
  });
});
