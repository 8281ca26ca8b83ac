/**
 * Where the shared test corpus lives. CI clones the repo with `shared/` beside it, so the corpus
 * is `<repo>/../shared/corpus`; `TSLC_CORPUS` overrides that for other layouts.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const beside = resolve(import.meta.dirname, '../../../shared/corpus');

export const CORPUS_DIR: string =
  process.env.TSLC_CORPUS ?? (existsSync(beside) ? beside : '/work/shared/corpus');

export function corpusPath(...parts: string[]): string {
  return join(CORPUS_DIR, ...parts);
}
