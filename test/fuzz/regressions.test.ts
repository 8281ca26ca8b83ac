/**
 * Inputs the fuzz test found, each kept as a plain test so that it stays fixed whatever the
 * generators produce later: the CLI run as a user runs it, judged by the fuzz oracle's own rules
 * (exit code, no stack trace, a located error with its source line and a caret).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_BUILT, caretProblem, runCli } from './cli.js';

const dir = mkdtempSync(join(tmpdir(), 'tslc-fuzz-regressions-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

const limits = { timeoutMs: 60_000, heapMb: 512, rssMb: 1500 };

describe.skipIf(!CLI_BUILT)('fuzz findings (built CLI)', () => {
  it('check --ltl: a syntax error shows the formula and a caret (was `<formula>:1:1: error: …` alone)', async () => {
    const r = await runCli({ argv: ['check', '--ltl="]G[0:2]((grant) \\/ req) -> ([](q))', '--ins', 'a,b,req', '--outs', 'c,grant,p,q'] }, limits);
    expect([r.outcome, r.code]).toEqual(['error', 2]);
    expect(r.stderr).toMatch(/^<formula>:1:1: error: unterminated quoted atom\n {2}"\]G\[0:2\]/);
    expect(caretProblem(r.stderr)).toBeUndefined();
  });

  it('check --ltl: an atom in neither --ins nor --outs is underlined in the formula', async () => {
    const r = await runCli({ argv: ['check', '--ltl', 'G (a -> F zz)', '--ins', 'a', '--outs', 'b'] }, limits);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n').slice(0, 3)).toEqual([
      "<formula>:1:11: error: atomic proposition 'zz' is neither an input (--ins) nor an output (--outs)",
      '  G (a -> F zz)',
      '            ^^',
    ]);
  });

  describe('rules.json errors are located in the file, with a caret (were `error: rules.json: …` alone)', () => {
    const log = () => file('log.jsonl', '{"run":"x","a":true,"b":false}\n');
    it.each([
      ['a formula that does not parse', '{\n  "properties": {\n    "p": "G (a -> "\n  }\n}\n', ":3:19: error: property 'p': unexpected end of formula"],
      ['a formula after JSON escapes', '{ "properties": [ {"name": "q", "formula": "G \\"x\\ty\\" & & b"} ] }', ":1:58: error: property 'q': expected an operand, found '&'"],
      ['JSON that does not parse', '{ "properties": { "p": "G a" }, }', ':1:33: error: not valid JSON: '],
      ['a property without a formula', '{ "properties": { "p": 3 } }', `:1:24: error: property 'p' needs a "formula"`],
    ])('%s', async (_, rules, message) => {
      const path = file('rules.json', rules);
      for (const argv of [['audit', '--spec', path, log()], ['shield', 'mcp', '--rules', path, '--', 'true']]) {
        const r = await runCli({ argv, located: true }, limits);
        expect([r.outcome, r.code], r.stderr).toEqual(['error', 2]);
        expect(r.stderr.startsWith(`${path}${message}`), r.stderr).toBe(true);
        expect(caretProblem(r.stderr)).toBeUndefined();
      }
    });
  });

  it('TSL nested too deeply: located at the deep formula, not at 1:1', async () => {
    const chain = file('chain.tsl', `// a long chain\nguarantee {\n  G p x;\n  ${Array.from({ length: 5100 }, (_, i) => `p x${i % 7}`).join(' -> ')};\n}\n`);
    const parens = file('parens.tsl', `guarantee {\n  G p x;\n  ${'('.repeat(3000)}p x${')'.repeat(3000)};\n}\n`);
    // On the line of the deep formula (the column is where it crosses the nesting limit).
    for (const [path, line] of [[chain, 4], [parens, 3]] as const) {
      for (const command of ['check', 'tlsf', 'symbols']) {
        const r = await runCli({ argv: [command, path], located: true }, limits);
        expect([r.outcome, r.code], r.stderr).toEqual(['error', 2]);
        expect(r.stderr.startsWith(`${path}:${line}:`) && /^\S+:\d+:\d+: error: formula nested too deeply/.test(r.stderr), r.stderr.slice(0, 300)).toBe(true);
        expect(caretProblem(r.stderr)).toBeUndefined();
      }
    }
  });

  it('audit: a rule `a xor b xor …` is read in linear time and its verdict printed (22 operators hung, 999 crashed)', async () => {
    const log = file('xor.jsonl', '{"run":"x","a":true,"b":false,"c":true}\n{"run":"x","a":false,"b":false,"c":true}\n');
    const chain = (n: number) => Array.from({ length: n }, (_, i) => 'abc'[i % 3]).join(' xor ');
    // The chain is the parity of its true atoms: 22 atoms have 15 true at the first event and 7 at
    // the second (holds throughout: pending), 999 atoms have 666 true at the first (violated).
    for (const [n, code, violated] of [[22, 0, '0'], [999, 1, '1']] as const) {
      const rules = file(`xor${n}.ltl`, `r: G (${chain(n)})\n`);
      const r = await runCli({ argv: ['audit', '--spec', rules, '--missing', 'false', log] }, { ...limits, timeoutMs: 20_000 });
      expect([r.outcome, r.code], r.stderr).toEqual(['ok', code]);
      // The row: name, kind (safety/liveness/other), runs, violated.
      expect(r.stdout).toMatch(new RegExp(`\\n\\s*r\\s+\\w+\\s+1\\s+${violated}\\s`));
    }
  }, 60_000);

  it('TLSF: an arithmetic overflow is located at the expression (was `error: arithmetic overflow` alone)', async () => {
    const spec = file(
      'overflow.tlsf',
      'INFO {\n  TITLE: "t"\n  DESCRIPTION: "d"\n  SEMANTICS: Mealy\n  TARGET: Mealy\n}\nGLOBAL { PARAMETERS { n = 2147483648; } }\nMAIN {\n  INPUTS { a; }\n  OUTPUTS { b; }\n  GUARANTEES {\n    n * n * n * n > 0 -> b;\n  }\n}\n',
    );
    const r = await runCli({ argv: ['check', spec], located: true }, limits);
    expect([r.outcome, r.code], r.stderr).toEqual(['error', 2]);
    expect(r.stderr.split('\n').slice(0, 3)).toEqual([`${spec}:12:5: error: arithmetic overflow (4611686018427388000)`, '      n * n * n * n > 0 -> b;', '      ^^^^^']);
  });
});
