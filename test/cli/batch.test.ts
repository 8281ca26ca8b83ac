/**
 * Batch mode of the built CLI: `tslc check a b c` answers every spec in order from one reused
 * worker thread, with the same verdicts and state counts as one process per spec, and the exit
 * code of the worst answer. Needs the compiled CLI (`npm test` builds first); skips without it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS_DIR } from '../support/corpus.js';
import { tlsfWriter } from '../support/tlsf.js';

const root = join(import.meta.dirname, '../..');
const built = existsSync(join(root, 'dist/src/cli/main.js'));
const dir = mkdtempSync(join(tmpdir(), 'tslc-batch-'));

function tslc(...argv: string[]): { code: number | null; lines: Array<Record<string, unknown>> } {
  const r = spawnSync(process.execPath, [join(root, 'bin/tslc.js'), ...argv], { cwd: root, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, lines: r.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) };
}

const tlsf = tlsfWriter(dir, ['g', 'h']);

describe.skipIf(!built)('tslc check with several specs (built CLI)', () => {
  const specs = [
    tlsf('resp.tlsf', 'G (r -> F g)'),
    tlsf('clairvoyant.tlsf', 'G (g <-> X r)'),
    tlsf('alternate.tlsf', 'G (r -> X (g && X h)) && G !(g && h)'),
    'specs/adventure.tsl',
  ];
  const strip = (l: Record<string, unknown>) => ({ file: l.file, verdict: l.verdict, states: l.states });

  it('answers each spec, in order, as a process of its own would', () => {
    const batch = tslc('check', '--json', '--no-explain', ...specs);
    expect(batch.code).toBe(1);
    expect(batch.lines.map((l) => l.file)).toEqual(specs);
    const alone = specs.map((s) => tslc('check', '--json', '--no-explain', s).lines[0]);
    expect(batch.lines.map(strip)).toEqual(alone.map(strip));
    expect(alone.map((l) => l.verdict)).toEqual(['realizable', 'unrealizable', expect.stringMatching(/^(un)?realizable$/), 'realizable']);
  });

  it('an input error in the middle of a batch does not stop the others; exit 2', () => {
    const broken = join(dir, 'broken.tlsf');
    writeFileSync(broken, 'MAIN { GUARANTEE { G ( ; } }\n');
    const r = tslc('check', '--json', '--no-explain', specs[0], broken, specs[1]);
    expect(r.code).toBe(2);
    expect(r.lines.map((l) => l.verdict)).toEqual(['realizable', 'error', 'unrealizable']);
  });
});

describe.skipIf(!built || !existsSync(join(CORPUS_DIR, 'syntcomp-tsl')))('batch answers do not depend on what ran before', () => {
  it('a corpus spec gets the same controller size alone and after another spec', () => {
    // Formula ids follow creation order; before operands were ordered by a structural rank, this
    // pair gave 5 states alone and 7 after Lights_06e9cad4 in the same worker.
    const first = join(CORPUS_DIR, 'syntcomp-tsl/Lights_06e9cad4.tlsf');
    const second = join(CORPUS_DIR, 'syntcomp-tsl/Lights_2c5b09da.tlsf');
    const alone = tslc('check', '--json', '--no-explain', second).lines[0];
    const after = tslc('check', '--json', '--no-explain', first, second).lines[1];
    expect(alone.verdict).toBe('realizable');
    expect(after.file).toBe(second);
    expect(after.states).toBe(alone.states);
  });
});
