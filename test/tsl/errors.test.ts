/**
 * Malformed TSL inputs: each must produce exactly this error (line:col and message), as a
 * UserError — never a crash. The positions are 1-based, as editors show them.
 */
import { describe, expect, it } from 'vitest';
import { formatDiagnostic, UserError } from '../../src/diagnostics/diagnostic.js';
import { loadTslGame } from '../../src/tsl/index.js';

/** Imports resolve against this in-memory file system: only `lib.tsl` exists. */
function readFile(path: string): string {
  if (path.endsWith('/lib.tsl')) return 'x = a;\nflag = b;';
  throw new Error(`ENOENT: ${path}`);
}

const cases: readonly [source: string, where: string, message: string][] = [
  ['guarantee { a -> }', '1:18', 'unexpected "}"; expected a formula or term'],
  ['guarantee { a && ; }', '1:18', 'unexpected ";"; expected a formula or term'],
  ['guarantee { (a || b; }', '1:20', 'unexpected ";"; expected a formula or term, an operator or ")"'],
  ['guarantee { a || b); }', '1:19', 'unmatched ")"'],
  ['guarantee {\n  a;\n', '3:1', 'unexpected end of file: "{" at 1:11 is never closed'],
  ['guarantee { [x <- ] }', '1:19', 'unexpected "]"; expected a formula or term'],
  ['guarantee { [x y] }', '1:16', 'unexpected "y"; expected "<-"'],
  ['guarantee { [x <- y }', '1:21', 'unexpected "}": "[" at 1:13 is not closed'],
  ['guarantee { p(x, ) }', '1:18', 'unexpected ")"; expected a formula or term'],
  ['guarantee { p(x y }', '1:19', 'unexpected "}": "(" at 1:14 is not closed'],
  ['guarantee { a } }', '1:17', 'unmatched "}"'],
  ['guarantee { G }', '1:15', 'unexpected "}"; expected a formula or term'],
  ['guarantee { a U }', '1:17', 'unexpected "}"; expected a formula or term'],
  ['guarantee { a /* never closed\n }', '1:15', 'unterminated /* comment'],
  [
    '#FOO\nguarantee { a }',
    '1:1',
    'unexpected "#"; expected "always", "assume", "guarantee", "import", "initially", definition, end of file or theory header',
  ],
  ['guarantee a', '1:11', 'unexpected "a"; expected "{"'],
  ['always { a }', '1:8', 'unexpected "{"; expected "assume" or "guarantee"'],
  ['import "x.tsl"\nguarantee { a }', '2:1', 'unexpected "g"; expected "as"'],
  ['guarantee { a ;; b c ] }', '1:22', 'unmatched "]"'],
  ['guarantee { x + 1; }', '1:13', '"+" computes a value, not a formula; compare it (e.g. "= 3") or use it in an update'],
  ['guarantee { 3; }', '1:13', 'the number 3 is not a formula'],
  ['guarantee { p x; p x y; }', '1:18', 'predicate "p" is used with 2 arguments here but with 1 before'],
  ['guarantee { [y <- f x]; [y <- f x z]; }', '1:31', 'function "f" is used with 2 arguments here but with 1 before'],
  ['guarantee { p x; [y <- p x]; }', '1:24', '"p" is used as a function here but as a predicate elsewhere'],
  ['guarantee { p x; [p <- y]; }', '1:19', 'cannot update "p": it is used as a predicate, and only signals can be updated'],
  ['guarantee { [y <- f x]; [f <- y]; }', '1:26', 'cannot update "f": it is used as a function, and only signals can be updated'],
  ['guarantee { p x; q p; }', '1:20', '"p" is used as a signal here but is applied to arguments elsewhere'],
  ['guarantee { p (a && b); }', '1:15', 'the operator "&&" cannot be used inside a term'],
  ['guarantee { p [x <- y]; }', '1:15', 'an update cannot be used inside a term'],
  ['guarantee { [x <- a U b]; }', '1:19', 'the operator "U" cannot be used inside a term'],
  ['import "missing.tsl" as M\nguarantee { a }', '1:8', 'unknown import "missing.tsl": no such file'],
  ['import "lib.tsl" as L\nguarantee { L.nothing }', '2:13', '"nothing" is not defined in import "L"'],
  ['f x = p x;\nguarantee { f a b; }', '2:13', '"f" is defined with 1 parameter but used with 2 arguments'],
  ['A = B;\nB = A;\nguarantee { A; }', '2:5', 'definition "A" refers to itself'],
  ['A = a;\nA = b;\nguarantee { A; }', '2:1', '"A" is defined twice'],
  ['guarantee { add x; }', '1:13', 'predicate "add" (built in) takes 2 arguments, but is given 1'],
  ['guarantee { [x <- x + 1 2]; }', '1:25', 'unexpected "2"; expected an operator or "]"'],
  // A missing `;` between two formulas is reported at the gap (it used to read as two formulas).
  ['guarantee { F p(x) F q(x); }', '1:19', 'expected ";" between formulas'],
  ['guarantee {\n  G p x\n  F q x\n}', '2:8', 'expected ";" between formulas'],
  ['always guarantee { [o <- a] [o <- b]; }', '1:28', 'expected ";" between formulas'],
  ['guarantee { (a && b) c; }', '1:21', 'expected ";" between formulas'],
  ['guarantee { a -> b !c; }', '1:19', 'expected ";" between formulas'],
  ['guarantee { true false }', '1:17', 'expected ";" between formulas'],
  ['guarantee { a -> <- b; }', '1:18', 'unexpected "<"; expected a formula or term'],
  ['guarantee { a = = b; }', '1:17', 'unexpected "="; expected a formula or term'],
];

function firstError(source: string): { where: string; message: string; rendered: string } {
  try {
    loadTslGame('/specs/spec.tsl', source, { readFile });
  } catch (err) {
    if (!(err instanceof UserError)) throw err;
    const d = err.diagnostics[0];
    return { where: `${d.span?.line}:${d.span?.col}`, message: d.message, rendered: formatDiagnostic(d, source) };
  }
  throw new Error(`no error for ${JSON.stringify(source)}`);
}

describe('malformed TSL', () => {
  it('has at least 30 cases', () => expect(cases.length).toBeGreaterThanOrEqual(30));

  it.each(cases)('%j → %s %s', (source, where, message) => {
    const got = firstError(source);
    expect(`${got.where}: ${got.message}`).toBe(`${where}: ${message}`);
    // Rendered as file:line:col: error: message, the source line, and a caret under the column.
    const [head, line, caret] = got.rendered.split('\n');
    expect(head).toBe(`/specs/spec.tsl:${where}: error: ${message}`);
    const col = Number(where.split(':')[1]);
    expect(caret.indexOf('^')).toBe(col + 1);
    expect(line.startsWith('  ')).toBe(true);
  });

  it('reports every checking error at once, in source order', () => {
    try {
      loadTslGame('/specs/spec.tsl', 'guarantee { p x; p x y;\n 3; }', { readFile });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(UserError);
      expect((err as UserError).diagnostics.map((d) => `${d.span?.line}:${d.span?.col}`)).toEqual(['1:18', '2:2']);
    }
  });
});
