/**
 * `prepare` builds only when dist/ is not built from the current sources (scripts/build-stamp.mjs),
 * so `npx tslc` in a clone — which makes npm install the checkout into its cache and run `prepare`
 * again — no longer rebuilds everything. The stamp is a hash of the build's inputs: any change to
 * a source, the lockfile or the build scripts must count as stale.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const script = join(import.meta.dirname, '../../scripts/build-stamp.mjs');

function stamp(tree: string, mode: 'write' | 'check'): number | null {
  return spawnSync(process.execPath, [script, mode], { env: { ...process.env, TSLC_STAMP_ROOT: tree }, encoding: 'utf8' }).status;
}

function put(tree: string, path: string, text: string): void {
  mkdirSync(join(tree, path, '..'), { recursive: true });
  writeFileSync(join(tree, path), text);
}

describe('the build stamp', () => {
  it('is current after a build and stale after any input changes', () => {
    const tree = mkdtempSync(join(tmpdir(), 'tslc-stamp-'));
    put(tree, 'package.json', '{"name":"tslc"}');
    put(tree, 'src/a.ts', 'export const a = 1;\n');
    put(tree, 'package-lock.json', '{}');
    expect(stamp(tree, 'check')).toBe(1); // never built
    put(tree, 'dist/src/cli/main.js', '');
    stamp(tree, 'write');
    expect(stamp(tree, 'check')).toBe(0);
    // The parser the build generates into src/ is an output, not an input.
    put(tree, 'src/tsl/generated/parser.js', 'generated');
    expect(stamp(tree, 'check')).toBe(0);
    put(tree, 'src/a.ts', 'export const a = 2;\n');
    expect(stamp(tree, 'check')).toBe(1);
    stamp(tree, 'write');
    put(tree, 'src/b.ts', '');
    expect(stamp(tree, 'check')).toBe(1);
    stamp(tree, 'write');
    put(tree, 'package-lock.json', '{"lockfileVersion":3}');
    expect(stamp(tree, 'check')).toBe(1);
  });
});
