// The SYNTCOMP `tlsf/` benchmarks and syfco's answers for them, as committed (compressed) in
// test/fixtures/syntcomp (see its README.md for provenance and licence).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync } from 'node:zlib';

export const SYNTCOMP_FIXTURES = fileURLToPath(new URL('../fixtures/syntcomp/', import.meta.url));

/** What syfco 1.2.1.2 says about one file. */
export type SyfcoAnswer =
  | {
      readonly ok: true;
      /** `syfco -f ltl -m fully FILE`. */
      readonly ltl: string;
      /** `syfco -ins FILE` / `-outs FILE`, in syfco's order. */
      readonly ins: readonly string[];
      readonly outs: readonly string[];
      /** `syfco -s FILE` (e.g. `Mealy`, `Strict,Mealy`) and `syfco -g FILE` (`Mealy`/`Moore`). */
      readonly semantics: string;
      readonly target: string;
      /**
       * For Strict semantics: `syfco -f ltl -m fully -os Mealy|Moore FILE`, syfco's own rendering
       * of the strict meaning in plain LTL (the plain `ltl` ignores Strict).
       */
      readonly strict?: { readonly os: string; readonly ltl: string };
    }
  | { readonly ok: false; readonly error: string };

export interface SyntcompCase {
  /** Path in the benchmarks repository, e.g. `tlsf/amba/amba/parametric/amba_case_study.tlsf`. */
  readonly file: string;
  readonly source: string;
  readonly syfco: SyfcoAnswer;
}

let cached: SyntcompCase[] | undefined;

/** All cases, sorted by file; empty when the fixtures are absent. */
export function syntcompCases(): readonly SyntcompCase[] {
  if (cached) return cached;
  const sourcesPath = `${SYNTCOMP_FIXTURES}tlsf-sources.json.br`;
  const answersPath = `${SYNTCOMP_FIXTURES}syfco.jsonl.br`;
  if (!existsSync(sourcesPath) || !existsSync(answersPath)) return (cached = []);
  const sources = JSON.parse(brotliDecompressSync(readFileSync(sourcesPath)).toString('utf8')) as Record<string, string>;
  const cases: SyntcompCase[] = [];
  for (const line of brotliDecompressSync(readFileSync(answersPath)).toString('utf8').split('\n')) {
    if (line.trim() === '') continue;
    const o = JSON.parse(line) as Record<string, unknown>;
    const file = String(o.file);
    const source = sources[file];
    if (source === undefined) throw new Error(`fixture: no source for ${file}`);
    const syfco: SyfcoAnswer =
      typeof o.error === 'string'
        ? { ok: false, error: o.error }
        : {
            ok: true,
            ltl: String(o.ltl),
            ins: o.ins as string[],
            outs: o.outs as string[],
            semantics: String(o.semantics),
            target: String(o.target),
            strict: o.strict as { os: string; ltl: string } | undefined,
          };
    cases.push({ file, source, syfco });
  }
  cases.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return (cached = cases);
}

/** The formula syfco gives a case's meaning: the Strict rendering for Strict files. */
export function syfcoFormula(answer: SyfcoAnswer & { ok: true }): string {
  return answer.strict?.ltl ?? answer.ltl;
}
