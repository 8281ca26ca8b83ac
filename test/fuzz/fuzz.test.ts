/**
 * The fuzz test (issue 18): seeded random, mutated, deeply nested and huge inputs in every input
 * language — TSL (and `fmt` round trips), TLSF, Spot LTL (`check --ltl`, `explain-ltl`, audit and
 * shield rule files, monitors), audit rule files (text and rules.json) and generated logs (JSONL,
 * CSV), controller snapshots — in-process through the library, and some through the real CLI as
 * child processes under a hard timeout and memory cap. Each must be accepted, refused with a
 * located user error, or given up on at a deadline; an internal error, stack trace, unexpected
 * exit code or hang fails the test with the input and the seed/index that regenerates it.
 *
 * Bounded by input counts, not time: the default sample finishes well within 30 s on two busy
 * cores. Environment:
 *   TSLC_FUZZ_N=20000        about that many inputs instead (the CLI gets 1 in 250 of them)
 *   TSLC_FUZZ_BUDGET_S=1200  stop starting new inputs after so many seconds (large runs)
 *   TSLC_FUZZ_SEED=…         another seed (default 20261122)
 *   TSLC_FUZZ_COUNTS=tsl=100,cli=0   override some languages' counts
 *   TSLC_FUZZ_REPORT=f.json  write the counts and findings (also during a large run)
 *   TSLC_FUZZ_REPLAY=ltl:170 run one input again (language:index, with the seed) and print it
 */
import { writeFileSync } from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { CLI_BUILT } from './cli.js';
import { disposeSeeds, describeFindings, runCampaign, runOne } from './campaign.js';
import { excerpt, type Language, type Tally } from './oracle.js';

const requested = Number(process.env.TSLC_FUZZ_N ?? process.env.TSLC_FUZZ ?? '0');
const budgetS = Number(process.env.TSLC_FUZZ_BUDGET_S ?? '0');
const seed = Number(process.env.TSLC_FUZZ_SEED ?? '20261122');
const big = Number.isFinite(requested) && requested > 0;

/** Shares of a campaign of N inputs; the CLI share is small (a child process costs ~0.5 s). */
function countsFor(n: number): Readonly<Record<Language, number>> {
  return {
    tsl: Math.round(n * 0.3),
    tlsf: Math.round(n * 0.2),
    ltl: Math.round(n * 0.27),
    audit: Math.round(n * 0.13),
    snapshot: Math.round(n * 0.1),
    cli: Math.max(8, Math.round(n / 250)),
  };
}

/** `TSLC_FUZZ_COUNTS=tsl=100,cli=0`: override some languages' counts (e.g. to run only one). */
function overrides(): Partial<Record<Language, number>> {
  const out: Partial<Record<Language, number>> = {};
  for (const part of (process.env.TSLC_FUZZ_COUNTS ?? '').split(',').filter(Boolean)) {
    const [k, v] = part.split('=');
    if (['tsl', 'tlsf', 'ltl', 'audit', 'snapshot', 'cli'].includes(k) && Number.isInteger(Number(v))) out[k as Language] = Number(v);
  }
  return out;
}

const counts = { ...(big ? countsFor(requested) : { tsl: 400, tlsf: 200, ltl: 400, audit: 150, snapshot: 200, cli: 8 }), ...overrides() };
const cli = CLI_BUILT ? counts.cli : 0;

afterAll(disposeSeeds);

function writeReport(tally: Tally): void {
  if (!process.env.TSLC_FUZZ_REPORT) return;
  const rows = (m: Map<string, unknown>) => Object.fromEntries(m);
  writeFileSync(
    process.env.TSLC_FUZZ_REPORT,
    JSON.stringify({ seed, counts, stoppedEarly: tally.stoppedEarly, byLanguage: rows(tally.byLanguage), byGenerator: rows(tally.byGenerator), findings: tally.findings, table: tally.table() }, null, 1),
  );
}

const replay = /^(tsl|tlsf|ltl|audit|snapshot):(\d+)$/.exec(process.env.TSLC_FUZZ_REPLAY ?? '');

it.skipIf(replay !== null)(`fuzz: ${Object.entries(counts).map(([k, v]) => `${v} ${k}`).join(', ')} inputs (seed ${seed}) — no internal error, no hang`, async () => {
  const started = performance.now();
  const tally = await runCampaign({
    seed,
    counts: { ...counts, cli },
    hardMs: big ? 20_000 : 10_000,
    synthShare: 0.1,
    // The sample caps sizes at 20,000 (nesting, chains, tokens) and gives the TLSF front end
    // 0.5 s; a large run generates up to 1,000,000 and gives it 1.5 s.
    ...(big ? {} : { sizeCap: 20_000, frontEndMs: 500 }),
    cli: { timeoutMs: 30_000, heapMb: 512, rssMb: 1500 },
    ...(budgetS > 0 ? { budgetMs: budgetS * 1000 } : {}),
    onProgress: big
      ? (t) => {
          console.log(`fuzz: ${OUTCOMES_TOTAL(t)} inputs after ${Math.round((performance.now() - started) / 1000)} s`);
          writeReport(t);
        }
      : undefined,
  });
  console.log(`fuzz (seed ${seed}, ${Math.round((performance.now() - started) / 100) / 10} s${tally.stoppedEarly ? ', stopped by the time budget' : ''}):\n${tally.table()}`);
  writeReport(tally);
  expect(describeFindings(tally, 10)).toBe('');
  // The generators must reach both sides of every front end: accepted inputs and refused ones.
  for (const language of ['tsl', 'tlsf', 'ltl', 'audit', 'snapshot'] as const) {
    const total = tally.count(language);
    if (!tally.stoppedEarly) expect(total).toBe(counts[language]);
    if (total < 50) continue;
    expect(tally.count(language, 'ok'), `${language} accepted`).toBeGreaterThan(total * 0.1);
    expect(tally.count(language, 'error'), `${language} refused`).toBeGreaterThan(total * 0.1);
  }
  if (cli > 0 && !tally.stoppedEarly) expect(tally.count('cli')).toBe(cli);
}, 7_200_000);

const OUTCOMES_TOTAL = (t: Tally) => (['tsl', 'tlsf', 'ltl', 'audit', 'snapshot', 'cli'] as const).reduce((s, l) => s + t.count(l), 0);

it.runIf(replay !== null)('fuzz replay of one input (TSLC_FUZZ_REPLAY)', async () => {
  const [, language, index] = replay!;
  const t0 = performance.now();
  const { sample, result } = await runOne(language as Exclude<Language, 'cli'>, seed, Number(index), { hardMs: 20_000, synthShare: 0.1, ...(big ? {} : { sizeCap: 20_000, frontEndMs: 500 }) });
  console.log(`${sample.language}.${sample.generator} seed=${seed} index=${index}: ${result.outcome} in ${Math.round(performance.now() - t0)} ms ${result.detail ?? ''}\n--- input ---\n${excerpt(sample.text, 2000)}`);
  expect(['ok', 'error', 'timeout']).toContain(result.outcome);
});
