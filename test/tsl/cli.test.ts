/**
 * The TSL commands, run in-process: `tslc parse|fmt|symbols|tlsf|ltl`, their `--json`, and the
 * exit code 2 + located diagnostic for a user mistake.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runTslc } from '../support/cli.js';

const specs = join(import.meta.dirname, '../../specs');
const dir = mkdtempSync(join(tmpdir(), 'tslc-cli-'));

const tslc = runTslc;

afterEach(() => {
  process.exitCode = undefined;
});

describe('tslc TSL commands', () => {
  it('symbols --json prints the table', async () => {
    // The version of choices.tsl from before #LIA, whose threshold is a boolean input.
    const r = await tslc('symbols', 'test/fixtures/theories/choices-handwritten.tsl', '--json');
    expect(r.code).toBe(0);
    const table = JSON.parse(r.stdout);
    expect(table.inputs).toEqual(['safeThreshold', 's', 'safe']);
    expect(table.cells).toEqual(['safeCount']);
    expect(table.predicates).toEqual([
      { name: 'inCave', arity: 1 },
      { name: 'inTown', arity: 1 },
    ]);
  });

  it('ltl prints a Spot formula and the --ins/--outs for ltlsynt', async () => {
    const r = await tslc('ltl', join(specs, 'forest.tsl'));
    expect(r.code).toBe(0);
    const [formula, flags] = r.stdout.trimEnd().split('\n');
    expect(formula).toContain('u_storyPassage_toForest_s');
    expect(flags).toBe('--ins= --outs=u_storyPassage_toForest_s,u_storyPassage_storyPassage');
    const json = JSON.parse((await tslc('ltl', join(specs, 'forest.tsl'), '--json')).stdout);
    expect(json.formula).toBe(formula);
    expect(json.outs).toEqual(['u_storyPassage_toForest_s', 'u_storyPassage_storyPassage']);
  });

  it('tlsf --names tsltools uses tsl2tlsf names', async () => {
    const r = await tslc('tlsf', join(specs, 'forest.tsl'), '--names', 'tsltools');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('u0story2passage0f1dto2forest0s1b;');
    expect(r.stdout).toContain('SEMANTICS:   Mealy');
  });

  it('fmt prints canonical text; --check tells formatted from unformatted files', async () => {
    const messy = join(dir, 'messy.tsl');
    writeFileSync(messy, 'guarantee { a->b W c ; p(x,y) }');
    const r = await tslc('fmt', messy);
    expect(r.stdout).toBe('guarantee {\n  (a -> b) W c;\n  p x y;\n}\n');
    expect((await tslc('fmt', messy, '--check')).code).toBe(1);
    await tslc('fmt', messy, '--write');
    expect(readFileSync(messy, 'utf8')).toBe(r.stdout);
    expect((await tslc('fmt', messy, '--check')).code).toBe(0);
  });

  it('fmt --check and --write take several files; a broken one is reported and the others are still done', async () => {
    const tidy = join(dir, 'tidy.tsl');
    const messy = join(dir, 'messy2.tsl');
    const broken = join(dir, 'broken.tsl');
    writeFileSync(tidy, 'guarantee {\n  p(x, y);\n}\n');
    writeFileSync(messy, 'guarantee { p(x,y) }');
    writeFileSync(broken, 'guarantee { p(x,, }');
    const checked = await tslc('fmt', tidy, messy, '--check', '--style', 'call');
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain(`${messy}: not formatted (run tslc fmt --write --style call ${messy})`);
    expect(checked.stderr).not.toContain(`${tidy}:`);
    // Printing several files would run them together: that needs --write or --check.
    expect((await tslc('fmt', tidy, messy)).code).toBe(2);
    const written = await tslc('fmt', broken, messy, '--write', '--style', 'call');
    expect(written.code).toBe(2);
    expect(written.stderr).toMatch(/broken\.tsl:1:\d+: error/);
    expect(readFileSync(messy, 'utf8')).toBe('guarantee {\n  p(x, y);\n}\n');
    expect((await tslc('fmt', tidy, messy, '--check', '--style', 'call')).code).toBe(0);
  });

  it('every shipped spec is formatted (what CI checks with npm run fmt:check)', async () => {
    const { readdirSync } = await import('node:fs');
    const files = [specs, join(specs, 'conflicts'), join(specs, 'unrealizable')].flatMap((d) =>
      readdirSync(d).filter((f) => f.endsWith('.tsl')).map((f) => join(d, f)),
    );
    expect(files.length).toBeGreaterThan(10);
    const r = await tslc('fmt', ...files, '--check', '--style', 'call');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('fmt output of long chains is read again (1,000-term U and R chains by symbols, 20,000-term && by fmt --check)', async () => {
    const chainOf = (name: string, op: string, n: number) => {
      const file = join(dir, `${name}-chain.tsl`);
      writeFileSync(file, `guarantee {\n  ${Array.from({ length: n }, (_, i) => `a${i}`).join(` ${op} `)};\n}\n`);
      return file;
    };
    const formatted = async (file: string) => {
      const r = await tslc('fmt', file);
      expect(r.code, r.stderr).toBe(0);
      const out = file.replace(/\.tsl$/, '.fmt.tsl');
      writeFileSync(out, r.stdout);
      return out;
    };
    for (const op of ['U', 'R']) {
      const symbols = await tslc('symbols', await formatted(chainOf(op, op, 1000)), '--json');
      expect(symbols.code, symbols.stderr).toBe(0);
      expect(JSON.parse(symbols.stdout).inputs).toHaveLength(1000);
    }
    const check = await tslc('fmt', await formatted(chainOf('and', '&&', 20000)), '--check');
    expect(check.code, check.stderr).toBe(0);
  });

  it('parse of a formula too deep to print as JSON is a located user error, not a crash', async () => {
    const deep = join(dir, 'deep-chain.tsl');
    writeFileSync(deep, `guarantee {\n  ${Array.from({ length: 20000 }, (_, i) => `a${i}`).join(' && ')};\n}\n`);
    const r = await tslc('parse', deep);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^${deep}:2:3: error: formula nested too deeply`));
  });

  it('parse prints the AST', async () => {
    const r = await tslc('parse', join(specs, 'forest.tsl'));
    const ast = JSON.parse(r.stdout);
    expect(ast.sections[0]).toMatchObject({ kind: 'guarantee', time: 'initially' });
    expect(ast.sections[0].formulas[0]).toMatchObject({ kind: 'update', target: 'storyPassage' });
  });

  it('a user mistake exits 2 with file:line:col, the line and a caret', async () => {
    const bad = join(dir, 'bad.tsl');
    writeFileSync(bad, 'guarantee {\n  p x;\n  p x y;\n}\n');
    for (const command of ['symbols', 'tlsf', 'ltl']) {
      const r = await tslc(command, bad);
      expect(r.code).toBe(2);
      expect(r.stderr.split('\n').slice(0, 3)).toEqual([
        `${bad}:3:3: error: predicate "p" is used with 2 arguments here but with 1 before`,
        '    p x y;',
        '    ^',
      ]);
    }
    const json = await tslc('symbols', bad, '--json');
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout).errors[0]).toMatchObject({ file: bad, line: 3, col: 3, severity: 'error' });
  });

  it('a missing ";" between formulas is an error at the gap, exit 2, for check too', async () => {
    const gap = join(dir, 'gap.tsl');
    writeFileSync(gap, 'guarantee {\n  F p(x) F q(x);\n}\n');
    for (const command of ['check', 'symbols', 'parse']) {
      const r = await tslc(command, gap);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.split('\n').slice(0, 3)).toEqual([`${gap}:2:9: error: expected ";" between formulas`, '    F p(x) F q(x);', '          ^']);
    }
  });

  it('a missing file is a user error too', async () => {
    const r = await tslc('parse', join(dir, 'nope.tsl'));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no such file');
  });
});
