/**
 * "Formula nested too deeply" is reported where the nesting crosses the limit, with a caret:
 * the bracket past MAX_BRACKET_DEPTH (the parser's recursion), the operator past
 * MAX_FORMULA_DEPTH operators inside each other (the checker's, with definitions expanded), or
 * the use of a definition whose expansion goes too deep. It used to be reported at 1:1.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { UserError } from '../../src/diagnostics/diagnostic.js';
import { MAX_FORMULA_DEPTH } from '../../src/tsl/depth.js';
import { loadTslGame } from '../../src/tsl/index.js';
import { MAX_BRACKET_DEPTH } from '../../src/tsl/parse.js';
import { runTslc } from '../support/cli.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

afterEach(() => {
  process.exitCode = undefined;
});

/** The diagnostic loading `text` gives, as `line:col message`, or 'loaded'. */
function outcome(text: string): string {
  try {
    loadTslGame('/t.tsl', text);
    return 'loaded';
  } catch (err) {
    if (!(err instanceof UserError)) throw err;
    const d = err.diagnostics[0];
    return `${d.span?.line}:${d.span?.col} ${d.message}`;
  }
}

/** Line 2, column of the `n`-th (1-based) occurrence of `token` in the formula line. */
function at(formula: string, token: string, n: number): string {
  let i = -1;
  for (let k = 0; k < n; k++) i = formula.indexOf(token, i + 1);
  return `2:${i + 3}`;
}

const spec = (formula: string, defs = '') => `${defs}always guarantee {\n  ${formula};\n}\n`;
const chain = (n: number, prefix = 'a') => Array.from({ length: n + 1 }, (_, i) => `${prefix}${i}`).join(' && ');

describe('brackets', () => {
  it(`${MAX_BRACKET_DEPTH} nested brackets load; one more is refused at that bracket`, () => {
    const nested = (n: number) => `${'('.repeat(n)}p x${')'.repeat(n)} -> [x <- f x]`;
    expect(outcome(spec(nested(MAX_BRACKET_DEPTH)))).toBe('loaded');
    const f = nested(MAX_BRACKET_DEPTH + 1);
    expect(outcome(spec(f))).toBe(`${at(f, '(', MAX_BRACKET_DEPTH + 1)} formula nested too deeply (more than ${MAX_BRACKET_DEPTH} brackets inside each other); split it into several formulas`);
  });

  it('function applications nest brackets too; brackets in comments and strings do not count', () => {
    const f = `p x -> [x <- ${'f('.repeat(300)}x${')'.repeat(300)}]`;
    // The update's `[` is the first level.
    expect(outcome(spec(f))).toBe(`${at(f, '(', MAX_BRACKET_DEPTH)} formula nested too deeply (more than ${MAX_BRACKET_DEPTH} brackets inside each other); split it into several formulas`);
    expect(outcome(`// ${'('.repeat(300)}\n/* ${'['.repeat(300)} */\n${spec('p x -> [x <- f x]')}`)).toBe('loaded');
  });

  it('block comments nested too deeply are refused at the opening that crosses the limit', () => {
    const text = `${'/*'.repeat(MAX_BRACKET_DEPTH + 1)}${'*/'.repeat(MAX_BRACKET_DEPTH + 1)}\n${spec('p x -> [x <- f x]')}`;
    expect(outcome(text)).toBe(`1:${2 * MAX_BRACKET_DEPTH + 1} comments nested too deeply (more than ${MAX_BRACKET_DEPTH} /* inside each other)`);
  });
});

describe('operators inside each other', () => {
  const message = `formula nested too deeply (more than ${MAX_FORMULA_DEPTH} operators inside each other); split it into several formulas`;

  it(`a chain of ${MAX_FORMULA_DEPTH} && loads; longer ones are refused at the operator ${MAX_FORMULA_DEPTH} + 1 levels down`, () => {
    expect(outcome(spec(chain(MAX_FORMULA_DEPTH)))).toBe('loaded');
    // Left-associative: the last && is the root, so the crossing one is the (n - limit)-th from the left.
    for (const n of [MAX_FORMULA_DEPTH + 1, MAX_FORMULA_DEPTH + 500, 20_000]) {
      const f = chain(n);
      expect(outcome(spec(f))).toBe(`${at(f, '&&', n - MAX_FORMULA_DEPTH)} ${message}`);
    }
  });

  it('right-nested temporal operators and prefix operators', () => {
    const until = Array.from({ length: MAX_FORMULA_DEPTH + 2 }, (_, i) => `a${i}`).join(' U ');
    expect(outcome(spec(until))).toBe(`${at(until, ' U ', MAX_FORMULA_DEPTH + 1).replace(/\d+$/, (c) => String(Number(c) + 1))} ${message}`);
    const nots = `${'!'.repeat(MAX_FORMULA_DEPTH + 1)}a`;
    expect(outcome(spec(nots))).toBe(`2:${MAX_FORMULA_DEPTH + 3} ${message}`);
    expect(outcome(spec(`${'!'.repeat(MAX_FORMULA_DEPTH)}a`))).toBe('loaded');
  });

  it('with definitions expanded: at the use whose expansion goes too deep', () => {
    const defs = `deep = ${chain(600, 'b')};\n`;
    // `deep` is the innermost operand of 500 &&s (left-associative), and adds 600 more.
    const f = `deep && ${chain(499)}`;
    // Line numbers shift by the definitions' line.
    const use = f.indexOf('deep') + 3;
    expect(outcome(spec(f, defs))).toBe(`3:${use} formula nested too deeply once "deep" is expanded (more than ${MAX_FORMULA_DEPTH} operators inside each other); split it into several formulas`);
    expect(outcome(spec(`deep && ${chain(299)}`, defs))).toBe('loaded');
  });

  it('through the argument of a definition: at the operator inside the argument', () => {
    const defs = 'twice x = x && x;\n';
    const f = `twice (${chain(MAX_FORMULA_DEPTH)})`;
    // `twice` adds one level above its argument: the crossing operator is the first && of the chain.
    expect(outcome(spec(f, defs))).toBe(`3:${f.indexOf('&&') + 3} ${message}`);
    expect(outcome(spec(`twice (${chain(MAX_FORMULA_DEPTH - 1)})`, defs))).toBe('loaded');
  });

  it('prefix operators past what the parser can take are refused before parsing, at the first one too many', () => {
    for (const [op, n] of [['!', 20_000], ['X ', 10_000], ['G F ', 6_000]] as const) {
      const f = `${op.repeat(n)}a`;
      const expected = 2 + MAX_FORMULA_DEPTH * (op.length === 1 ? 1 : 2) + 1;
      expect(outcome(spec(f)), op).toBe(`2:${expected} ${message}`);
    }
  });

  it('a definition too deep in an imported file is refused there, with where it was imported', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tslc-depth-'));
    const body = chain(MAX_FORMULA_DEPTH + 1);
    writeFileSync(join(dir, 'lib.tsl'), `deep = ${body};\n`);
    const main = join(dir, 'main.tsl');
    const text = `import "lib.tsl" as L\n${spec('L.deep')}`;
    try {
      loadTslGame(main, text);
      expect.unreachable();
    } catch (err) {
      const d = (err as UserError).diagnostics[0];
      expect([d.span?.file, d.span?.line, d.span?.col, d.message]).toEqual([join(dir, 'lib.tsl'), 1, 'deep = '.length + body.indexOf('&&') + 1, message]);
      expect(d.notes?.map((n) => [n.message, n.span?.file, n.span?.line])).toEqual([['imported here', main, 1]]);
    }
  });

  it('a definition body too deep is refused in the body, even unused', () => {
    const body = chain(MAX_FORMULA_DEPTH + 1);
    const text = `unused = ${body};\n${spec('p x -> [x <- f x]')}`;
    expect(outcome(text)).toBe(`1:${'unused = '.length + body.indexOf('&&') + 1} ${message}`);
  });

  it('the CLI shows the line with a caret under the operator', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tslc-depth-'));
    const file = join(dir, 'deep.tsl');
    const f = chain(MAX_FORMULA_DEPTH + 1);
    writeFileSync(file, spec(f));
    const r = await runTslc('check', file);
    expect(r.code).toBe(2);
    const col = f.indexOf('&&') + 3;
    expect(r.stderr).toContain(`${file}:2:${col}: error: ${message}\n`);
    const lines = r.stderr.split('\n');
    const caret = lines.find((l) => /^\s*\^+\s*$/.test(l))!;
    expect(lines[lines.indexOf(caret) - 1][caret.indexOf('^')]).toBe('&');
  });
});
