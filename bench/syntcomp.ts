/**
 * The SYNTCOMP benchmark (`npm run bench -- syntcomp`): tslc and ltlsynt side by side on the
 * LTL track's `tlsf/` files, one process per spec each, interleaved spec by spec (tslc, then
 * ltlsynt, then the next spec) so that drift in the machine's load hits both alike.
 *
 * Each spec is run like for like, in this order: `node -e 0` (Node's own start, the floor for
 * the quickest specs), tslc for the verdict only (`bin/tslc.js check --json --no-explain
 * --no-states --timeout T <file>`) and `ltlsynt --tlsf <file> --realizability`; then tslc as a
 * user runs it (the same without `--no-states`: it builds, minimizes and model-checks a
 * controller and reports its states) and, with `--states` on a spec ltlsynt found realizable,
 * `ltlsynt --tlsf <file>`, which prints its controller. Ratios are reported per pair.
 * Where ltlsynt is not installed (or with `--recorded`), its recorded verdicts and seconds are used
 * (`test/fixtures/syntcomp/ltlsynt.tsv`, or `--ltlsynt-tsv <file>`: file, verdict, seconds).
 *
 * Options: --timeout <s> (default 10), --dir <folder of .tlsf files> (default: the committed
 * fixture, test/fixtures/syntcomp/), --filter <regex> on the file's path, --sample <n> with
 * --seed <s> (a seeded random subset), --jobs <n> (specs in parallel, default 1: keep 1 for
 * timings on a shared machine), --states, --recorded, --no-states (tslc verdict only).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync } from 'node:zlib';
import { environmentNote, forEachWithJobs, INHERIT_ENV_OPTION, median, nodeStartup, option, runTimed, seededRandom, shownCommand, shownPath, type Timed, useTimedEnvironment } from './measure.js';
import type { BenchSection } from './sections.js';

/** dist/bench/syntcomp.js → the checkout's root. */
const root = fileURLToPath(new URL('../../', import.meta.url));
const tslcBin = join(root, 'bin/tslc.js');
const fixtureDir = join(root, 'test/fixtures/syntcomp');

export type Verdict = 'realizable' | 'unrealizable' | 'unknown' | 'error';

export interface Run {
  readonly verdict: Verdict;
  readonly wall: number;
  readonly cpu?: number;
  readonly states?: number;
  readonly note?: string;
}

export interface Row {
  /** `tlsf/<family>/…/name.tlsf`, as in the recorded verdicts. */
  readonly key: string;
  readonly path: string;
  readonly status?: 'realizable' | 'unrealizable';
  /** tslc as a user runs it: with a controller unless `--no-states`. */
  tslc?: Run;
  /** tslc with `--no-states` (the same run as `tslc` under `--no-states`). */
  tslcVerdict?: Run;
  /** `ltlsynt --realizability`. */
  ltlsynt?: Run;
  /** `ltlsynt` building its controller (with `--states`, where it found the spec realizable). */
  ltlsyntController?: Run;
  /** Wall seconds of `node -e 0` spawned right before this spec's runs. */
  node?: number;
  recorded?: Run;
  /**
   * Where tslc and ltlsynt contradict each other: ltlsynt's second opinion (`secondOpinion`),
   * from runs without its decomposition and with its own strategy check.
   */
  secondOpinion?: SecondOpinion;
}

/**
 * ltlsynt asked again, where it and tslc disagree, in the ways that avoided its known bugs on the
 * generated specs (docs/conformance.md): `--verify --decompose=no` (its default decomposition is
 * unsound where an assumption mentions an output) and `--verify --decompose=no --algo=ds` (its
 * default algorithm once gave a strategy that `--verify` refuses).
 */
export interface SecondOpinion {
  /** First output lines: REALIZABLE, UNREALIZABLE, REFUTED (its strategy failed `--verify`), TIMEOUT or ERROR. */
  readonly undecomposed: string;
  readonly ds: string;
  /** REALIZABLE if either found a strategy that passed `--verify`, else UNREALIZABLE if either says so. */
  readonly verdict?: 'realizable' | 'unrealizable';
}

export function secondOpinionVerdict(undecomposed: string, ds: string): SecondOpinion['verdict'] {
  if (undecomposed === 'REALIZABLE' || ds === 'REALIZABLE') return 'realizable';
  if (undecomposed === 'UNREALIZABLE' || ds === 'UNREALIZABLE') return 'unrealizable';
  return undefined;
}

const decided = (r: Run | undefined): r is Run & { verdict: 'realizable' | 'unrealizable' } =>
  r?.verdict === 'realizable' || r?.verdict === 'unrealizable';

/** Every `.tlsf` file below `dir`, sorted. */
function tlsfFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.tlsf')) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/**
 * The folder to read: `--dir`, else the fixture (its `.tlsf` files, or its packed sources
 * unpacked into a temporary folder). Keys are `tlsf/…` paths as in SYNTCOMP's repository.
 */
function sources(args: readonly string[]): { dir: string; keyOf: (path: string) => string } | undefined {
  const given = option(args, 'dir');
  if (given !== undefined) {
    const dir = resolve(given);
    return { dir, keyOf: (p) => `${basename(dir)}/${relative(dir, p)}` };
  }
  if (existsSync(join(fixtureDir, 'tlsf'))) return { dir: join(fixtureDir, 'tlsf'), keyOf: (p) => `tlsf/${relative(join(fixtureDir, 'tlsf'), p)}` };
  const files = packedSources();
  if (!files) return undefined;
  const tmp = mkdtempSync(join(tmpdir(), 'tslc-syntcomp-'));
  for (const [key, text] of Object.entries(files)) {
    const path = join(tmp, key);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
  return { dir: join(tmp, 'tlsf'), keyOf: (p) => relative(tmp, p) };
}

/** The committed fixture's packed SYNTCOMP sources (`tlsf/…` key → text), if it has them. */
export function packedSources(): Record<string, string> | undefined {
  const packed = join(fixtureDir, 'tlsf-sources.json.br');
  if (!existsSync(packed)) return undefined;
  return JSON.parse(brotliDecompressSync(readFileSync(packed)).toString('utf8')) as Record<string, string>;
}

function recordedVerdicts(args: readonly string[]): { source: string; byKey: Map<string, Run> } | undefined {
  const path = option(args, 'ltlsynt-tsv') ?? join(fixtureDir, 'ltlsynt.tsv');
  if (!existsSync(path)) return undefined;
  return { source: path, byKey: parseRecorded(readFileSync(path, 'utf8')) };
}

/**
 * The recorded ltlsynt verdicts (`file, verdict, seconds, …` tab-separated; comment and header
 * lines skipped): REALIZABLE / UNREALIZABLE decide, ERROR is a read error, anything else
 * (TIMEOUT) is unknown.
 */
export function parseRecorded(text: string): Map<string, Run> {
  const byKey = new Map<string, Run>();
  for (const line of text.split('\n')) {
    const [file, answer, seconds] = line.split('\t');
    if (!file?.endsWith('.tlsf')) continue;
    const verdict: Verdict = answer === 'REALIZABLE' ? 'realizable' : answer === 'UNREALIZABLE' ? 'unrealizable' : answer === 'ERROR' ? 'error' : 'unknown';
    byKey.set(file, { verdict, wall: Number(seconds) });
  }
  return byKey;
}

export function installed(tool: string): boolean {
  try {
    execFileSync(tool, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export async function runTslc(path: string, timeoutS: number, withStates: boolean): Promise<Run> {
  const flags = ['check', '--json', '--no-explain', ...(withStates ? [] : ['--no-states']), '--timeout', String(timeoutS)];
  // tslc holds its own hard limit (timeout + 2 s); the guard only catches a hang.
  const t = await runTimed(process.execPath, [tslcBin, ...flags, path], timeoutS + 10);
  const line = t.stdout.split('\n').find((l) => l.startsWith('{'));
  if (!line) return { verdict: 'error', wall: t.wall, cpu: t.cpu, note: firstLine(t) };
  const obj = JSON.parse(line) as { verdict: Verdict; states?: number; reason?: string; errors?: Array<{ message: string }> };
  return { verdict: obj.verdict, wall: t.wall, cpu: t.cpu, states: obj.states, note: obj.errors?.[0]?.message ?? obj.reason };
}

export async function runLtlsynt(path: string, timeoutS: number, controller: boolean): Promise<Run> {
  const t = await runTimed('ltlsynt', [`--tlsf=${path}`, ...(controller ? [] : ['--realizability'])], timeoutS);
  if (t.killed) return { verdict: 'unknown', wall: t.wall, note: 'timeout' };
  const first = t.stdout.split('\n')[0]?.trim();
  const verdict: Verdict = first === 'REALIZABLE' ? 'realizable' : first === 'UNREALIZABLE' ? 'unrealizable' : t.code === 2 ? 'error' : 'unknown';
  const states = /^States: (\d+)$/m.exec(t.stdout);
  return { verdict, wall: t.wall, cpu: t.cpu, states: states ? Number(states[1]) : undefined, note: verdict === 'error' || verdict === 'unknown' ? firstLine(t) : undefined };
}

/** ltlsynt's second opinion on one file (see `SecondOpinion`). */
export async function secondOpinion(path: string, timeoutS: number): Promise<SecondOpinion> {
  const ask = async (extra: readonly string[]): Promise<string> => {
    const t = await runTimed('ltlsynt', [`--tlsf=${path}`, '--verify', '--decompose=no', ...extra], timeoutS);
    if (t.killed) return 'TIMEOUT';
    if (/not OK/.test(t.stderr)) return 'REFUTED';
    const first = t.stdout.split('\n')[0]?.trim() ?? '';
    return first === 'REALIZABLE' || first === 'UNREALIZABLE' ? first : 'ERROR';
  };
  const undecomposed = await ask([]);
  const ds = await ask(['--algo=ds']);
  const verdict = secondOpinionVerdict(undecomposed, ds);
  return { undecomposed, ds, ...(verdict ? { verdict } : {}) };
}

const firstLine = (t: Timed) => (t.stderr.trim().split('\n')[0] ?? '').slice(0, 200) || `exit ${t.code}`;

function statusOf(path: string): Row['status'] {
  const m = /^\/\/\s*STATUS\s*:\s*(\w+)/m.exec(readFileSync(path, 'utf8'));
  return m?.[1] === 'realizable' || m?.[1] === 'unrealizable' ? m[1] : undefined;
}

const fmt = (x: number | undefined, digits = 2) => (x === undefined || !Number.isFinite(x) ? '' : x.toFixed(digits));
const opposite = (a: Run | undefined, b: Run | undefined) => decided(a) && decided(b) && a.verdict !== b.verdict;

export const syntcompSection: BenchSection = {
  name: 'syntcomp',
  describe: 'tslc vs ltlsynt on the SYNTCOMP LTL track (tlsf/), one process per spec, interleaved',
  options: [
    { name: 'timeout', kind: 'number', describe: 'seconds per spec and tool (default 10)' },
    { name: 'dir', kind: 'string', describe: 'the SYNTCOMP tlsf/ folder (default: the committed fixture)' },
    { name: 'ltlsynt-tsv', kind: 'string', describe: 'recorded ltlsynt verdicts to use when it is not installed' },
    { name: 'sample', kind: 'number', describe: 'a seeded sample of this many files' },
    { name: 'seed', kind: 'number', describe: 'seed for --sample (default 1)' },
    { name: 'no-states', kind: 'flag', describe: 'tslc verdict runs only (no controller runs)' },
    { name: 'recorded', kind: 'flag', describe: 'use the recorded ltlsynt verdicts even when ltlsynt is installed' },
    { name: 'states', kind: 'flag', describe: 'also time ltlsynt building its controller (and compare controller states)' },
    { name: 'jobs', kind: 'number', describe: 'specs run at once (default 1; more skews the timings)' },
    { name: 'filter', kind: 'string', describe: 'only the specs whose path matches this regular expression' },
    INHERIT_ENV_OPTION,
  ],
  async run({ log, args }) {
    useTimedEnvironment(args);
    const timeout = Number(option(args, 'timeout') ?? 10);
    const filter = new RegExp(option(args, 'filter') ?? '.');
    const jobs = Math.max(1, Number(option(args, 'jobs') ?? 1));
    const withStates = !args.includes('--no-states');
    const src = sources(args);
    if (!src) return '## SYNTCOMP (`syntcomp`)\n\nSkipped: no SYNTCOMP files (give `--dir <tlsf folder>`).\n';
    const recorded = recordedVerdicts(args);
    const live = !args.includes('--recorded') && installed('ltlsynt');
    let rows: Row[] = tlsfFiles(src.dir)
      .map((path) => ({ key: src.keyOf(path), path }))
      .filter((r) => filter.test(r.key))
      .map((r) => ({ ...r, status: statusOf(r.path), recorded: recorded?.byKey.get(r.key) }));
    const sample = option(args, 'sample');
    if (sample !== undefined) rows = sampleOf(rows, Number(sample), Number(option(args, 'seed') ?? 1));
    log(`${rows.length} files from ${src.dir}; ltlsynt ${live ? 'live' : recorded ? `recorded (${recorded.source})` : 'absent'}`);
    const { nodeBefore, nodeAfter } = await runSideBySide(rows, { timeout, jobs, withStates, live, withControllers: live && args.includes('--states'), log });
    const theirs = (r: Row) => (live ? r.ltlsynt : r.recorded);
    const nodeFloor = (nodeBefore + nodeAfter) / 2;
    const extra = [await environmentNote()];
    return report(rows, theirs, { timeout, live, recorded: recorded?.source, withStates, nodeBefore, nodeAfter, nodeFloor, args, extra });
  },
};

export interface SideBySideOptions {
  readonly timeout: number;
  /** Specs in parallel (keep 1 for timings on a shared machine). */
  readonly jobs: number;
  /** Also run tslc as a user runs it (building a controller), after its verdict-only run. */
  readonly withStates: boolean;
  /** Run ltlsynt (on `.tlsf` files only: it reads no TSL). */
  readonly live: boolean;
  /** Also run ltlsynt building its controller where it found the spec realizable. */
  readonly withControllers: boolean;
  readonly log: (msg: string) => void;
}

/**
 * Runs every row's processes, spec by spec, in a fixed order so that drift in the machine's load
 * hits both tools alike: `node -e 0`, tslc `--no-states`, `ltlsynt --realizability`, tslc with a
 * controller, ltlsynt with a controller. Returns `node -e 0` before and after the whole run.
 */
export async function runSideBySide(rows: Row[], o: SideBySideOptions): Promise<{ nodeBefore: number; nodeAfter: number }> {
  const nodeBefore = await nodeStartup();
  let finished = 0;
  await forEachWithJobs(rows.length, o.jobs, async (i) => {
    const row = rows[i];
    const theirsToo = o.live && row.path.endsWith('.tlsf');
    row.node = (await runTimed(process.execPath, ['-e', '0'], 30, { cpu: false })).wall;
    row.tslcVerdict = await runTslc(row.path, o.timeout, false);
    if (theirsToo) row.ltlsynt = await runLtlsynt(row.path, o.timeout, false);
    row.tslc = o.withStates ? await runTslc(row.path, o.timeout, true) : row.tslcVerdict;
    if (theirsToo && o.withControllers && row.ltlsynt?.verdict === 'realizable') row.ltlsyntController = await runLtlsynt(row.path, o.timeout, true);
    o.log(
      `[${++finished}/${rows.length}] ${row.key}: tslc ${row.tslcVerdict.verdict} ${fmt(row.tslcVerdict.wall)} s` +
        (o.withStates ? ` (with a controller ${row.tslc.verdict} ${fmt(row.tslc.wall)} s)` : '') +
        (row.ltlsynt ? `, ltlsynt ${row.ltlsynt.verdict} ${fmt(row.ltlsynt.wall)} s` : '') +
        (row.ltlsyntController ? ` (with a controller ${fmt(row.ltlsyntController.wall)} s)` : ''),
    );
  });
  // A contradiction may be ltlsynt's bug: ask it again, the ways that avoid its known ones.
  for (const row of rows)
    if (o.live && row.path.endsWith('.tlsf') && [row.tslc, row.tslcVerdict].some((t) => opposite(t, row.ltlsynt))) {
      row.secondOpinion = await secondOpinion(row.path, o.timeout);
      o.log(`${row.key}: tslc and ltlsynt disagree; ltlsynt --verify --decompose=no: ${row.secondOpinion.undecomposed}, with --algo=ds: ${row.secondOpinion.ds}`);
    }
  return { nodeBefore, nodeAfter: await nodeStartup() };
}

/** A seeded random subset of `n` rows (all when n ≥ their count), in key order. */
export function sampleOf<T extends { readonly key: string }>(rows: readonly T[], n: number, seed: number): T[] {
  if (!(n < rows.length)) return [...rows];
  const random = seededRandom(seed);
  const shuffled = rows.map((r) => ({ r, k: random() })).sort((a, b) => a.k - b.k);
  return shuffled
    .slice(0, Math.max(0, n))
    .map((x) => x.r)
    .sort((a, b) => (a.key < b.key ? -1 : 1));
}

/** The medians of one like-for-like pairing (e.g. verdict only against verdict only). */
export interface Pairing {
  readonly label: string;
  /** Specs both runs of the pair decide. */
  readonly both: readonly Row[];
  /** Of those, where either run needed ≥ 0.3 s. */
  readonly slow: readonly Row[];
  /**
   * Of those, where ltlsynt needed ≥ 0.05 s: below that Node's own start is the floor, which the
   * report compares with `node -e 0` instead.
   */
  readonly aboveFloor: readonly Row[];
  readonly medianRatioAboveFloor: number;
  readonly mine: (r: Row) => Run;
  readonly theirs: (r: Row) => Run;
  /** Median of the per-spec wall ratios mine / theirs (NaN when none). */
  readonly medianRatio: number;
  readonly medianRatioSlow: number;
}

/** The counts and medians of the report (tslc against `theirs`, ltlsynt live or recorded). */
export interface Summary {
  readonly both: readonly Row[];
  readonly onlyTslc: readonly Row[];
  readonly onlyTheirs: readonly Row[];
  /** Opposite verdicts (the defect the bench exists to catch), between any two runs of a spec. */
  readonly contradictions: readonly Row[];
  readonly contradictionsRecorded: readonly Row[];
  readonly contradictionsStatus: readonly Row[];
  /** Specs both decide where either needed ≥ 0.3 s. */
  readonly slow: readonly Row[];
  /** Median of the per-spec wall ratios tslc (as a user runs it) / theirs (NaN when none). */
  readonly medianRatio: number;
  readonly medianRatioSlow: number;
  /** Like for like: verdict only, and (where measured) both building a controller. */
  readonly pairings: readonly Pairing[];
}

/** Per-spec wall ratio; a time under 1 ms counts as 1 ms. */
export const wallRatio = (tslc: Run, theirs: Run): number => tslc.wall / Math.max(theirs.wall, 0.001);

function pairing(label: string, rows: readonly Row[], mine: (r: Row) => Run | undefined, theirs: (r: Row) => Run | undefined): Pairing {
  const both = rows.filter((r) => decided(mine(r)) && decided(theirs(r)));
  const slow = both.filter((r) => mine(r)!.wall >= 0.3 || theirs(r)!.wall >= 0.3);
  const ratio = (r: Row) => wallRatio(mine(r)!, theirs(r)!);
  const aboveFloor = both.filter((r) => theirs(r)!.wall >= 0.05);
  return {
    label,
    both,
    slow,
    aboveFloor,
    mine: (r) => mine(r)!,
    theirs: (r) => theirs(r)!,
    medianRatio: median(both.map(ratio)),
    medianRatioSlow: median(slow.map(ratio)),
    medianRatioAboveFloor: median(aboveFloor.map(ratio)),
  };
}

export function summarize(rows: readonly Row[], theirs: (r: Row) => Run | undefined): Summary {
  const asUsed = pairing('tslc check / ltlsynt --realizability', rows, (r) => r.tslc, theirs);
  const pairings: Pairing[] = [];
  if (rows.some((r) => r.tslcVerdict !== undefined && r.tslcVerdict !== r.tslc)) {
    pairings.push(pairing('verdict only: tslc check --no-states / ltlsynt --realizability', rows, (r) => r.tslcVerdict, theirs));
  }
  if (rows.some((r) => r.ltlsyntController !== undefined)) {
    // An unrealizable spec gets no controller from either tool: its verdict runs are the pair.
    const theirController = (r: Row) => (r.tslc?.verdict === 'realizable' ? r.ltlsyntController : theirs(r));
    pairings.push(pairing('with a controller: tslc check / ltlsynt (unrealizable: verdict runs)', rows, (r) => r.tslc, theirController));
  }
  const runsOf = (r: Row) => [r.tslc, r.tslcVerdict, theirs(r), r.ltlsyntController].filter((x): x is Run => x !== undefined);
  const anyOpposite = (r: Row) => runsOf(r).some((a, i, all) => all.slice(i + 1).some((b) => opposite(a, b)));
  return {
    both: asUsed.both,
    onlyTslc: rows.filter((r) => (decided(r.tslc) || decided(r.tslcVerdict)) && !decided(theirs(r))),
    onlyTheirs: rows.filter((r) => !decided(r.tslc) && !decided(r.tslcVerdict) && decided(theirs(r))),
    contradictions: rows.filter(anyOpposite),
    contradictionsRecorded: rows.filter((r) => opposite(r.tslc, r.recorded) || opposite(r.tslcVerdict, r.recorded)),
    contradictionsStatus: rows.filter((r) => [r.tslc, r.tslcVerdict].some((t) => decided(t) && r.status !== undefined && t.verdict !== r.status)),
    slow: asUsed.slow,
    medianRatio: asUsed.medianRatio,
    medianRatioSlow: asUsed.medianRatioSlow,
    pairings,
  };
}

export interface ReportContext {
  readonly timeout: number;
  readonly live: boolean;
  readonly recorded?: string;
  readonly withStates: boolean;
  readonly nodeBefore: number;
  readonly nodeAfter: number;
  readonly nodeFloor: number;
  readonly args: readonly string[];
  /** The bench section, for the command line (default `syntcomp`). */
  readonly section?: string;
  /** Heading and a paragraph under it (default: the SYNTCOMP section's heading). */
  readonly heading?: string;
  readonly intro?: string;
  /** What `status` is (default: the files' `//STATUS` comments). */
  readonly statusName?: string;
  /** More bullet lines after the summary's. */
  readonly extra?: readonly string[];
}

export function report(rows: readonly Row[], theirs: (r: Row) => Run | undefined, c: ReportContext): string {
  const readBy = (r: Run | undefined) => r !== undefined && r.verdict !== 'error';
  const sum = summarize(rows, theirs);
  const { both, onlyTslc, onlyTheirs, slow } = sum;
  const contra = sum.contradictions;
  const contraRecorded = sum.contradictionsRecorded;
  const contraStatus = sum.contradictionsStatus;
  const ratio = (r: Row) => wallRatio(r.tslc!, theirs(r)!);
  const withCpu = both.filter((r) => r.tslc!.cpu !== undefined && theirs(r)!.cpu !== undefined);
  const quick = both.filter((r) => theirs(r)!.wall < 0.05);
  const withNode = both.filter((r) => r.node !== undefined);
  const theirStates = (r: Row) => r.ltlsyntController?.states ?? theirs(r)?.states;
  const states = both.filter((r) => r.tslc!.states !== undefined && theirStates(r) !== undefined);
  // Start-up floor: each quick spec's tslc run against the `node -e 0` spawned just before it.
  const verdictRun = (r: Row) => r.tslcVerdict ?? r.tslc!;
  const quickAboveNode = quick.filter((r) => r.node !== undefined && decided(verdictRun(r))).map((r) => verdictRun(r).wall - r.node!);
  const quickNode = median(quick.filter((r) => r.node !== undefined).map((r) => r.node!));
  const names = (rs: readonly Row[], max = 40) =>
    rs.length === 0 ? '' : `: ${rs.slice(0, max).map((r) => `\`${r.key.replace(/^tlsf\//, '')}\``).join(', ')}${rs.length > max ? `, … (${rs.length - max} more)` : ''}`;
  const them = c.live ? 'ltlsynt' : 'ltlsynt (recorded)';
  const section = c.section ?? 'syntcomp';
  const command = shownCommand([section, ...c.args.filter((a) => a !== section)]);
  const lines: string[] = [
    c.heading ?? `## SYNTCOMP LTL track (\`syntcomp\`: ${rows.length} files, ${c.timeout} s limit each)`,
    '',
    ...(c.intro !== undefined ? [c.intro, ''] : []),
    `Command: \`${command}\`. tslc: \`node bin/tslc.js check --json --no-explain${c.withStates ? '' : ' --no-states'} --timeout ${c.timeout} FILE\` (${c.withStates ? 'a realizable spec gets a controller, minimized and model-checked' : 'verdict only'}); ` +
      (c.live
        ? `ltlsynt 2.12.1: \`ltlsynt --tlsf=FILE --realizability\`, and with \`--states\` \`ltlsynt --tlsf=FILE\` (its controller) on the specs it finds realizable. Per spec, in this order: \`node -e 0\`, tslc with \`--no-states\`, ltlsynt --realizability, tslc${c.withStates ? '' : ' (skipped: --no-states)'}, ltlsynt with a controller (one process each, wall time around the spawn, process start included).`
        : `ltlsynt: recorded verdicts and seconds (${c.recorded === undefined ? 'none' : shownPath(c.recorded)}).`),
    '',
    '| | count |',
    '| --- | ---: |',
    `| files | ${rows.length} |`,
    `| read by tslc | ${rows.filter((r) => readBy(r.tslc)).length} |`,
    `| read by ${them} | ${rows.filter((r) => readBy(theirs(r))).length} |`,
    `| read by both | ${rows.filter((r) => readBy(r.tslc) && readBy(theirs(r))).length} |`,
    `| decided by tslc | ${rows.filter((r) => decided(r.tslc)).length} |`,
    `| decided by ${them} | ${rows.filter((r) => decided(theirs(r))).length} |`,
    `| decided by both | ${both.length} |`,
    `| only tslc | ${onlyTslc.length} |`,
    `| only ${them} | ${onlyTheirs.length} |`,
    `| **contradictions** (tslc vs ${them}) | **${contra.length}** |`,
    ...(c.live && c.recorded ? [`| contradictions with the recorded ltlsynt verdicts | ${contraRecorded.length} |`] : []),
    `| contradictions with ${c.statusName ?? "the files' `//STATUS`"} | ${contraStatus.length} |`,
    '',
    '| median over specs both decide | specs | tslc s | ltlsynt s | ratio tslc / ltlsynt (per spec) |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...sum.pairings.flatMap((p) => [
      `| ${p.label}, wall | ${p.both.length} | ${fmt(median(p.both.map((r) => p.mine(r).wall)), 3)} | ${fmt(median(p.both.map((r) => p.theirs(r).wall)), 3)} | **${fmt(p.medianRatio)}** |`,
      `| ${p.label}, ltlsynt ≥ 0.05 s, wall | ${p.aboveFloor.length} | ${fmt(median(p.aboveFloor.map((r) => p.mine(r).wall)), 3)} | ${fmt(median(p.aboveFloor.map((r) => p.theirs(r).wall)), 3)} | **${fmt(p.medianRatioAboveFloor)}** |`,
      `| ${p.label}, either ≥ 0.3 s, wall | ${p.slow.length} | ${fmt(median(p.slow.map((r) => p.mine(r).wall)), 3)} | ${fmt(median(p.slow.map((r) => p.theirs(r).wall)), 3)} | **${fmt(p.medianRatioSlow)}** |`,
    ]),
    `| tslc check / ltlsynt --realizability, wall | ${both.length} | ${fmt(median(both.map((r) => r.tslc!.wall)), 3)} | ${fmt(median(both.map((r) => theirs(r)!.wall)), 3)} | **${fmt(sum.medianRatio)}** |`,
    `| tslc check / ltlsynt --realizability, either ≥ 0.3 s, wall | ${slow.length} | ${fmt(median(slow.map((r) => r.tslc!.wall)), 3)} | ${fmt(median(slow.map((r) => theirs(r)!.wall)), 3)} | **${fmt(sum.medianRatioSlow)}** |`,
    // What a Node program that does nothing would score: where ltlsynt answers in 25 ms, Node's
    // own start alone is about twice that, so the all-spec ratio has this floor (issue 22).
    ...(withNode.length > 0
      ? [
          `| floor: \`node -e 0\` (spawned before each spec) / ltlsynt --realizability, wall | ${withNode.length} | ${fmt(median(withNode.map((r) => r.node!)), 3)} | ${fmt(median(withNode.map((r) => theirs(r)!.wall)), 3)} | ${fmt(median(withNode.map((r) => r.node! / Math.max(theirs(r)!.wall, 0.001))))} |`,
        ]
      : []),
    ...(withCpu.length > 0
      ? [
          `| tslc check / ltlsynt --realizability, CPU (user + system) | ${withCpu.length} | ${fmt(median(withCpu.map((r) => r.tslc!.cpu!)), 3)} | ${fmt(median(withCpu.map((r) => theirs(r)!.cpu!)), 3)} | ${fmt(median(withCpu.map((r) => r.tslc!.cpu! / Math.max(theirs(r)!.cpu!, 0.01))))} |`,
        ]
      : []),
    '',
    quick.length === 0
      ? `- No spec that both decide took ltlsynt < 0.05 s; \`node -e 0\` took ${fmt(c.nodeFloor * 1000, 0)} ms (${fmt(c.nodeBefore * 1000, 0)} before the run, ${fmt(c.nodeAfter * 1000, 0)} after, median of 15 spawns each).`
      : quickAboveNode.length > 0
        ? `- Where ltlsynt needs < 0.05 s (${quick.length} specs), tslc's verdict run (\`--no-states\`) took a median **${fmt(median(quickAboveNode) * 1000, 0)} ms** more than the \`node -e 0\` spawned just before it (median ${fmt(quickNode * 1000, 0)} ms; tslc ${fmt(median(quick.map((r) => verdictRun(r).wall)) * 1000, 0)} ms, with a controller ${fmt(median(quick.map((r) => r.tslc!.wall)) * 1000, 0)} ms; \`node -e 0\` before and after the run: ${fmt(c.nodeBefore * 1000, 0)} and ${fmt(c.nodeAfter * 1000, 0)} ms, median of 15 spawns each).`
        : `- Where ltlsynt needs < 0.05 s (${quick.length} specs), tslc's median wall is ${fmt(median(quick.map((r) => r.tslc!.wall)) * 1000, 0)} ms against \`node -e 0\`'s ${fmt(c.nodeFloor * 1000, 0)} ms (${fmt(c.nodeBefore * 1000, 0)} before the run, ${fmt(c.nodeAfter * 1000, 0)} after, median of 15 spawns each): **${fmt((median(quick.map((r) => r.tslc!.wall)) - c.nodeFloor) * 1000, 0)} ms** above Node's own start.`,
    states.length > 0
      ? `- Controller states where both built one (${states.length} specs): median tslc ${median(states.map((r) => r.tslc!.states!))}, ltlsynt ${median(states.map((r) => theirStates(r)!))} (\`ltlsynt --tlsf=FILE\`, default options); tslc smaller on ${states.filter((r) => r.tslc!.states! < theirStates(r)!).length}, equal on ${states.filter((r) => r.tslc!.states! === theirStates(r)!).length}, larger on ${states.filter((r) => r.tslc!.states! > theirStates(r)!).length}.`
      : `- Controller states of ltlsynt: not measured (run with \`--states\`).`,
    `- Only ${them}${names(onlyTheirs)}.`,
    `- Only tslc${names(onlyTslc)}.`,
    ...(contra.length + contraRecorded.length + contraStatus.length > 0 ? [`- **Contradictions**${names([...new Set([...contra, ...contraRecorded, ...contraStatus])])}.`] : []),
    ...contra
      .filter((r) => r.secondOpinion !== undefined)
      .map((r) => {
        const o = r.secondOpinion!;
        const sides = o.verdict === undefined ? 'undecided' : [r.tslc, r.tslcVerdict].some((t) => decided(t) && t.verdict === o.verdict) ? `sides with tslc (${o.verdict})` : `sides with its first answer (${o.verdict})`;
        return `- Second opinion on \`${r.key.replace(/^tlsf\//, '')}\`: \`ltlsynt --verify --decompose=no\` ${o.undecomposed}, with \`--algo=ds\` ${o.ds} — ${sides}.`;
      }),
    ...(c.extra ?? []),
    `- Load average at the end: ${loadAverage()}.`,
    '',
    '### By family',
    '',
    '| family | files | tslc decided | ltlsynt decided | only tslc | only ltlsynt | median ratio (both decided) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  const family = (r: Row) => r.key.split('/')[1] ?? '';
  for (const f of [...new Set(rows.map(family))].sort()) {
    const rs = rows.filter((r) => family(r) === f);
    const b = rs.filter((r) => decided(r.tslc) && decided(theirs(r)));
    lines.push(
      `| ${f} | ${rs.length} | ${rs.filter((r) => decided(r.tslc)).length} | ${rs.filter((r) => decided(theirs(r))).length} | ${rs.filter((r) => decided(r.tslc) && !decided(theirs(r))).length} | ${rs.filter((r) => !decided(r.tslc) && decided(theirs(r))).length} | ${fmt(median(b.map(ratio)))} |`,
    );
  }
  lines.push('', '### Per spec', '');
  lines.push(`| file | status | tslc | wall s | CPU s | --no-states s | states | ${them} | wall s | CPU s | with controller s | states | ratio (wall) | ratio (--no-states) |`);
  lines.push('| --- | --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const r of rows) {
    const t = r.tslc;
    const v = r.tslcVerdict !== t ? r.tslcVerdict : undefined;
    const l = theirs(r);
    const wrong = sum.contradictions.includes(r) || sum.contradictionsStatus.includes(r) ? ' **CONTRADICTION**' : '';
    lines.push(
      `| ${r.key.replace(/^tlsf\//, '')} | ${r.status ?? ''} | ${t?.verdict ?? ''}${wrong}${v && v.verdict !== t?.verdict ? ` (--no-states: ${v.verdict})` : ''} | ${fmt(t?.wall)} | ${fmt(t?.cpu)} | ${fmt(v?.wall)} | ${t?.states ?? ''} | ${l?.verdict ?? ''} | ${fmt(l?.wall)} | ${fmt(l?.cpu)} | ${fmt(r.ltlsyntController?.wall)} | ${theirStates(r) ?? ''} | ${decided(t) && decided(l) ? fmt(ratio(r)) : ''} | ${decided(v) && decided(l) ? fmt(wallRatio(v, l)) : ''} |`,
    );
  }
  lines.push('');
  return lines.join('\n');
}

function loadAverage(): string {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' / ') + ' (1, 5, 15 min)';
  } catch {
    return 'unknown';
  }
}
