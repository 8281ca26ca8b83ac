/**
 * bench/startup — `tslc check` of small specs against Node's own start (`npm run bench -- startup`).
 *
 * Where a spec takes ltlsynt under 0.05 s, a tslc run is mostly process start-up, and Node's own
 * start (`node -e 0`) is the floor. This section times, one process each and interleaved in one
 * run (node, tslc, node, tslc, … with the order swapped every other round, so that drift in the
 * machine's load hits both alike):
 * - `node -e 0`;
 * - *bundle load only*: Node plus the check bundle's loading (runner, freshness check, code
 *   cache, module top level) and nothing else, `runFastCheck(['check', '--help'])` answered
 *   undefined by the bundle;
 * - a tiny TLSF spec (`G g`): the whole fixed cost of a check (arguments, front end, solver
 *   set-up, verification, output, exit);
 * - SYNTCOMP specs that ltlsynt decides in under `--under` seconds (recorded times in
 *   test/fixtures/syntcomp/ltlsynt.tsv), as `node bin/tslc.js check --json --no-explain
 *   --timeout 10 FILE`, the way a user runs it.
 * Reported per row: medians, the median of the paired differences (tslc − node of the same
 * round) and the ratio. With `--baseline <other bin/tslc.js>` a second build (e.g. a checkout of
 * main) runs in the same rounds, for a before/after in one run.
 *
 * Options: --runs <n> rounds (default 15), --under <s> (default 0.05), --sample <n> --seed <s>
 * (a seeded subset of those specs, default 12 and 1; `--sample all` for all), --dir <tlsf folder>
 * (read the specs there instead of the packed fixture), --baseline <path to bin/tslc.js>.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { environmentNote, INHERIT_ENV_OPTION, median, option, runTimed, shownCommand, useTimedEnvironment } from './measure.js';
import type { BenchSection } from './sections.js';
import { packedSources, parseRecorded, sampleOf } from './syntcomp.js';

/** dist/bench/startup.js → the checkout's root. */
const root = fileURLToPath(new URL('../../', import.meta.url));
const fixtureDir = join(root, 'test/fixtures/syntcomp');

/** The small specs the start-up target was first measured on; always included when present. */
export const NAMED_SPECS = [
  'tlsf/tsl_paper/EscalatorBidirectionalInit.tlsf',
  'tlsf/simple_arbiter_unreal/parametric/simple_arbiter_unreal1.tlsf',
  'tlsf/sweap/infinite-race-u0.tlsf',
  'tlsf/tsl_smart_home_jarvis/extracted-benchmarks/Alarm_2d1010f8.tlsf',
];

const TINY = 'INFO {\n  TITLE: "tiny"\n  DESCRIPTION: "start-up: one output, always on"\n  SEMANTICS: Mealy\n  TARGET: Mealy\n}\nMAIN {\n  INPUTS { r; }\n  OUTPUTS { g; }\n  GUARANTEE { G g; }\n}\n';

/** One thing timed against `node -e 0`: its argument lists (this build, and the baseline's). */
interface Item {
  readonly label: string;
  readonly kind: 'load' | 'tiny' | 'spec';
  readonly argv: (bin: string) => string[];
}

/** Wall times (ms) of one item, paired round by round with `node -e 0`. */
export interface Timings {
  readonly node: number[];
  readonly tslc: number[];
  readonly baseline?: number[];
}

export interface RowSummary {
  readonly nodeMs: number;
  readonly tslcMs: number;
  /** Median over rounds of tslc − node in the same round. */
  readonly deltaMs: number;
  readonly ratio: number;
  readonly baselineMs?: number;
  readonly baselineDeltaMs?: number;
}

/** Medians, the median paired difference and the ratio of medians of one item's rounds. */
export function summarizeRow(t: Timings): RowSummary {
  const nodeMs = median(t.node);
  const tslcMs = median(t.tslc);
  const paired = (xs: readonly number[]) => median(xs.map((x, i) => x - t.node[i]));
  return {
    nodeMs,
    tslcMs,
    deltaMs: paired(t.tslc),
    ratio: tslcMs / nodeMs,
    baselineMs: t.baseline ? median(t.baseline) : undefined,
    baselineDeltaMs: t.baseline ? paired(t.baseline) : undefined,
  };
}

/** The SYNTCOMP files to time (key → text): the named specs and a sample of the quick ones. */
function pickSpecs(args: readonly string[]): Map<string, string> {
  const under = Number(option(args, 'under') ?? 0.05);
  const recordedPath = join(fixtureDir, 'ltlsynt.tsv');
  const recorded = existsSync(recordedPath) ? parseRecorded(readFileSync(recordedPath, 'utf8')) : new Map();
  const quick = [...recorded].filter(([, r]) => (r.verdict === 'realizable' || r.verdict === 'unrealizable') && r.wall < under).map(([key]) => ({ key }));
  const sample = option(args, 'sample') ?? '12';
  const chosen = sample === 'all' ? quick : sampleOf(quick, Number(sample), Number(option(args, 'seed') ?? 1));
  const keys = [...new Set([...NAMED_SPECS, ...chosen.map((r) => r.key)])];
  const dir = option(args, 'dir');
  const texts = new Map<string, string>();
  if (dir !== undefined) {
    // Keys are `tlsf/<family>/…`; the folder given is the `tlsf` folder itself.
    for (const key of keys) {
      const path = join(resolve(dir), key.replace(/^tlsf\//, ''));
      if (existsSync(path)) texts.set(key, readFileSync(path, 'utf8'));
    }
    return texts;
  }
  const files = packedSources() ?? {};
  for (const key of keys) if (typeof files[key] === 'string') texts.set(key, files[key]);
  return texts;
}

const check = (bin: string, file: string) => [bin, 'check', '--json', '--no-explain', '--timeout', '10', file];

/** The verdict line of a check (its `seconds` left out: that varies run to run). */
const answerOf = (stdout: string) => stdout.trim().replace(/"seconds":[0-9.e-]+,?/, '');

export const startupSection: BenchSection = {
  name: 'startup',
  describe: 'tslc check of small specs against node -e 0, interleaved in one run',
  options: [
    { name: 'runs', kind: 'number', describe: 'rounds (default 15)' },
    { name: 'baseline', kind: 'string', describe: "another build's bin/tslc.js, run in the same rounds" },
    { name: 'under', kind: 'number', describe: 'pick SYNTCOMP specs ltlsynt decides in under this many seconds (default 0.05)' },
    { name: 'sample', kind: 'string', describe: 'how many of those specs (default 12), or all' },
    { name: 'seed', kind: 'number', describe: 'seed for --sample (default 1)' },
    { name: 'dir', kind: 'string', describe: 'the SYNTCOMP tlsf/ folder (default: the committed fixture)' },
    INHERIT_ENV_OPTION,
  ],
  async run({ log, args }) {
    useTimedEnvironment(args);
    const runs = Math.max(1, Number(option(args, 'runs') ?? 15));
    const baselineBin = option(args, 'baseline');
    const bin = join(root, 'bin/tslc.js');
    const tmp = mkdtempSync(join(tmpdir(), 'tslc-startup-'));
    const tiny = join(tmp, 'tiny.tlsf');
    writeFileSync(tiny, TINY);
    const items: Item[] = [
      {
        label: 'bundle load only (no check)',
        kind: 'load',
        argv: (b) => ['-e', `require(${JSON.stringify(join(dirname(b), '../dist/src/cli/bundle-runner.cjs'))}).runFastCheck(['check', '--help'])`],
      },
      { label: 'tiny spec (`G g`)', kind: 'tiny', argv: (b) => check(b, tiny) },
    ];
    const specs = pickSpecs(args);
    for (const [key, text] of specs) {
      const path = join(tmp, key);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
      items.push({ label: key.replace(/^tlsf\//, ''), kind: 'spec', argv: (b) => check(b, path) });
    }
    const probe = (b: string) => {
      const runner = join(dirname(b), '../dist/src/cli/bundle-runner.cjs');
      const r = spawnSync(process.execPath, ['-e', `const r = require(${JSON.stringify(runner)}); process.stdout.write(JSON.stringify(r.probeBundle ? r.probeBundle() : {}))`], { encoding: 'utf8' });
      const p = (r.status === 0 ? JSON.parse(r.stdout) : {}) as { current?: boolean; cache?: string };
      return p.current === undefined ? 'not reported' : p.current ? `bundle current, code cache ${p.cache}` : 'bundle stale or missing (ES modules)';
    };
    const bundleState = probe(bin);
    log(`${runs} rounds over ${items.length} items (${specs.size} SYNTCOMP specs)${baselineBin ? `, baseline ${baselineBin}` : ''}`);
    const timings = items.map((): { node: number[]; tslc: number[]; baseline: number[] } => ({ node: [], tslc: [], baseline: [] }));
    const answers = items.map(() => new Map<string, Set<string>>());
    const wall = async (argv: string[]) => {
      const t = await runTimed(process.execPath, argv, 60, { cpu: false });
      return { ms: t.wall * 1000, stdout: t.stdout };
    };
    for (let round = 0; round < runs; round++) {
      for (const [i, item] of items.entries()) {
        const who: Array<'node' | 'tslc' | 'baseline'> = ['node', 'tslc', ...(baselineBin ? (['baseline'] as const) : [])];
        if (round % 2 === 1) who.reverse();
        for (const w of who) {
          const r = await wall(w === 'node' ? ['-e', '0'] : item.argv(w === 'tslc' ? bin : resolve(baselineBin!)));
          timings[i][w].push(r.ms);
          if (w !== 'node') {
            const seen = answers[i].get(w) ?? new Set<string>();
            seen.add(answerOf(r.stdout));
            answers[i].set(w, seen);
          }
        }
      }
      log(`round ${round + 1}/${runs}`);
    }
    const rows = items.map((item, i) => ({ item, s: summarizeRow({ node: timings[i].node, tslc: timings[i].tslc, baseline: baselineBin ? timings[i].baseline : undefined }), answers: answers[i] }));
    const spec = rows.filter((r) => r.item.kind === 'spec');
    const unstable = rows.filter((r) => [...r.answers.values()].some((s) => s.size > 1));
    const differ = baselineBin ? rows.filter((r) => [...(r.answers.get('tslc') ?? [])].join() !== [...(r.answers.get('baseline') ?? [])].join()) : [];
    const ms = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? '' : x.toFixed(1));
    const verdict = (r: (typeof rows)[number]) => {
      const a = [...(r.answers.get('tslc') ?? [])][0] ?? '';
      return /"verdict":"(\w+)"/.exec(a)?.[1] ?? '';
    };
    const environment = await environmentNote();
    const command = shownCommand(args);
    const baseCols = baselineBin ? ' baseline ms | baseline − node ms |' : '';
    const lines = [
      `## Start-up: tslc check of small specs against \`node -e 0\` (\`startup\`)`,
      '',
      `Command: \`${command}\`. ${runs} rounds; each round runs \`node -e 0\` and the tslc command right after each other (order swapped every other round), one process each, wall time around the spawn. tslc: \`node bin/tslc.js check --json --no-explain --timeout 10 FILE\`. *Δ* = median over rounds of (tslc − \`node -e 0\` of the same round). SYNTCOMP specs: ${NAMED_SPECS.length} named ones and a seeded sample of those ltlsynt decides in under ${option(args, 'under') ?? 0.05} s (recorded times).`,
      '',
      `| | verdict | node -e 0 ms | tslc ms | Δ ms | ratio |${baseCols}`,
      `| --- | --- | ---: | ---: | ---: | ---: |${baselineBin ? ' ---: | ---: |' : ''}`,
      ...rows.map(
        (r) =>
          `| ${r.item.label} | ${verdict(r)} | ${ms(r.s.nodeMs)} | ${ms(r.s.tslcMs)} | **${ms(r.s.deltaMs)}** | ${r.s.ratio.toFixed(2)} |${baselineBin ? ` ${ms(r.s.baselineMs)} | ${ms(r.s.baselineDeltaMs)} |` : ''}`,
      ),
      '',
      `- **Median over the ${spec.length} SYNTCOMP specs of Δ: ${ms(median(spec.map((r) => r.s.deltaMs)))} ms** (target: within 15 ms of \`node -e 0\`)${baselineBin ? `; baseline: ${ms(median(spec.map((r) => r.s.baselineDeltaMs!)))} ms` : ''}.`,
      `- Fixed start-up: ${ms(rows[0].s.deltaMs)} ms to load the check bundle, ${ms(rows[1].s.deltaMs)} ms for a whole check of a tiny spec (${bundleState}${baselineBin ? `; baseline: ${probe(resolve(baselineBin))}` : ''}).`,
      environment,
      ...(unstable.length > 0 ? [`- **Answers varied between rounds** on: ${unstable.map((r) => r.item.label).join(', ')}.`] : []),
      ...(differ.length > 0 ? [`- **Answers differ from the baseline's** on: ${differ.map((r) => r.item.label).join(', ')}.`] : baselineBin ? ['- Answers identical to the baseline\'s on every row.'] : []),
    ];
    return lines.join('\n') + '\n';
  },
};
