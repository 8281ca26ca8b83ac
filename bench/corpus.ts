/**
 * The corpus benchmark: `tslc check` on every spec of /work/shared/corpus/manifest.tsv (the .tsl
 * when there is one, else the .tlsf), each in its own worker with a hard time limit, compared with
 * the expected status and with ltlsynt (run live when on PATH, else the recorded baseline).
 *
 * Options: --timeout <s> (default 20), --filter <regex> on the spec path, --corpus <dir>,
 * --format tsl|tlsf (which file to prefer, default tlsf: the file ltlsynt's baseline used),
 * --jobs <n> (specs checked in parallel, default 1; keep 1 for timings on a shared machine).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runIsolated } from '../src/synthesis/isolated.js';
import type { BenchSection } from './sections.js';

/** The corpus sits beside the checkout (`../shared/corpus`, as in CI); `--corpus` overrides. */
function defaultCorpusDir(): string {
  const beside = resolve(process.cwd(), '../shared/corpus');
  return existsSync(beside) ? beside : '/work/shared/corpus';
}

function option(args: readonly string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

function ltlsyntLive(): boolean {
  try {
    execFileSync('ltlsynt', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function runLtlsynt(tlsf: string, timeoutS: number): { verdict: string; seconds: number } {
  const started = performance.now();
  let out = '';
  try {
    out = execFileSync('ltlsynt', [`--tlsf=${tlsf}`, '--realizability'], { encoding: 'utf8', timeout: timeoutS * 1000 });
  } catch (err) {
    out = String((err as { stdout?: string }).stdout ?? '');
  }
  const verdict = out.includes('UNREALIZABLE') ? 'unrealizable' : out.includes('REALIZABLE') ? 'realizable' : 'unknown';
  return { verdict, seconds: (performance.now() - started) / 1000 };
}

export const corpusSection: BenchSection = {
  name: 'corpus',
  describe: 'realizability on the SYNTCOMP TSL corpus vs. expected status and ltlsynt',
  async run({ log, args }) {
    const corpus = option(args, 'corpus') ?? defaultCorpusDir();
    const timeout = Number(option(args, 'timeout') ?? 20);
    const filter = new RegExp(option(args, 'filter') ?? '.');
    const prefer = option(args, 'format') ?? 'tlsf';
    const jobs = Math.max(1, Number(option(args, 'jobs') ?? 1));
    if (!existsSync(join(corpus, 'manifest.tsv'))) return `## Corpus\n\nSkipped: ${corpus}/manifest.tsv not found.\n`;
    const rows = readFileSync(join(corpus, 'manifest.tsv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split('\t'));
    const baseline = new Map<string, { verdict: string; seconds: number }>();
    const basePath = join(corpus, 'baselines/ltlsynt.tsv');
    if (existsSync(basePath))
      for (const line of readFileSync(basePath, 'utf8').trim().split('\n').slice(1)) {
        const [spec, , answer, seconds] = line.split('\t');
        const verdict = answer === 'REALIZABLE' ? 'realizable' : answer === 'UNREALIZABLE' ? 'unrealizable' : 'unknown';
        baseline.set(spec.replace(/\.tlsf$/, ''), { verdict, seconds: Number(seconds) });
      }
    const live = ltlsyntLive();
    const table: string[] = [
      '| spec | expected | tslc | s | states | ltlsynt | s | ratio |',
      '| --- | --- | --- | ---: | ---: | --- | ---: | ---: |',
    ];
    let decided = 0;
    let agree = 0;
    let wrong = 0;
    let theirsDecided = 0;
    let bothDecided = 0;
    let oursOnly = 0;
    let oursWhereTheyTimedOut = 0;
    let theirsOnly = 0;
    const selected = rows.filter(([spec]) => filter.test(spec));
    const fileOf = ([spec, hasTsl, hasTlsf]: string[]) => {
      const useTsl = hasTsl === 'tsl' && (prefer === 'tsl' || hasTlsf !== 'tlsf');
      return `${spec}.${useTsl ? 'tsl' : 'tlsf'}`;
    };
    const results: Array<Awaited<ReturnType<typeof runIsolated>>> = new Array(selected.length);
    let nextIndex = 0;
    let finished = 0;
    const worker = async () => {
      while (nextIndex < selected.length) {
        const i = nextIndex++;
        results[i] = await runIsolated({ file: join(corpus, fileOf(selected[i])), timeoutMs: timeout * 1000, synthesize: true });
        const r = results[i];
        if (r.verdict === 'error') log(`  ${selected[i][0]}: error: ${r.message.split('\n')[0]}`);
        log(`[${++finished}/${selected.length}] ${selected[i][0]}: ${r.verdict} (${r.seconds.toFixed(2)} s)`);
      }
    };
    await Promise.all(Array.from({ length: jobs }, worker));
    for (const [i, [spec, , hasTlsf, expected]] of selected.entries()) {
      const shownFile = fileOf(selected[i]);
      const ours = results[i];
      const verdict = ours.verdict === 'error' ? 'error' : ours.verdict;
      const theirs = live && hasTlsf === 'tlsf' ? runLtlsynt(join(corpus, `${spec}.tlsf`), timeout) : baseline.get(spec);
      const isDecided = verdict === 'realizable' || verdict === 'unrealizable';
      if (isDecided) decided++;
      if (isDecided && verdict === expected) agree++;
      if (isDecided && (expected === 'realizable' || expected === 'unrealizable') && verdict !== expected) wrong++;
      const theirsIsDecided = theirs?.verdict === 'realizable' || theirs?.verdict === 'unrealizable';
      if (theirsIsDecided) theirsDecided++;
      if (isDecided && theirsIsDecided) bothDecided++;
      if (isDecided && !theirsIsDecided) oursOnly++;
      if (isDecided && theirs !== undefined && !theirsIsDecided) oursWhereTheyTimedOut++;
      if (!isDecided && theirsIsDecided) theirsOnly++;
      const states = ours.verdict !== 'error' && ours.states !== undefined ? String(ours.states) : '';
      const ratio = theirs && isDecided && theirsIsDecided ? (ours.seconds / Math.max(theirs.seconds, 0.001)).toFixed(1) : '';
      const shown = verdict === 'error' ? `error` : verdict === 'unknown' ? `unknown` : verdict;
      table.push(
        `| ${shownFile} | ${expected} | ${shown}${isDecided && verdict !== expected && expected !== 'unknown' ? ' **WRONG**' : ''} | ${ours.seconds.toFixed(2)} | ${states} | ${theirs?.verdict ?? ''} | ${theirs ? theirs.seconds.toFixed(2) : ''} | ${ratio} |`,
      );
    }
    const source = live ? 'ltlsynt (run live)' : 'ltlsynt 2.12.1 baseline (baselines/ltlsynt.tsv, 20 s limit)';
    const summary = [
      `## Corpus realizability (${selected.length} specs, ${timeout} s limit each)`,
      '',
      `- tslc decided **${decided}** / ${selected.length}; agrees with the expected status on ${agree}; **wrong: ${wrong}**.`,
      `- ${source} decided ${theirsDecided}; both decided ${bothDecided}; only tslc ${oursOnly} (of which ${oursWhereTheyTimedOut} where ltlsynt timed out; the rest have no .tlsf for ltlsynt); only ltlsynt ${theirsOnly}.`,
      `- Ratio = tslc seconds / ltlsynt seconds (both decided). tslc times include worker start and spec loading.`,
      '',
    ];
    return [...summary, ...table, ''].join('\n');
  },
};
