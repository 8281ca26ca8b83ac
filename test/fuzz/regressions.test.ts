/**
 * Inputs the fuzz test found, each kept as a plain test so that it stays fixed whatever the
 * generators produce later: the CLI run as a user runs it, judged by the fuzz oracle's own rules
 * (exit code, no stack trace, a located error with its source line and a caret).
 */
import { describe, expect, it } from 'vitest';
import { CLI_BUILT, caretProblem, runCli } from './cli.js';

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
});
