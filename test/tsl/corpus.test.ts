/**
 * Every `.tsl` of the SYNTCOMP smart-home corpus parses and checks, and for the ones with the
 * TLSF tsltools generated, our `--names tsltools` INPUTS/OUTPUTS equal tsltools' as sets.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTslGame } from '../../src/tsl/index.js';
import { corpusPath } from '../support/corpus.js';

const corpus = corpusPath('syntcomp-tsl');
const files = existsSync(corpus) ? readdirSync(corpus).filter((f) => f.endsWith('.tsl')).sort() : [];

/** The names listed in one `INPUTS { … }` / `OUTPUTS { … }` block of a TLSF file. */
function tlsfBlock(text: string, heading: 'INPUTS' | 'OUTPUTS'): string[] {
  const m = new RegExp(`${heading}\\s*\\{([^}]*)\\}`).exec(text);
  if (!m) return [];
  return m[1]
    .split(';')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

describe.skipIf(files.length === 0)('syntcomp-tsl corpus', () => {
  it('has the expected number of specs', () => {
    expect(files.length).toBe(189);
  });

  it('every spec parses and checks', () => {
    const failures: string[] = [];
    for (const f of files) {
      try {
        loadTslGame(join(corpus, f), readFileSync(join(corpus, f), 'utf8'));
      } catch (err) {
        failures.push(`${f}: ${(err as Error).message}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('INPUTS/OUTPUTS match tsltools for every paired .tlsf', () => {
    let compared = 0;
    const mismatches: string[] = [];
    for (const f of files) {
      const tlsfPath = join(corpus, f.replace(/\.tsl$/, '.tlsf'));
      if (!existsSync(tlsfPath)) continue;
      const tlsf = readFileSync(tlsfPath, 'utf8');
      const { game } = loadTslGame(join(corpus, f), readFileSync(join(corpus, f), 'utf8'), { names: 'tsltools' });
      const ours = { inputs: game.inputs.map((p) => p.name).sort(), outputs: game.outputs.map((p) => p.name).sort() };
      const theirs = { inputs: tlsfBlock(tlsf, 'INPUTS').sort(), outputs: tlsfBlock(tlsf, 'OUTPUTS').sort() };
      compared++;
      if (JSON.stringify(ours) !== JSON.stringify(theirs)) mismatches.push(`${f}: ours ${JSON.stringify(ours)} theirs ${JSON.stringify(theirs)}`);
    }
    expect(mismatches.slice(0, 3)).toEqual([]);
    expect(compared).toBe(181);
  });
});
