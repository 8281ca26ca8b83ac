// ltlsynt's recorded verdicts on the SYNTCOMP `tlsf/` files (test/fixtures/syntcomp/ltlsynt.tsv,
// see its README) and the benchmarks' own `//STATUS` comments: the references tslc's verdicts may
// never contradict.
import { existsSync, readFileSync } from 'node:fs';
import { readTlsfStatus } from '../../src/tlsf/index.js';
import { SYNTCOMP_FIXTURES, type SyntcompCase } from './syntcomp.js';

export type RecordedVerdict = 'realizable' | 'unrealizable';

export interface LtlsyntRecord {
  readonly file: string;
  /** Within 10 s, then (for the 10-s timeouts) within 60 s; undefined when neither decided. */
  readonly verdict?: RecordedVerdict;
  /** Wall seconds of the run that decided (process start included). */
  readonly seconds?: number;
  /** The raw answers: REALIZABLE, UNREALIZABLE, TIMEOUT or ERROR, per limit. */
  readonly at10s: string;
  readonly at60s?: string;
  readonly note?: string;
}

function verdictOf(answer: string | undefined): RecordedVerdict | undefined {
  return answer === 'REALIZABLE' ? 'realizable' : answer === 'UNREALIZABLE' ? 'unrealizable' : undefined;
}

/** Every row of ltlsynt.tsv by file; empty when the fixture is absent. */
export function ltlsyntRecords(): ReadonlyMap<string, LtlsyntRecord> {
  const path = `${SYNTCOMP_FIXTURES}ltlsynt.tsv`;
  const out = new Map<string, LtlsyntRecord>();
  if (!existsSync(path)) return out;
  const lines = readFileSync(path, 'utf8').split('\n').filter((l) => l !== '' && !l.startsWith('#'));
  const header = lines.shift()?.split('\t') ?? [];
  const col = (name: string): number => {
    const i = header.indexOf(name);
    if (i < 0) throw new Error(`ltlsynt.tsv: no column ${name}`);
    return i;
  };
  const [file, v10, s10, v60, s60, note] = ['file', 'verdict_10s', 'seconds_10s', 'verdict_60s', 'seconds_60s', 'note'].map(col);
  for (const line of lines) {
    const cells = line.split('\t');
    const at10s = cells[v10];
    const at60s = cells[v60] || undefined;
    const decided10 = verdictOf(at10s);
    const verdict = decided10 ?? verdictOf(at60s);
    const seconds = decided10 ? Number(cells[s10]) : verdict ? Number(cells[s60]) : undefined;
    out.set(cells[file], {
      file: cells[file],
      at10s,
      ...(at60s ? { at60s } : {}),
      ...(verdict ? { verdict } : {}),
      ...(seconds !== undefined ? { seconds } : {}),
      ...(cells[note] ? { note: cells[note] } : {}),
    });
  }
  return out;
}

/**
 * Files whose `//STATUS` comment is known to be wrong: it says realizable, and the spec is not
 * (as noted in the shared corpus README and confirmed by ltlsynt's verdict).
 */
export const MISLABELLED_STATUS: ReadonlySet<string> = new Set(['tlsf/lily/lilydemo04_modified.tlsf']);

export interface ExpectedVerdict {
  readonly verdict: RecordedVerdict;
  readonly source: 'ltlsynt' | 'status';
}

/**
 * The verdict a file must not be contradicted on: ltlsynt's when it decided, else the file's own
 * `//STATUS`. Strict files get only their STATUS: `ltlsynt --tlsf` reads syfco's plain formula,
 * which drops Strict (docs/conformance.md), so its verdict is about another formula.
 */
export function expectedVerdict(c: SyntcompCase, records: ReadonlyMap<string, LtlsyntRecord>): ExpectedVerdict | undefined {
  const strict = c.syfco.ok && /strict/i.test(c.syfco.semantics);
  const ltlsynt = strict ? undefined : records.get(c.file)?.verdict;
  if (ltlsynt) return { verdict: ltlsynt, source: 'ltlsynt' };
  if (MISLABELLED_STATUS.has(c.file)) return undefined;
  const status = readTlsfStatus(c.source);
  return status ? { verdict: status, source: 'status' } : undefined;
}
