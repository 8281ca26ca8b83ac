/**
 * setV8Flags (src/synthesis/v8-flags.ts): sets a V8 flag through the v8 binding without a
 * deprecation warning and without loading node:v8, and through node:v8 where the binding is gone.
 * Each case runs in a child process of its own (a flag, once set, stays set for the process), on
 * the compiled module; skips without a build.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const compiled = join(import.meta.dirname, '../../dist/src/synthesis/v8-flags.js');

/** Sets --allow-natives-syntax with setV8Flags, then tries `%IsSmi(1)` (parsed only with that flag on). */
function probe(before: string, after = ''): { natives: unknown; v8Loaded: boolean; stderr: string; status: number | null } {
  const script = `${before}
    const { setV8Flags } = await import(${JSON.stringify(pathToFileURL(compiled).href)});
    let before; try { before = eval('%IsSmi(1)'); } catch (err) { before = err.name; }
    setV8Flags('--allow-natives-syntax');
    let now; try { now = eval('%IsSmi(1)'); } catch (err) { now = err.name; }
    ${after}
    process.stdout.write(JSON.stringify({ natives: [before, now], v8Loaded: process.moduleLoadList.includes('NativeModule v8') }));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
  const out = r.status === 0 ? (JSON.parse(r.stdout) as { natives: unknown; v8Loaded: boolean }) : { natives: undefined, v8Loaded: false };
  return { ...out, stderr: r.stderr, status: r.status };
}

describe.skipIf(!existsSync(compiled))('setV8Flags', () => {
  it('sets the flag through the binding: no node:v8, no DEP0111 warning', () => {
    const r = probe('');
    expect(r.status, r.stderr).toBe(0);
    expect(r.natives).toEqual(['SyntaxError', true]);
    expect(r.v8Loaded).toBe(false);
    expect(r.stderr).toBe('');
  });

  it('leaves deprecation warnings on for everything after it', () => {
    // process.noDeprecation is held only for the binding's lookup: a later deprecated call warns.
    const r = probe('', "process.emitWarning('later', 'DeprecationWarning', 'DEP_TEST');");
    expect(r.status).toBe(0);
    expect(r.natives).toEqual(['SyntaxError', true]);
    expect(r.stderr).toContain('[DEP_TEST] DeprecationWarning: later');
    expect(r.stderr).not.toContain('DEP0111');
  });

  it('falls back to node:v8 where process.binding is gone', () => {
    const r = probe('process.binding = undefined;');
    expect(r.status, r.stderr).toBe(0);
    expect(r.natives).toEqual(['SyntaxError', true]);
    expect(r.v8Loaded).toBe(true);
  });

  it("falls back to node:v8 where the binding has no setFlagsFromString", () => {
    const r = probe("process.binding = () => ({});");
    expect(r.status, r.stderr).toBe(0);
    expect(r.natives).toEqual(['SyntaxError', true]);
    expect(r.v8Loaded).toBe(true);
  });
});
