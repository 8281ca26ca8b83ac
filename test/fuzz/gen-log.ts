/**
 * Generators of `tslc audit` inputs: a rule file (text or JSON form, LTL or English) and a log
 * (JSONL or CSV) with garbage lines, byte-order marks, huge lines, unterminated quotes, deep JSON,
 * huge numbers, odd run ids, and missing or duplicate columns — delivered in random chunks, so
 * line and record boundaries, CRLF pairs and UTF-8 sequences fall across chunk edges.
 */
import { ltlFormula } from './gen-ltl.js';
import { mutate } from './mutate.js';
import { LTL_ALPHABET } from './gen-ltl.js';
import type { Rand } from './rand.js';

const PROPS = ['a', 'b', 'c'];
const ENGLISH = [
  'a never happens',
  'every a is followed by b',
  'a only after b',
  'a happens at most 2 times',
  'every a is followed by b within 3 steps',
  'a never happens twice in a row',
  'b must happen before a',
  'a always holds between b and c',
];

export interface AuditCase {
  readonly rulesName: string;
  readonly rules: string;
  readonly format: 'jsonl' | 'csv';
  readonly log: Buffer;
  /** Byte offsets where the log is cut into chunks. */
  readonly cuts: readonly number[];
  readonly options: {
    readonly groupBy?: string;
    readonly contiguous: boolean;
    readonly semantics: 'ltl3' | 'ltlf';
    readonly missing: 'check' | 'false' | 'error';
    readonly strict: boolean;
    readonly recovery: boolean;
    readonly maxOpenRuns?: number;
    readonly maxLineBytes?: number;
    readonly complete: boolean;
    readonly columns?: readonly string[];
  };
}

/** A rule file: `name: formula` lines, English sentences, or the JSON form with labels. */
export function ruleFile(r: Rand): { name: string; text: string } {
  const count = 1 + r.int(4);
  const lines = Array.from({ length: count }, (_, i) => {
    const body = r.chance(0.2) ? r.pick(ENGLISH) : ltlFormula(r, 1 + r.int(4), PROPS);
    return r.chance(0.8) ? `r${i}: ${body}` : body;
  });
  if (r.chance(0.2)) {
    const labels = r.chance(0.5) ? `, "labels": { "a": { "field": "${r.pick(['action', 'x.y', '__proto__', 'constructor'])}", "eq": ${r.pick(['"go"', '1', 'true', 'null', '[]'])} } }` : '';
    const props = lines.map((l, i) => `"p${i}": ${JSON.stringify(l.replace(/^r\d+: /, ''))}`).join(', ');
    return { name: 'rules.json', text: `{ "properties": { ${props} }${labels}${r.chance(0.3) ? ', "groupBy": "run"' : ''} }` };
  }
  let text = lines.join('\n');
  if (r.chance(0.15)) text = mutate(text, r, LTL_ALPHABET, [], 2);
  if (r.chance(0.05)) text = `\uFEFF${text}`;
  return { name: 'rules.ltl', text };
}

const VALUES: readonly unknown[] = [true, false, 0, 1, 'true', 'false', 'yes', '', null, [], {}, { a: true }, 1e308, -0, 'go'];

function runId(r: Rand, i: number): unknown {
  return r.weighted<() => unknown>([
    [8, () => `run${i % 7}`],
    [1, () => i % 5],
    [1, () => r.pick(['__proto__', 'constructor', 'toString', '', null, true])],
    [0.3, () => [i]],
    [0.3, () => ({ id: i })],
    [0.2, () => 'r'.repeat(10_000)],
  ])();
}

function event(r: Rand, i: number): Record<string, unknown> {
  const e: Record<string, unknown> = {};
  if (r.chance(0.9)) e.run = runId(r, i);
  for (const p of PROPS) if (r.chance(0.85)) e[p] = r.chance(0.8) ? r.chance(0.5) : r.pick(VALUES);
  if (r.chance(0.3)) e.action = r.pick(['go', 'stop', 'wash', '']);
  if (r.chance(0.05)) e.t = r.pick([1e400, 123456789012345678901234567890, Number.MAX_SAFE_INTEGER + 2, -1e-400]);
  return e;
}

/** One JSON line, or a line that is broken in one of many ways. */
function jsonLine(r: Rand, i: number): string {
  return r.weighted<() => string>([
    [20, () => JSON.stringify(event(r, i))],
    [1, () => r.pick(['{', '}', '[]', '[1,2]', 'null', '"text"', '42', 'true', '{"a":tru}', '{"a":true,}', "{'a':true}", '{"a":true}{"b":1}'])],
    [1, () => JSON.stringify(event(r, i)).slice(0, r.int(20))],
    [0.5, () => `\uFEFF${JSON.stringify(event(r, i))}`],
    [0.5, () => `{"run":"r","a":true,"a":false,"__proto__":{"b":true},"constructor":1}`],
    [0.5, () => `{"run":"${i}","a":1e400,"b":-0,"c":123456789012345678901234567890123}`],
    [0.3, () => `${'{"a":'.repeat(huge(r, [100, 5000, 100_000]))}true${'}'.repeat(huge(r, [0, 100, 5000, 100_000]))}`],
    [0.3, () => `${'['.repeat(huge(r, [100, 100_000]))}`],
    [0.3, () => `{"run":"r${i}","a":"\\ud800","b":"\u0000","c":"\\u0000"}`],
    [0.2, () => `{"run":"r","blob":"${'x'.repeat(huge(r, [1000, 300_000]))}","a":true}`],
    [0.2, () => String.fromCharCode(...Array.from({ length: r.logSize(200) }, () => r.int(256)))],
  ])();
}

function jsonlLog(r: Rand): Buffer {
  const n = r.logSize(400);
  const eol = r.weighted([
    [8, '\n'],
    [2, '\r\n'],
    [0.5, '\r'],
  ]);
  const lines = Array.from({ length: n }, (_, i) => jsonLine(r, i));
  let text = lines.join(eol) + (r.chance(0.8) ? eol : '');
  if (r.chance(0.1)) text = `\uFEFF${text}`;
  let bytes = Buffer.from(text, r.chance(0.05) ? 'latin1' : 'utf8');
  if (r.chance(0.05)) bytes = Buffer.concat([bytes, Buffer.from([0xff, 0xfe, 0x00, 0xc3])]);
  return bytes;
}

/**
 * Bytes left for huge values (300 KB fields, 100,000-deep JSON) in the log being generated: a
 * few per log, or a 10,000-column CSV of them would not fit in a string.
 */
let hugeBudget = 0;
function huge(r: Rand, sizes: readonly number[]): number {
  const n = r.pick(sizes);
  if (n <= 5000) return n;
  if (hugeBudget < n) return 1000;
  hugeBudget -= n;
  return n;
}

function csvField(r: Rand): string {
  return r.weighted<() => string>([
    [10, () => r.pick(['true', 'false', '1', '0', 'yes', 'no', ''])],
    [1, () => '"quoted, with comma"'],
    [1, () => '"multi\nline"'],
    [1, () => '"escaped ""quote"""'],
    [0.5, () => 'a"b'],
    [0.5, () => '"unterminated'],
    [0.2, () => `"${'x'.repeat(huge(r, [1000, 300_000]))}"`],
    [0.3, () => r.pick(['__proto__', 'constructor', 'NaN', '1e400'])],
  ])();
}

function csvLog(r: Rand): { log: Buffer; columns?: string[] } {
  const header = r.weighted<() => string[]>([
    [6, () => ['run', ...PROPS]],
    [1, () => ['run', 'a', 'b']],
    [1, () => ['run', 'a', 'a', 'b', 'c']],
    [1, () => ['"run"', '"a"', '" b "', 'c']],
    [0.5, () => ['']],
    [0.5, () => ['run', ...PROPS, '__proto__', 'constructor']],
    [0.2, () => Array.from({ length: 10_000 }, (_, i) => (i < 4 ? ['run', ...PROPS][i] : `col${i}`))],
    [0.3, () => ['"run', 'a', 'b', 'c']],
  ])();
  const eol = r.weighted([
    [8, '\n'],
    [2, '\r\n'],
    [0.3, '\r'],
  ]);
  const rows = Array.from({ length: r.logSize(300) }, (_, i) => {
    const width = r.chance(0.9) ? header.length : r.int(header.length + 3);
    return Array.from({ length: width }, (_, k) => (k === 0 && r.chance(0.9) ? `run${i % 5}` : csvField(r))).join(',');
  });
  let text = [header.join(','), ...rows].join(eol) + (r.chance(0.8) ? eol : '');
  if (r.chance(0.15)) text = `\uFEFF${text}`;
  if (r.chance(0.05)) text = text.slice(0, r.int(text.length));
  const columns = r.chance(0.1) ? r.pick([['run', ...PROPS], ['run', 'a'], ['a', 'a', 'b', 'c'], []]) : undefined;
  return { log: Buffer.from(text, 'utf8'), columns };
}

export function auditInput(r: Rand): { generator: string; input: AuditCase } {
  hugeBudget = 2_000_000;
  const rules = ruleFile(r);
  const csv = r.chance(0.4);
  const { log, columns } = csv ? csvLog(r) : { log: jsonlLog(r), columns: undefined };
  const cuts = Array.from({ length: r.int(6) }, () => r.int(log.length + 1)).sort((x, y) => x - y);
  const input: AuditCase = {
    rulesName: rules.name,
    rules: rules.text,
    format: csv ? 'csv' : 'jsonl',
    log,
    cuts,
    options: {
      groupBy: r.weighted<string | undefined>([
        [5, 'run'],
        [3, undefined],
        [1, 'absent'],
        [0.5, '__proto__'],
      ]),
      contiguous: r.chance(0.3),
      semantics: r.pick(['ltl3', 'ltlf'] as const),
      missing: r.pick(['check', 'false', 'error'] as const),
      strict: r.chance(0.1),
      recovery: r.chance(0.8),
      maxOpenRuns: r.chance(0.2) ? r.pick([1, 2, 3]) : undefined,
      maxLineBytes: r.chance(0.2) ? r.pick([16, 256, 4096]) : undefined,
      complete: r.chance(0.1),
      columns,
    },
  };
  return { generator: csv ? 'csv' : 'jsonl', input };
}

/** The case as one text, for the findings report. */
export function describeAuditCase(c: AuditCase): string {
  const o = Object.entries(c.options).filter(([, v]) => v !== undefined && v !== false).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(' ');
  return `--- ${c.rulesName} ---\n${c.rules}\n--- log (${c.format}, ${c.log.length} bytes, cuts ${c.cuts.join(',')}; ${o}) ---\n${c.log.toString('utf8', 0, 600)}`;
}
