/**
 * `tslc tlsf` output reads back with the project's TLSF reader (same inputs, outputs and the
 * same overall formula) and, where syfco is installed, syfco accepts it too.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { specFormula } from '../../src/game/spec.js';
import { loadTlsfGame } from '../../src/tlsf/index.js';
import { writeTlsf } from '../../src/tlsf/write.js';
import { loadTslGame } from '../../src/tsl/index.js';

const specs = join(import.meta.dirname, '../../specs');
const files = readdirSync(specs).filter((f) => f.endsWith('.tsl')).sort();

function hasSyfco(): boolean {
  try {
    execFileSync('syfco', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('TLSF written for specs/', () => {
  it('covers the shipped specs', () =>
    expect(files).toEqual(expect.arrayContaining(['adventure.tsl', 'choices.tsl', 'conversation.tsl', 'forest.tsl', 'tutor.tsl'])));

  for (const names of ['readable', 'tsltools'] as const) {
    it.each(files)(`%s (${names} names) reads back as the same game`, (f) => {
      const { game } = loadTslGame(join(specs, f), readFileSync(join(specs, f), 'utf8'), { names });
      const text = writeTlsf(game);
      const back = loadTlsfGame(`${f}.tlsf`, text);
      expect(back.inputs.map((p) => p.name)).toEqual(game.inputs.map((p) => p.name));
      expect(back.outputs.map((p) => p.name)).toEqual(game.outputs.map((p) => p.name));
      expect(back.semantics).toBe('mealy');
      // Formulas are hash-consed: the same object means the same formula.
      expect(specFormula(back)).toBe(specFormula(game));
    });
  }

  it.skipIf(!hasSyfco())('syfco accepts them and sees the same signals', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tslc-tlsf-'));
    for (const f of files) {
      const { game } = loadTslGame(join(specs, f), readFileSync(join(specs, f), 'utf8'));
      const path = join(dir, `${f}.tlsf`);
      writeFileSync(path, writeTlsf(game));
      const ins = execFileSync('syfco', ['--print-input-signals', path], { encoding: 'utf8' });
      const outs = execFileSync('syfco', ['--print-output-signals', path], { encoding: 'utf8' });
      expect(ins.split(/[,\s]+/).filter(Boolean).sort()).toEqual(game.inputs.map((p) => p.name).sort());
      expect(outs.split(/[,\s]+/).filter(Boolean).sort()).toEqual(game.outputs.map((p) => p.name).sort());
    }
  });
});
