/**
 * Every command that reads a TSL spec prints its warnings — `tslc check` included, the command the
 * README recommends for CI (it used to drop them): on stderr with the source line, or as
 * `warnings` in its `--json` output. The README's example is TSL's precedence warning for
 * `a(x) -> b(x) W c(x)`.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTslc } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'tslc-warnings-'));
const mixed = join(dir, 'mixed.tsl');
writeFileSync(mixed, 'always guarantee {\n  F g(x);\n  a(x) -> b(x) W c(x);\n}\n');
const WARNING = /mixed\.tsl:3:3: warning: "W" mixed with "->" without parentheses[^\n]*\n {4}a\(x\) -> b\(x\) W c\(x\);\n {4}\^+/;

describe('the precedence warning', () => {
  it('tslc check prints it on stderr, and the verdict line stays on stdout', async () => {
    const r = await runTslc('check', mixed, '--no-explain');
    expect(r.stderr).toMatch(WARNING);
    expect(r.stdout).toMatch(/mixed\.tsl: (realizable|unrealizable) \(/);
    expect(r.stdout).not.toMatch(/: warning:/);
  });

  it('tslc check --json puts it in the spec’s object', async () => {
    const r = await runTslc('check', mixed, '--json', '--no-explain');
    const line = JSON.parse(r.stdout.trim()) as { file: string; warnings?: Array<Record<string, unknown>> };
    expect(line.file).toBe(mixed);
    expect(line.warnings).toEqual([expect.objectContaining({ severity: 'warning', code: 'precedence', file: mixed, line: 3, col: 3 })]);
    expect(r.stderr).toBe('');
  });

  it('tslc explain and tslc compile print it too', async () => {
    const explained = await runTslc('explain', mixed);
    expect(explained.stderr).toMatch(WARNING);
    const compiled = await runTslc('compile', mixed, '-o', join(dir, 'out'));
    expect(compiled.stderr).toMatch(WARNING);
  });
});
