/**
 * End to end with the real ltlsynt — runs only when it is installed (PATH or TSLC_LTLSYNT);
 * skips cleanly otherwise. Verdicts must match the corpus statuses for the specs ltlsynt decides
 * quickly (baselines/ltlsynt.tsv), and its controllers must pass the independent check.
 */
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
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

  test('tslc compile --synthesizer ltlsynt specs/adventure.tsl writes a working module', async () => {
    const { run: compile } = await import('../../src/cli/commands/compile.js');
    // Inside the repo, so the module imports the runtime by a relative path.
    const outDir = join(process.cwd(), 'test', '.e2e-ltlsynt-out');
    mkdirSync(outDir, { recursive: true });
    try {
      const code = await compile({ files: [join(process.cwd(), 'specs', 'adventure.tsl')], out: outDir, synthesizer: 'ltlsynt', timeout: 60 });
      expect(code).toBe(0);
      const mod = (await import(pathToFileURL(join(outDir, 'adventure.ts')).href)) as Record<string, unknown>;
      const metadata = mod.adventureMetadata as { verified: boolean; synthesizer: string };
      expect(metadata.verified).toBe(true);
      expect(metadata.synthesizer).toContain('ltlsynt');
      type Create = (impl: Record<string, (s: string) => unknown>, initial: Record<string, string>) => {
        step(inputs: Record<string, string>): Promise<unknown>;
        readonly state: number;
      };
      const create = mod.createAdventure as Create;
      const location = (where: string) => (s: string) => s.endsWith(where);
      const agent = create(
        { inCave: location('cave'), inMarket: location('market'), inTown: location('town'), toCave: () => 'cave', toMarket: () => 'market', toTown: () => 'town' },
        { storyPassage: '' },
      );
      for (let turn = 0; turn < 12; turn++) await agent.step({ s: String(turn) });
      expect(Number.isInteger(agent.state)).toBe(true);
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  }, 120_000);
});
