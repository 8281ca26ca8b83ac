/**
 * End to end with the real ltlsynt — runs only when it is installed (PATH or TSLC_LTLSYNT);
 * skips cleanly otherwise. Verdicts must match the corpus statuses for the specs ltlsynt decides
 * quickly (baselines/ltlsynt.tsv), and its controllers must pass the independent check.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runExternal } from '../../src/external/run.js';
import { locateTool } from '../../src/external/tools.js';
import { loadTlsfGame } from '../../src/tlsf/index.js';
import { CORPUS_DIR } from '../support/corpus.js';

const CORPUS = CORPUS_DIR;
const found = (() => {
  try {
    return locateTool('ltlsynt').location;
  } catch {
    return undefined;
  }
})();

function fastDecidedSpecs(limit: number): { file: string; expected: string }[] {
  const rows = readFileSync(join(CORPUS, 'baselines', 'ltlsynt.tsv'), 'utf8').trim().split('\n').slice(1);
  return rows
    .map((r) => r.split('\t'))
    .filter(([, expected, answer, seconds]) => answer !== 'TIMEOUT' && (expected === 'realizable' || expected === 'unrealizable') && Number(seconds) < 1)
    .slice(0, limit)
    .map(([file, expected]) => ({ file, expected }));
}

describe.skipIf(!found)('real ltlsynt', () => {
  const specs = found ? fastDecidedSpecs(30) : [];
  test.each(specs)('$file: realizability agrees with the corpus', async ({ file, expected }) => {
    const path = join(CORPUS, file);
    const spec = loadTlsfGame(path, readFileSync(path, 'utf8'));
    const r = await runExternal('ltlsynt', spec, { mode: 'realizability', timeoutMs: 20_000, location: found });
    expect(r.status).toBe(expected);
  });

  test.each(specs.filter((s) => s.expected === 'realizable').slice(0, 8))('$file: controller passes the independent check', async ({ file }) => {
    const path = join(CORPUS, file);
    const spec = loadTlsfGame(path, readFileSync(path, 'utf8'));
    const r = await runExternal('ltlsynt', spec, { mode: 'synthesis', timeoutMs: 20_000, location: found });
    expect(r.status).toBe('realizable');
    if (r.status === 'realizable') expect(r.verified).toBe(true);
  });

  test('specs/adventure.tsl: ltlsynt synthesizes a verified controller', async () => {
    const { loadGame } = await import('../../src/frontend/load.js');
    const spec = await loadGame(join(process.cwd(), 'specs', 'adventure.tsl'));
    const r = await runExternal('ltlsynt', spec, { mode: 'synthesis', timeoutMs: 60_000, location: found });
    expect(r.status).toBe('realizable');
    if (r.status === 'realizable') {
      expect(r.verified).toBe(true);
      expect(r.machine!.outputs).toEqual(spec.outputs.map((p) => p.name));
    }
  });
});
