// SYNTCOMP's finite-trace track (tlsf-fin/, SEMANTICS containing Finite) is refused with one clear
// line: read as infinite-trace LTL, its formulas (X, G, F on finite words) would mean something else.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/diagnostics/diagnostic.js';
import { loadTlsfGame } from '../../src/tlsf/index.js';
import { runTslc } from '../support/cli.js';

// Shaped like the tlsf-fin files (Patterns/GFand, and the Mealy,Finite / Moore,Finite spellings).
const finite = (semantics: string, target: string) => `INFO {
  TITLE:       "gfand02"
  DESCRIPTION: "Patterns/GFand"
  SEMANTICS:   ${semantics}
  TARGET:      ${target}
}

MAIN {
  INPUTS { p1; }
  OUTPUTS { p2; }
  GUARANTEES { (G(p1)) && (F(p2)); }
}
`;

describe('finite-trace semantics', () => {
  for (const [semantics, target] of [
    ['Finite,Moore', 'Moore'],
    ['Mealy,Finite', 'Mealy'],
    ['Moore,Finite', 'Moore'],
  ]) {
    it(`refuses SEMANTICS: ${semantics}, pointing at it`, () => {
      let caught: unknown;
      try {
        loadTlsfGame('gfand.tlsf', finite(semantics, target));
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(UserError);
      const d = (caught as UserError).diagnostics[0];
      expect(d.message).toBe(
        `finite-trace semantics (SEMANTICS: ${semantics}) is not supported: tslc reads TLSF with infinite-trace semantics only (Mealy, Moore, Mealy,Strict, Moore,Strict)`,
      );
      expect(d.code).toBe('finite-semantics');
      expect(d.span).toMatchObject({ file: 'gfand.tlsf', line: 4, col: 16, length: semantics.length });
    });
  }
  it('tslc check exits 2 with a one-line error and no verdict', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tslc-finite-'));
    const file = join(dir, 'gfand.tlsf');
    writeFileSync(file, finite('Finite,Moore', 'Moore'));
    const r = await runTslc('check', file);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const first = r.stderr.split('\n')[0];
    expect(first).toBe(`${file}:4:16: error: finite-trace semantics (SEMANTICS: Finite,Moore) is not supported: tslc reads TLSF with infinite-trace semantics only (Mealy, Moore, Mealy,Strict, Moore,Strict)`);
    expect(r.stderr).not.toMatch(/\bat .*\.(js|ts):\d+/);
  });
});
