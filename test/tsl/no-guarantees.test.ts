import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadTslGame } from '../../src/tsl/index.js';

describe('specs without guarantees', () => {
  it('warns that an empty spec is trivially realizable', () => {
    const codes = loadTslGame('empty.tsl', '// nothing here\n').diagnostics.map((d) => d.code);
    expect(codes).toContain('no-guarantees');
  });
  it('warns for assumptions only', () => {
    const codes = loadTslGame('a.tsl', 'always assume { p x; }').diagnostics.map((d) => d.code);
    expect(codes).toContain('no-guarantees');
  });
  it('does not warn for a spec with guarantees', () => {
    const text = readFileSync('specs/adventure.tsl', 'utf8');
    const codes = loadTslGame('specs/adventure.tsl', text).diagnostics.map((d) => d.code);
    expect(codes).not.toContain('no-guarantees');
  });
});
