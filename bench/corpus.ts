/**
 * The corpus benchmark: `tslc check` on every spec of the shared corpus's manifest.tsv (the .tlsf
 * when there is one, else the .tsl), compared with the expected status and, side by side in the
 * same run, with ltlsynt (when on PATH; else its recorded baseline, labelled so).
 *
 * Each spec is run like for like and interleaved, as in the SYNTCOMP section (`syntcomp.ts`,
 * `runSideBySide`): `node -e 0`, `tslc check --no-states` (verdict only) and `ltlsynt
 * --realizability`, then `tslc check` as a user runs it (a verified controller) and, with
 * `--states`, ltlsynt printing its controller. One process per spec each, wall time around the
 * spawn, process start included. Then batch mode: one tslc process over every spec it decided.
 *
 * Options: --timeout <s> (default 20), --filter <regex> on the spec path, --corpus <dir>,
 * --format tsl|tlsf (which file to prefer, default tlsf: the file ltlsynt can read),
 * --jobs <n> (specs in parallel, default 1; keep 1 for timings on a shared machine),
 * --states (ltlsynt's controllers too), --recorded (use the recorded baseline, not ltlsynt).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { environmentNote, INHERIT_ENV_OPTION, median, option, shownPath, timedEnvironment, useTimedEnvironment } from './measure.js';
import type { BenchSection } from './sections.js';
import { installed, report, type Row, type Run, runSideBySide } from './syntcomp.js';

/** dist/bench/corpus.js → bin/tslc.js of the same checkout. */
const tslcBin = fileURLToPath(new URL('../../bin/tslc.js', import.meta.url));

/** One spec's answer as `tslc check --json` printed it. */
interface Answer {
  readonly verdict: Run['verdict'];
  /** The solver's own seconds, as printed (spec loading and solving; no process start). */
  readonly seconds: number;
  readonly states?: number;
}

/** Batch mode: `tslc check --json --no-explain` over `files` in one process. */
async function tslcBatch(files: readonly string[], timeoutS: number): Promise<{ answers: Map<string, Answer>; wall: number; message?: string }> {
  const started = performance.now();
  const child = spawn(process.execPath, [tslcBin, 'check', '--json', '--no-explain', '--timeout', String(timeoutS), ...files], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: timedEnvironment(),
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  // tslc holds its own hard limit (timeout + 2 s per spec); this only guards against a hang.
  const guard = setTimeout(() => child.kill('SIGKILL'), (timeoutS + 10) * 1000 * files.length);
  const code = await new Promise<number | null>((done) => child.on('close', (c) => done(c)));
  clearTimeout(guard);
  const wall = (performance.now() - started) / 1000;
  const answers = new Map<string, Answer>();
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    const obj = JSON.parse(line) as { file: string; verdict: Answer['verdict']; seconds?: number; states?: number };
    answers.set(obj.file, { verdict: obj.verdict, seconds: obj.seconds ?? 0, states: obj.states });
  }
  return { answers, wall, message: answers.size < files.length ? `exit ${code}: ${stderr.trim().split('\n')[0] ?? ''}` : undefined };
}

/** The corpus sits beside the checkout (`../shared/corpus`, as in CI); `--corpus` overrides. */
function defaultCorpusDir(): string {
  const beside = resolve(process.cwd(), '../shared/corpus');
  return existsSync(beside) ? beside : '/work/shared/corpus';
}

/** The recorded ltlsynt baseline (`spec, …, answer, seconds` per line), keyed by spec. */
function recordedBaseline(corpus: string): Map<string, Run> {
  const baseline = new Map<string, Run>();
  const path = join(corpus, 'baselines/ltlsynt.tsv');
  if (!existsSync(path)) return baseline;
  for (const line of readFileSync(path, 'utf8').trim().split('\n').slice(1)) {
    const [spec, , answer, seconds] = line.split('\t');
    const verdict: Run['verdict'] = answer === 'REALIZABLE' ? 'realizable' : answer === 'UNREALIZABLE' ? 'unrealizable' : 'unknown';
    baseline.set(spec.replace(/\.tlsf$/, ''), { verdict, wall: Number(seconds) });
  }
  return baseline;
}

export const corpusSection: BenchSection = {
  name: 'corpus',
  describe: 'realizability on the SYNTCOMP TSL corpus vs. expected status and ltlsynt, side by side',
  options: [
    { name: 'timeout', kind: 'number', describe: 'seconds per spec and tool (default 20)' },
    { name: 'corpus', kind: 'string', describe: 'the corpus folder with manifest.tsv (default ../shared/corpus)' },
    { name: 'format', kind: 'string', describe: 'tlsf (default) or tsl: which file of a spec that has both' },
    { name: 'recorded', kind: 'flag', describe: 'use the recorded ltlsynt verdicts even when ltlsynt is installed' },
    { name: 'states', kind: 'flag', describe: 'also time ltlsynt building its controller (and compare controller states)' },
    { name: 'jobs', kind: 'number', describe: 'specs run at once (default 1; more skews the timings)' },
    { name: 'filter', kind: 'string', describe: 'only the specs whose path matches this regular expression' },
    INHERIT_ENV_OPTION,
  ],
  async run({ log, args }) {
    useTimedEnvironment(args);
    const corpus = option(args, 'corpus') ?? defaultCorpusDir();
    const timeout = Number(option(args, 'timeout') ?? 20);
    const filter = new RegExp(option(args, 'filter') ?? '.');
    const prefer = option(args, 'format') ?? 'tlsf';
    const jobs = Math.max(1, Number(option(args, 'jobs') ?? 1));
    if (!existsSync(join(corpus, 'manifest.tsv'))) return `## Corpus\n\nSkipped: ${corpus}/manifest.tsv not found.\n`;
    const manifest = readFileSync(join(corpus, 'manifest.tsv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split('\t'));
    const baseline = recordedBaseline(corpus);
    const live = !args.includes('--recorded') && installed('ltlsynt');
    const fileOf = ([spec, hasTsl, hasTlsf]: string[]) => `${spec}.${hasTsl === 'tsl' && (prefer === 'tsl' || hasTlsf !== 'tlsf') ? 'tsl' : 'tlsf'}`;
    const rows: Row[] = manifest
      .filter(([spec]) => filter.test(spec))
      .map((entry) => {
        const [spec, , , expected] = entry;
        return {
          key: `corpus/${fileOf(entry)}`,
          path: join(corpus, fileOf(entry)),
          status: expected === 'realizable' || expected === 'unrealizable' ? expected : undefined,
          recorded: baseline.get(spec),
        };
      });
    log(`${rows.length} specs from ${corpus}; ltlsynt ${live ? 'live' : 'recorded baseline'}`);
    const { nodeBefore, nodeAfter } = await runSideBySide(rows, { timeout, jobs, withStates: true, live, withControllers: live && args.includes('--states'), log });
    const theirs = (r: Row) => (live ? r.ltlsynt : r.recorded);

    // Batch mode: every spec tslc decided, in one process (so few timeouts slow it down).
    const decidedRows = rows.filter((r) => r.tslc?.verdict === 'realizable' || r.tslc?.verdict === 'unrealizable');
    const extra: string[] = [`- .tsl specs without a .tlsf (ltlsynt reads none): ${rows.filter((r) => r.path.endsWith('.tsl')).length}.`];
    if (decidedRows.length > 0) {
      log(`batch: ${decidedRows.length} specs in one process`);
      const batch = await tslcBatch(
        decidedRows.map((r) => r.path),
        timeout,
      );
      const printed = decidedRows.map((r) => batch.answers.get(r.path)?.seconds).filter((x): x is number => x !== undefined);
      const differ = decidedRows.filter((r) => {
        const b = batch.answers.get(r.path);
        return b === undefined || b.verdict !== r.tslc!.verdict || b.states !== r.tslc!.states;
      });
      extra.push(
        `- **Batch mode**, one \`tslc check --json --no-explain\` process over the ${decidedRows.length} specs tslc decided: ${batch.wall.toFixed(2)} s wall in all, **${(batch.wall / decidedRows.length).toFixed(3)} s per spec** (process start shared); median solver seconds printed per spec ${median(printed).toFixed(3)} s (spec loading and solving, no start-up). Verdict or state count different from the one-process-per-spec run: ${differ.length}${differ.length > 0 ? ` (${differ.map((r) => r.key).join(', ')})` : ''}.${batch.message ? ` Note: ${batch.message}.` : ''}`,
      );
    }
    extra.push(await environmentNote());
    return report(rows, theirs, {
      timeout,
      live,
      recorded: live ? undefined : join(corpus, 'baselines/ltlsynt.tsv'),
      withStates: true,
      nodeBefore,
      nodeAfter,
      nodeFloor: (nodeBefore + nodeAfter) / 2,
      args,
      section: 'corpus',
      heading: `## Corpus realizability (\`corpus\`: ${rows.length} specs, ${timeout} s limit each)`,
      intro: `The SYNTCOMP TSL benchmarks of the shared corpus (${shownPath(corpus)}, manifest.tsv): the .tlsf of each spec when there is one (ltlsynt reads those), else its .tsl.`,
      statusName: 'the expected status (manifest.tsv)',
      extra,
    });
  },
};
