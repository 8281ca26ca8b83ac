/**
 * The corpus benchmark: `tslc check` on every spec of /work/shared/corpus/manifest.tsv (the .tsl
 * when there is one, else the .tlsf), compared with the expected status and with ltlsynt (run live
 * when on PATH, else the recorded baseline).
 *
 * tslc is measured as a user runs it: one process per spec (`bin/tslc.js check --json
 * --no-explain --timeout T <file>`), wall time around the spawn, so process start counts as it
 * does in ltlsynt's times. Then batch mode: one process over every spec tslc decided, reporting
 * wall time per spec and the solver seconds it printed.
 *
 * Options: --timeout <s> (default 20), --filter <regex> on the spec path, --corpus <dir>,
 * --format tsl|tlsf (which file to prefer, default tlsf: the file ltlsynt's baseline used),
 * --jobs <n> (tslc processes in parallel, default 1; keep 1 for timings on a shared machine).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchSection } from './sections.js';

/** dist/bench/corpus.js → bin/tslc.js of the same checkout. */
const tslcBin = fileURLToPath(new URL('../../bin/tslc.js', import.meta.url));

/** One spec's answer as `tslc check --json` printed it. */
interface Answer {
  readonly verdict: 'realizable' | 'unrealizable' | 'unknown' | 'error';
  /** The solver's own seconds, as printed (spec loading and solving; no process start). */
  readonly seconds: number;
  readonly states?: number;
  readonly message?: string;
}

/**
 * Runs `tslc check --json --no-explain` on `files` in a process of its own; with `verdictOnly`
 * also `--no-states` (no controller is built, as `ltlsynt --realizability` builds none).
 */
async function tslcCheck(
  files: readonly string[],
  timeoutS: number,
  verdictOnly = false,
): Promise<{ answers: Map<string, Answer>; wall: number; message?: string }> {
  const started = performance.now();
  const flags = ['check', '--json', '--no-explain', ...(verdictOnly ? ['--no-states'] : []), '--timeout', String(timeoutS)];
  const child = spawn(process.execPath, [tslcBin, ...flags, ...files], {
    stdio: ['ignore', 'pipe', 'pipe'],
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
    const obj = JSON.parse(line) as { file: string; verdict: Answer['verdict']; seconds?: number; states?: number; errors?: Array<{ message: string }> };
    answers.set(obj.file, { verdict: obj.verdict, seconds: obj.seconds ?? 0, states: obj.states, message: obj.errors?.[0]?.message });
  }
  return { answers, wall, message: answers.size < files.length ? `exit ${code}: ${stderr.trim().split('\n')[0] ?? ''}` : undefined };
}

/** Median wall seconds of `node -e 0`, spawned with piped output like a tslc run. */
async function nodeStartup(runs = 15): Promise<number> {
  const walls: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const child = spawn(process.execPath, ['-e', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.resume();
    child.stderr.resume();
    await new Promise((done) => child.on('close', done));
    walls.push((performance.now() - started) / 1000);
  }
  return median(walls);
}

/** Runs `task(i)` for i = 0 … count−1, at most `jobs` at a time, each i once. */
async function forEachWithJobs(count: number, jobs: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: jobs }, worker));
}

function median(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

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
      '| spec | expected | tslc | wall s (own process) | solver s (printed) | states | wall s (--no-states) | ltlsynt | s (process) | ratio (--no-states wall / ltlsynt) |',
      '| --- | --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: |',
    ];
    const theirsBySpec = new Map<string, number>();
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
    const results: Array<Answer & { wall: number }> = new Array(selected.length);
    let finished = 0;
    const checkOne = async (i: number) => {
      const file = join(corpus, fileOf(selected[i]));
      const { answers, wall, message } = await tslcCheck([file], timeout);
      results[i] = { ...(answers.get(file) ?? { verdict: 'error', seconds: wall, message }), wall };
      const r = results[i];
      if (r.verdict === 'error') log(`  ${selected[i][0]}: error: ${r.message ?? ''}`);
      log(`[${++finished}/${selected.length}] ${selected[i][0]}: ${r.verdict} (${r.wall.toFixed(2)} s wall)`);
    };
    // Node's own start-up on this machine, before and after (machines and their load vary; the
    // ltlsynt baseline was recorded elsewhere), measured as tslc is: a spawned process, piped.
    const nodeBefore = await nodeStartup();
    await forEachWithJobs(selected.length, jobs, checkOne);
    // The recorded ltlsynt baseline answers realizability only (`--realizability`: no controller),
    // so the like-for-like time is tslc's verdict-only run: a second process per decided spec.
    const verdictOnlyWall: Array<number | undefined> = new Array(selected.length);
    const checkVerdictOnly = async (i: number) => {
      if (results[i].verdict !== 'realizable' && results[i].verdict !== 'unrealizable') return;
      const file = join(corpus, fileOf(selected[i]));
      const { answers, wall } = await tslcCheck([file], timeout, true);
      // A verdict-only run that disagrees would be a bug; it is counted below, not hidden.
      verdictOnlyWall[i] = answers.get(file)?.verdict === results[i].verdict ? wall : undefined;
      if (verdictOnlyWall[i] === undefined) log(`  ${selected[i][0]}: the --no-states run answered ${answers.get(file)?.verdict ?? 'nothing'}`);
    };
    log('verdict-only runs (--no-states) of the decided specs');
    await forEachWithJobs(selected.length, jobs, checkVerdictOnly);
    const nodeAfter = await nodeStartup();
    const oursWall: number[] = [];
    const oursVerdictOnlyWall: number[] = [];
    const theirsWall: number[] = [];
    const ratios: number[] = [];
    const ratiosWithController: number[] = [];
    let verdictOnlyMismatch = 0;
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
      const states = ours.states !== undefined ? String(ours.states) : '';
      let ratio: number | undefined;
      const verdictOnly = verdictOnlyWall[i];
      if (isDecided && verdictOnly === undefined) verdictOnlyMismatch++;
      if (theirs !== undefined && isDecided && theirsIsDecided && verdictOnly !== undefined) {
        ratio = verdictOnly / Math.max(theirs.seconds, 0.001);
        oursWall.push(ours.wall);
        oursVerdictOnlyWall.push(verdictOnly);
        theirsWall.push(theirs.seconds);
        ratios.push(ratio);
        ratiosWithController.push(ours.wall / Math.max(theirs.seconds, 0.001));
        theirsBySpec.set(spec, theirs.seconds);
      }
      const shown = verdict === 'error' ? `error` : verdict === 'unknown' ? `unknown` : verdict;
      table.push(
        `| ${shownFile} | ${expected} | ${shown}${isDecided && verdict !== expected && expected !== 'unknown' ? ' **WRONG**' : ''} | ${ours.wall.toFixed(2)} | ${ours.seconds.toFixed(2)} | ${states} | ${verdictOnly !== undefined ? verdictOnly.toFixed(2) : ''} | ${theirs?.verdict ?? ''} | ${theirs ? theirs.seconds.toFixed(2) : ''} | ${ratio !== undefined ? ratio.toFixed(1) : ''} |`,
      );
    }
    // Batch mode: every spec tslc decided, in one process (so few timeouts slow it down).
    const decidedFiles = selected
      .map((row, i) => ({ spec: row[0], file: join(corpus, fileOf(row)), single: results[i] }))
      .filter(({ single }) => single.verdict === 'realizable' || single.verdict === 'unrealizable');
    const batchLines: string[] = [];
    if (decidedFiles.length > 0) {
      log(`batch: ${decidedFiles.length} specs in one process`);
      const batch = await tslcCheck(decidedFiles.map((d) => d.file), timeout);
      const printed = decidedFiles.map((d) => batch.answers.get(d.file)?.seconds).filter((x): x is number => x !== undefined);
      const differ = decidedFiles.filter((d) => {
        const b = batch.answers.get(d.file);
        return b === undefined || b.verdict !== d.single.verdict || b.states !== d.single.states;
      });
      const theirsOnBatch = decidedFiles.map((d) => theirsBySpec.get(d.spec)).filter((x): x is number => x !== undefined);
      batchLines.push(
        `- **Batch mode**, one \`tslc check --json --no-explain\` process over the ${decidedFiles.length} specs tslc decided: ${batch.wall.toFixed(2)} s wall in all, **${(batch.wall / decidedFiles.length).toFixed(3)} s per spec** (process start shared); median solver seconds printed per spec ${median(printed).toFixed(3)} s (spec loading and solving, no start-up); ltlsynt's median on the ${theirsOnBatch.length} of them it decided: ${median(theirsOnBatch).toFixed(3)} s (one process each). Verdict or state count different from the one-process-per-spec run: ${differ.length}${differ.length > 0 ? ` (${differ.map((d) => d.spec).join(', ')})` : ''}.${batch.message ? ` Note: ${batch.message}.` : ''}`,
      );
    }
    const source = live ? 'ltlsynt (run live)' : 'ltlsynt 2.12.1 baseline (baselines/ltlsynt.tsv, 20 s limit)';
    const summary = [
      `## Corpus realizability (${selected.length} specs, ${timeout} s limit each)`,
      '',
      `- tslc decided **${decided}** / ${selected.length}; agrees with the expected status on ${agree}; **wrong: ${wrong}**.`,
      `- ${source} decided ${theirsDecided}; both decided ${bothDecided}; only tslc ${oursOnly} (of which ${oursWhereTheyTimedOut} where ltlsynt timed out; the rest have no .tlsf for ltlsynt); only ltlsynt ${theirsOnly}.`,
      `- Median wall time per spec, both decided (${oursWall.length} specs), realizability only as ltlsynt's baseline (\`tslc check --no-states\` against \`ltlsynt --realizability\`): tslc **${median(oursVerdictOnlyWall).toFixed(3)} s**, ltlsynt ${median(theirsWall).toFixed(3)} s; median per-spec ratio **${median(ratios).toFixed(2)}**. With a controller built, minimized and model-checked (plain \`tslc check\`, which reports its states): tslc ${median(oursWall).toFixed(3)} s, median per-spec ratio ${median(ratiosWithController).toFixed(2)}. Verdict-only runs that answered differently: ${verdictOnlyMismatch}. For scale: \`node -e 0\` alone took ${(nodeBefore * 1000).toFixed(0)} ms before the run and ${(nodeAfter * 1000).toFixed(0)} ms after it (median of 15 spawns each).`,
      ...batchLines,
      `- Columns: *wall s* = one \`node bin/tslc.js check --json --no-explain --timeout ${timeout} <file>\` process, measured around the spawn (Node start, CLI start, spec loading, solving, exit; a spec that needs more than 0.5 s also moves to a worker thread); *solver s* = the seconds tslc printed (spec loading and solving); *wall s (--no-states)* = the same with \`--no-states\` (verdict only, no controller), run for the decided specs; ltlsynt *s* = its whole process (${live ? 'measured here' : 'recorded baseline'}); *ratio* = tslc's --no-states wall / ltlsynt s (both answer realizability only).`,
      '',
    ];
    return [...summary, ...table, ''].join('\n');
  },
};
