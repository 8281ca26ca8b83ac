import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic, UserError } from '../../src/diagnostics/diagnostic.js';
import { loadTlsfGame } from '../../src/tlsf/index.js';
import { corpusPath } from '../support/corpus.js';

const HEAD = 'INFO { TITLE: "t" DESCRIPTION: "d" SEMANTICS: Mealy TARGET: Mealy }\n';

function firstDiagnostic(text: string) {
  try {
    loadTlsfGame('bad.tlsf', text);
  } catch (e) {
    if (e instanceof UserError) return e.diagnostics[0];
    throw e;
  }
  throw new Error('expected a UserError');
}

describe('malformed TLSF', () => {
  // [source, line, col, message]
  const cases: [string, number, number, string][] = [
    ['MAIN {}', 1, 1, "expected 'INFO' at the start of a TLSF file, found 'MAIN'"],
    [HEAD + 'MAIN { INPUTS { a; } GUARANTEE { a -> ; } }', 2, 39, "expected an operand, found ';'"],
    [HEAD + 'MAIN { INPUTS { a; }\n  GUARANTEE { G (a && b); } }', 3, 23, "unknown identifier 'b'"],
    [HEAD + 'MAIN { OUTPUTS { g; } GUARANTEE { g b; } }', 2, 37, "expected ';' after a formula in GUARANTEE, found 'b'"],
    [HEAD + 'MAIN { INPUTS { a b; } }', 2, 17, "unknown enum 'a'"],
    [HEAD + 'MAIN { INPUTS { a; a; } }', 2, 20, "'a' is defined twice"],
    [HEAD + 'MAIN { INPUTS { r[2]; } GUARANTEE { r[2]; } }', 2, 37, "index 2 is out of range for bus 'r' of width 2"],
    [HEAD + 'MAIN { INPUTS { a; } GUARANTEE { a[0]; } }', 2, 34, "'a' is not a bus; only buses can be indexed"],
    [HEAD + 'MAIN { INPUTS { a; } GUARANTEE { 1 + 2; } }', 2, 34, 'expected a formula, but this is a number'],
    [HEAD + 'MAIN { INPUTS { a; } GUARANTEE { a U; } }', 2, 37, "expected an operand, found ';'"],
    [HEAD + 'MAIN { INPUTS { a; } GUARANTEE { a S a; } }', 2, 36, "past-time operator 'S' is not supported by tslc"],
    [HEAD + 'MAIN { FOO { a; } }', 2, 8, "unknown MAIN section 'FOO' (expected INPUTS, OUTPUTS, INITIALLY, PRESET, REQUIRE, ASSUME, ASSERT or GUARANTEE)"],
    [HEAD + 'GLOBAL { DEFINITIONS { f(x) = f(x); } }\nMAIN { INPUTS { a; } GUARANTEE { f(1); } }', 2, 31, "'f' calls itself with the same arguments (1): the recursion never ends"],
    [HEAD + 'GLOBAL { DEFINITIONS { d = e; e = d; } }\nMAIN { INPUTS { a; } GUARANTEE { d; } }', 2, 35, "the definition of 'd' depends on itself"],
    [HEAD + 'GLOBAL { PARAMETERS { n = 1 / 0; } }\nMAIN { }', 2, 31, 'division by zero'],
    [HEAD + 'MAIN { INPUTS { a; } GUARANTEE { &&[i <- {1,2}] a[i]; } }', 2, 49, "'a' is not a bus; only buses can be indexed"],
    ['INFO { TITLE: "t" SEMANTICS: Mealy }\nMAIN {}', 1, 1, 'the INFO section has no TARGET field (Mealy or Moore)'],
    ['INFO { SEMANTICS: Mealy, Lax TARGET: Mealy }', 1, 26, "expected 'Strict' after ',', found 'Lax'"],
    [HEAD + 'MAIN { INPUTS { a; } /* open', 2, 22, 'unterminated comment'],
    [HEAD + 'MAIN { INPUTS { X; } }', 2, 17, "'X' is a reserved word and cannot be used as a signal name in INPUTS"],
    [HEAD + 'MAIN { INPUTS { a; } GUARANTEE { (a; } }', 2, 36, "expected ')' to close the '(' at 2:34, found ';'"],
    [HEAD + 'MAIN { INPUTS { a; } GUARANTEE { a $ a; } }', 2, 36, "unexpected character '$'"],
  ];
  for (const [text, line, col, message] of cases) {
    it(`${line}:${col} ${message}`, () => {
      const d = firstDiagnostic(text);
      expect(d.message).toBe(message);
      expect(d.span).toMatchObject({ file: 'bad.tlsf', line, col });
    });
  }
  it('renders file:line:col with the source line and a caret', () => {
    const text = HEAD + 'MAIN { INPUTS { a; }\n  GUARANTEE { G (a && b); } }';
    expect(formatDiagnostic(firstDiagnostic(text), text)).toBe(
      "bad.tlsf:3:23: error: unknown identifier 'b'\n    GUARANTEE { G (a && b); } }\n                        ^",
    );
  });
});

/** Seeded mutations of small corpus files: the reader must answer with diagnostics, never crash. */
describe('fuzzing the TLSF reader', () => {
  const dir = corpusPath('syntcomp-tsl-paper');
  const seeds = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.tlsf'))
        .map((f) => readFileSync(`${dir}/${f}`, 'utf8'))
        .filter((t) => t.length < 2500)
        .slice(0, 12)
    : [];
  seeds.push(
    HEAD + 'GLOBAL { PARAMETERS { n = 2; } DEFINITIONS { f(x) = x == 0 : x  otherwise : !x; S = {0, 1 .. n}; } }\n' +
      'MAIN { INPUTS { r[n]; } OUTPUTS { g[n]; } REQUIRE { r[0]; } GUARANTEE { &&[i <- S, i < n] G (r[i] -> F[0:2] g[i]) U X[1] g[0]; } }',
  );
  const fragments = ['(', ')', '{', '}', '[', ']', ';', '&&', '||', '->', 'U', 'G', 'X[', '<-', '..', ':', '0', '99', 'n', '/*', '"', 'MAIN', '@', ',', '=='];
  it('produces only UserError diagnostics for 2000 mutated inputs', () => {
    let state = 0x2f6b1d3;
    const rand = (n: number) => {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      return Math.abs(state) % n;
    };
    let rejected = 0;
    for (let i = 0; i < 2000; i++) {
      let s = seeds[i % seeds.length];
      for (let k = 0, edits = 1 + rand(3); k < edits; k++) {
        const at = rand(s.length + 1);
        const op = rand(3);
        if (op === 0) s = s.slice(0, at) + fragments[rand(fragments.length)] + s.slice(at);
        else if (op === 1) s = s.slice(0, at) + s.slice(at + 1 + rand(8));
        else s = s.slice(0, at) + s.slice(rand(s.length), rand(s.length)) + s.slice(at);
      }
      try {
        loadTlsfGame('fuzz.tlsf', s);
      } catch (e) {
        if (!(e instanceof UserError)) throw new Error(`crash on mutation ${i}: ${String(e)}\n${s}`);
        for (const d of e.diagnostics) if (d.span) expect(d.span.line).toBeGreaterThanOrEqual(1);
        rejected++;
      }
    }
    expect(rejected).toBeGreaterThan(500);
  });
});
