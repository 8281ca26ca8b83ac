/**
 * The papers' counting of the real GPT-4 choose-your-own-adventure logs, reproduced with the
 * auditor: every log file of `ravenrothkopf/CYOA-TSL-Evaluation` (`data/*.csv`, not shipped with
 * tslc) against the guarantees of its task, under LTLf, with the safety rules (the papers'
 * adherence figure) and the liveness rules counted apart.
 *
 *   node dist/examples/audit/cyoa/count.js <folder with the CSV files>     (markdown table)
 *   node dist/examples/audit/cyoa/count.js <folder> --json                 (the numbers)
 *
 * Each row is one `tslc audit` run; `auditCommand` prints the equivalent command line.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { auditLog, type AuditReport } from '../../../src/audit/audit.js';
import { readLog } from '../../../src/audit/logs.js';
import { combineRules, parseLabelsFile, parseRules } from '../../../src/audit/rules.js';

/** examples/audit/cyoa, from the source tree or from dist/examples/audit/cyoa. */
function rulesDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [here, join(here, '../../../../examples/audit/cyoa')];
  const found = candidates.find((d) => existsSync(join(d, 'labels.json')));
  if (!found) throw new Error('examples/audit/cyoa/labels.json not found');
  return found;
}

export interface LogFile {
  readonly file: string;
  /** The papers' task number (Table 1). */
  readonly task: number;
  readonly specs: readonly string[];
  /** Replacement header for files whose header is wrong. */
  readonly columns?: string;
  /** The papers' violation rate for this file, in percent. */
  readonly paper: number;
}

export const LOG_FILES: readonly LogFile[] = [
  { file: 'adventure_tsl.csv', task: 1, specs: ['adventure.ltl'], paper: 4.0 },
  { file: 'adventure_llm.csv', task: 1, specs: ['adventure.ltl'], paper: 13.4 },
  { file: 'forest_tsl.csv', task: 2, specs: ['adventure.ltl', 'forest.ltl'], columns: 'Run,Step,InCave,InMarket,InTown,InForest,Update,CurrentState,SafeChoice,SafeCount', paper: 4.0 },
  { file: 'forest_llm.csv', task: 2, specs: ['adventure.ltl', 'forest.ltl'], paper: 10.67 },
  { file: 'choices_tsl.csv', task: 3, specs: ['adventure.ltl', 'choices.ltl'], paper: 1.33 },
  { file: 'choices_llm.csv', task: 3, specs: ['adventure.ltl', 'choices.ltl'], paper: 85.33 },
  { file: 'allspecs_llm.csv', task: 4, specs: ['adventure.ltl', 'forest.ltl', 'choices.ltl'], columns: 'Run,Step,InCave,InMarket,InTown,InForest,CurrentState,SafeChoice,SafeCount', paper: 84.0 },
];

/** The column order of the table: the guarantees of all three rule files. */
export const GUARANTEES = [
  'cave-after-market',
  'cave-after-town',
  'starts-in-forest',
  'count-iff-safe-in-town',
  'town-after-threshold',
  'visits-cave',
  'visits-market',
  'visits-town',
] as const;

export interface FileCount {
  readonly file: string;
  readonly task: number;
  readonly runs: number;
  /** Violating runs per guarantee checked on this file. */
  readonly violated: Readonly<Record<string, number>>;
  readonly safety: number;
  readonly liveness: number;
  readonly paper: number;
}

/** The `tslc audit` command line for one file (relative to the repository root). */
export function auditCommand(f: LogFile, folder: string): string {
  return [
    'tslc audit',
    ...f.specs.map((s) => `--spec examples/audit/cyoa/${s}`),
    '--labels examples/audit/cyoa/labels.json --semantics ltlf',
    ...(f.columns ? [`--columns ${f.columns}`] : []),
    join(folder, f.file),
  ].join(' ');
}

export async function countFile(f: LogFile, folder: string): Promise<FileCount> {
  const dir = rulesDir();
  const rules = combineRules(f.specs.map((s) => parseRules(readFileSync(join(dir, s), 'utf8'), s)));
  const cfg = parseLabelsFile(readFileSync(join(dir, 'labels.json'), 'utf8'), 'labels.json');
  const report: AuditReport = await auditLog(readLog(join(folder, f.file), { format: 'csv', ...(f.columns ? { columns: f.columns.split(',') } : {}) }), {
    properties: rules.properties,
    labels: cfg.labels,
    groupBy: cfg.groupBy,
    contiguous: cfg.contiguous,
    semantics: 'ltlf',
  });
  const violated = Object.fromEntries(report.summary.map((s) => [s.property, s.violatedRuns]));
  return {
    file: f.file,
    task: f.task,
    runs: report.runCount,
    violated,
    safety: report.violatedRunsByKind.safety,
    liveness: report.violatedRunsByKind.liveness,
    paper: f.paper,
  };
}

const share = (n: number, of: number): string => `${n} (${of === 0 ? '0.0' : ((100 * n) / of).toFixed(1)}%)`;

export function countTable(counts: readonly FileCount[]): string {
  const head = ['file (task)', 'runs', ...GUARANTEES, 'any safety rule', 'any liveness rule', 'paper: violations'];
  const rows = counts.map((c) => [
    `${c.file.replace(/\.csv$/, '')} (${c.task})`,
    String(c.runs),
    ...GUARANTEES.map((g) => (Object.hasOwn(c.violated, g) ? share(c.violated[g], c.runs) : '—')),
    `**${c.safety} (${((100 * c.safety) / Math.max(1, c.runs)).toFixed(2)}%)**`,
    share(c.liveness, c.runs),
    `${c.paper.toFixed(2)}%`,
  ]);
  return [`| ${head.join(' | ')} |`, `|---|${head.slice(1).map(() => '---:').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const folder = process.argv[2];
  if (!folder || folder.startsWith('--')) {
    process.stderr.write('usage: node dist/examples/audit/cyoa/count.js <folder with the CYOA-TSL-Evaluation data/*.csv files> [--json]\n');
    process.exit(2);
  }
  const present = LOG_FILES.filter((f) => existsSync(join(folder, f.file)));
  if (present.length === 0) {
    process.stderr.write(`no CYOA log (${LOG_FILES.map((f) => f.file).join(', ')}) in ${folder}\n`);
    process.exit(2);
  }
  const counts: FileCount[] = [];
  for (const f of present) {
    process.stderr.write(`${auditCommand(f, folder)}\n`);
    counts.push(await countFile(f, folder));
  }
  process.stdout.write(process.argv.includes('--json') ? JSON.stringify(counts, null, 2) + '\n' : countTable(counts) + '\n');
}
