/** `tslc agent validate`: per-example verdicts, --json, and exit codes CI can use (0 / 1 / 2). */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTslc } from '../support/cli.js';

const SPEC = 'examples/agents/prompts/react-tools.sexp';
const EXAMPLES = 'examples/agents/prompts/react-examples.txt';
const dir = mkdtempSync(join(tmpdir(), 'tslc-agent-validate-'));
const file = (name: string, text: string): string => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
const GOOD = 'Question: q\nThought: a\nAction: Search\nAction Input: b\nObservation: c\nFinal Thought: d\nAnswer: e\n';

describe('tslc agent validate', () => {
  it('exit 1 when some example is rejected; each rejection at file:line:col with the line, a caret and what was allowed', async () => {
    const r = await runTslc('agent', 'validate', SPEC, EXAMPLES);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      [
        `${EXAMPLES}:4:1: example 1 accepted (10 steps)`,
        `${EXAMPLES}:18:1: error: example 2 rejected: step 3: after "Action:" comes "Observation:"; allowed: "Action Input:"`,
        '  Observation: "Iron Henry" is another name for the tale "The Frog Prince".',
        '  ^^^^^^^^^^^^',
        `${EXAMPLES}:24:9: error: example 3 rejected: step 2, "Action:": "Calculator" is not one of "Search", "Lookup"`,
        '  Action: Calculator',
        '          ^^^^^^^^^^',
        '3 examples: 1 accepted, 2 rejected',
        '',
      ].join('\n'),
    );
  });

  it('exit 0 when every example is accepted; a paper spec by name', async () => {
    const r = await runTslc('agent', 'validate', 'react', file('good.txt', `${GOOD}\n${GOOD}`));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/2 examples: 2 accepted, 0 rejected\n$/);
  });

  it('--json: the report per example', async () => {
    const r = await runTslc('agent', 'validate', SPEC, EXAMPLES, '--json');
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as { spec: string; accepted: number; rejected: number; examples: { accepted: boolean; problem?: { kind: string; allowed: string[]; found?: string } }[] };
    expect(report).toMatchObject({ spec: 'react-agent', accepted: 1, rejected: 2 });
    expect(report.examples.map((e) => e.problem?.allowed)).toEqual([undefined, ['Action-Input'], ['Search', 'Lookup']]);
  });

  it('--max-loops validates against a tighter cap than the spec', async () => {
    const loop = 'Thought: a\nAction: Search\nAction Input: b\nObservation: c\n';
    const twice = file('twice.txt', `${loop}${loop}Final Thought: d\nAnswer: e\n`);
    expect((await runTslc('agent', 'validate', SPEC, twice)).code).toBe(0);
    const r = await runTslc('agent', 'validate', SPEC, twice, '--max-loops', '1');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(':5:1: error: example 1 rejected: step 5: after "Observation:" comes "Thought:"; allowed: "Final Thought:"');
  });

  it('exit 2 with file:line:col for a spec that does not parse, or names an unknown state', async () => {
    const bad = file('bad.sexp', '(define a\n  (:states (T (:text "T:")))\n  (:behavior (until T T :max 0)))\n');
    let r = await runTslc('agent', 'validate', bad, EXAMPLES);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${bad}:3:30: error: expected a whole number of loops (1 or more), not 0`);
    expect(r.stderr).toContain('^');
    const unknown = file('unknown.sexp', '(define a (:states (T (:text "T:")))\n  (:behavior (next T X)))\n');
    r = await runTslc('agent', 'validate', unknown, EXAMPLES);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${unknown}:2:22: error: behavior mentions unknown state X`);
  });

  it('exit 2 for a text without any marker, a missing file, a bad --max-loops; never a stack trace', async () => {
    let r = await runTslc('agent', 'validate', 'react', file('none.txt', 'Question: nothing\n'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/none\.txt:1:1: error: no example: the text has none of the markers of react-agent \("Thought:"/);
    r = await runTslc('agent', 'validate', 'react', join(dir, 'missing.txt'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot read .*missing\.txt/);
    r = await runTslc('agent', 'validate', 'react', EXAMPLES, '--max-loops', '1.5');
    expect(r.code).toBe(2);
    for (const out of [r.stderr, r.stdout]) expect(out).not.toMatch(/\n\s+at /);
  });

  it('hostile inputs: garbage or a directory as spec or examples, stdin twice: exit 2, never a stack trace', async () => {
    const garbage = file('garbage.bin', Buffer.from(Array.from({ length: 1500 }, (_, i) => (i * 7919) % 256)).toString('latin1'));
    for (const argv of [
      [garbage, EXAMPLES],
      [dir, EXAMPLES],
      [SPEC, garbage],
      [SPEC, dir],
      ['-', '-'],
    ]) {
      const r = await runTslc('agent', 'validate', ...argv);
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(/error: /);
      expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
    }
  });
});
