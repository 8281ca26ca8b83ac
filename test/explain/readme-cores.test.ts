/**
 * The READMEs of specs/unrealizable/ and specs/conflicts/ promise cores by file:line; this runs
 * `explain` on each listed spec (or pair) and checks that the promised lines are the ones reported,
 * so the docs cannot drift when a spec file gains or loses a line.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { explainUnrealizable } from '../../src/explain/explain.js';
import { partLocation } from '../../src/explain/words.js';
import { loadSpecs } from '../../src/report/build.js';

const root = join(import.meta.dirname, '../..');

/** Table rows of a README: the spec files of the first cell and the `file:line` sites of the last. */
function promisedCores(dir: string): { files: string[]; core: string[] }[] {
  const text = readFileSync(join(root, dir, 'README.md'), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const cells = line.split(' | ');
      return {
        files: [...cells[0].matchAll(/`([\w-]+\.tsl)`/g)].map((m) => join(dir, m[1])),
        core: [...cells[cells.length - 1].matchAll(/`([\w-]+\.tsl:\d+)`/g)].map((m) => m[1]),
      };
    });
}

async function coreOf(files: string[]): Promise<string[]> {
  const e = explainUnrealizable(await loadSpecs(files), { budgetMs: 20_000 });
  if (e.verdict !== 'unrealizable') throw new Error(`${files.join(' + ')}: expected unrealizable, got ${e.verdict}`);
  return e.core.members.map((m) => partLocation(m.part)).sort();
}

describe('cores promised by the spec READMEs', () => {
  for (const dir of ['specs/unrealizable', 'specs/conflicts']) {
    const rows = promisedCores(dir);
    it(`${dir}/README.md lists its examples`, () => expect(rows.length).toBeGreaterThan(0));
    for (const { files, core } of rows)
      it(`${files.map((f) => f.split('/').pop()).join(' + ')}: ${core.join(', ')}`, async () => {
        expect(core.length).toBeGreaterThan(0);
        expect(await coreOf(files)).toEqual([...core].sort());
      });
  }

  it('specs/unrealizable/README.md: deleting the core line moves the core where it says', async () => {
    const text = readFileSync(join(root, 'specs/unrealizable/README.md'), 'utf8').replace(/\s+/g, ' ');
    const m = /deleting line (\d+) only moves the core to line (\d+)/.exec(text);
    expect(m).not.toBeNull();
    const lines = readFileSync(join(root, 'specs/unrealizable/tutor-as-printed.tsl'), 'utf8').split('\n');
    lines.splice(Number(m![1]) - 1, 1);
    const dir = mkdtempSync(join(tmpdir(), 'tslc-readme-'));
    try {
      writeFileSync(join(dir, 'tutor-as-printed.tsl'), lines.join('\n'));
      expect(await coreOf([join(dir, 'tutor-as-printed.tsl')])).toEqual([`tutor-as-printed.tsl:${m![2]}`]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
