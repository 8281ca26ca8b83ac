// Issue 18, items 2 and 3 for TLSF: deep nesting is read without recursion (10× the depths that
// crashed the recursive parser and evaluator), and --timeout bounds the front end's expansion.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Formula, ap, G, implies, not } from '../../src/ltl/formula.js';
import { loadTlsfGame, parseParamAssignments, parseTlsf } from '../../src/tlsf/index.js';
import { runTslc } from '../support/cli.js';

const HEAD = 'INFO { TITLE: "t" DESCRIPTION: "d" SEMANTICS: Mealy TARGET: Mealy }\n';
const a = ap('a');
const g = ap('g');
const only = (text: string): Formula => parseTlsf('deep.tlsf', text).guarantee[0].formula;

describe('deep nesting (no recursion in the parser or the evaluator)', () => {
  it('parses 5,100 nested parentheses', () => {
    const text = `${HEAD}MAIN { INPUTS { a; } OUTPUTS { g; } GUARANTEE { G ${'('.repeat(5100)}a -> g${')'.repeat(5100)}; } }`;
    expect(only(text)).toBe(G(implies(a, g)));
  });
  it('evaluates 20,000 chained && as one conjunction', () => {
    const operands = Array.from({ length: 20000 }, (_, i) => `r[${i}]`).join(' && ');
    const text = `${HEAD}MAIN { INPUTS { r[20000]; } OUTPUTS { g; } GUARANTEE { ${operands}; } }`;
    const f = only(text);
    expect(f.kind).toBe('and');
    const names = new Set(f.kind === 'and' ? f.args.map((x) => (x.kind === 'ap' ? x.name : '')) : []);
    expect(names.size).toBe(20000);
    for (let i = 0; i < 20000; i++) expect(names.has(`r_${i}`)).toBe(true);
  });
  it('evaluates 48,000 prefix negations and a 20,000-deep chain of ->', () => {
    expect(only(`${HEAD}MAIN { INPUTS { a; } OUTPUTS { g; } GUARANTEE { ${'!'.repeat(48001)}a; } }`)).toBe(not(a));
    const chain = only(`${HEAD}MAIN { INPUTS { a; } OUTPUTS { g; } GUARANTEE { ${'a -> '.repeat(20000)}g; } }`);
    let depth = 0;
    for (let f = chain; f.kind === 'implies'; f = f.right) depth++;
    // a -> (a -> … g) folds its innermost a -> (a -> g) no further: every level stays.
    expect(depth).toBe(20000);
  });
  it('nests definitions that call one another thousands deep', () => {
    const defs = Array.from({ length: 3000 }, (_, i) => `d${i} = ${i === 2999 ? 'a' : `d${i + 1}`};`).join(' ');
    const text = `${HEAD}GLOBAL { DEFINITIONS { ${defs} } }\nMAIN { INPUTS { a; } OUTPUTS { g; } GUARANTEE { d0; } }`;
    expect(only(text)).toBe(a);
  });
});

// A spec whose expansion takes far longer than any test: 400³ instances of a big operator.
const SLOW = `${HEAD}GLOBAL { PARAMETERS { n = 400; } }
MAIN { INPUTS { a; } OUTPUTS { g; }
  GUARANTEE { G (a -> &&[0 <= i < n] &&[0 <= j < n] &&[0 <= k < n] (i + j + k >= 0 -> g)); } }`;

describe('the deadline bounds the front end', () => {
  it('polls while expanding and stops when the poll throws', () => {
    let polls = 0;
    const stop = new Error('time is up');
    expect(() =>
      loadTlsfGame('slow.tlsf', SLOW, {
        poll: () => {
          if (++polls === 50) throw stop;
        },
      }),
    ).toThrow(stop);
    expect(polls).toBe(50);
  });
  it('check --timeout 2 answers unknown (timeout), exit 3, long before the expansion would end', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tslc-deadline-'));
    const file = join(dir, 'slow.tlsf');
    writeFileSync(file, SLOW);
    const started = performance.now();
    const r = await runTslc('check', file, '--timeout', '2');
    const seconds = (performance.now() - started) / 1000;
    expect(r.code).toBe(3);
    expect(r.stdout).toContain(`${file}: unknown (timeout)`);
    // The expansion alone needs minutes; a generous bound keeps the test robust on a busy machine.
    expect(seconds).toBeLessThan(30);
  }, 120_000);
  it('check --compose --timeout 2 gives up on the composed spec too', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tslc-deadline-'));
    const slow = join(dir, 'slow.tlsf');
    const small = join(dir, 'small.tlsf');
    writeFileSync(slow, SLOW);
    writeFileSync(small, `${HEAD}MAIN { INPUTS { b; } OUTPUTS { h; } GUARANTEE { G (b -> h); } }`);
    const started = performance.now();
    const r = await runTslc('check', slow, small, '--compose', '--timeout', '2', '--no-explain');
    expect(r.code).toBe(3);
    expect(r.stdout).toContain(`${slow}: unknown (timeout)`);
    expect(r.stdout).toContain(`${small}: realizable`);
    expect(r.stdout).toContain(`${slow} + ${small}: unknown (timeout)`);
    expect((performance.now() - started) / 1000).toBeLessThan(40);
  }, 120_000);
  it('synth --timeout 2 gives up the same way', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tslc-deadline-'));
    const file = join(dir, 'slow.tlsf');
    writeFileSync(file, SLOW);
    const r = await runTslc('synth', file, '--timeout', '2');
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('unknown (timeout)');
  }, 120_000);
});

describe('names from the user are never looked up on a plain object', () => {
  it('reads a MAIN section called constructor as an unknown section, not a crash', () => {
    expect(() => parseTlsf('x.tlsf', `${HEAD}MAIN { INPUTS { a; } constructor { a; } }`)).toThrow(
      "unknown MAIN section 'constructor' (expected INPUTS, OUTPUTS, INITIALLY, PRESET, REQUIRE, ASSUME, ASSERT or GUARANTEE)",
    );
  });
  it('treats --param __proto__=1 as an unknown parameter', () => {
    expect(() => parseTlsf('x.tlsf', `${HEAD}GLOBAL { PARAMETERS { n = 1; } }\nMAIN { INPUTS { a; } GUARANTEE { a; } }`, { params: parseParamAssignments(['__proto__=1']) })).toThrow(
      "--param __proto__: the file has no parameter '__proto__' (parameters: n)",
    );
  });
});
