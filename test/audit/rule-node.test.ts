/**
 * A formula given as a JSON object in an audit rules file is held to what Spot text is: at most
 * MAX_LTL_DEPTH operators inside each other, and a well-formed tree. It used to reach the monitors
 * unchecked: a deep one crashed them (stack overflow, exit 70), and so did an unknown operator or
 * a missing operand. Now each is a located error (file:line:col of the offending node), exit 2.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_LTL_DEPTH } from '../../runtime/ltl/parse.js';
import { jsonValueOffset, ruleNodeProblem } from '../../src/audit/rule-node.js';
import { runTslc } from '../support/cli.js';

afterEach(() => {
  process.exitCode = undefined;
});

const dir = mkdtempSync(join(tmpdir(), 'tslc-rule-node-'));
const log = join(dir, 'log.jsonl');
writeFileSync(log, '{"a":true}\n{"a":false}\n');

/** `n` negations around `a`, as a JSON formula object. */
const nots = (n: number): string => `${'{"op":"!","arg":'.repeat(n)}{"op":"ap","name":"a"}${'}'.repeat(n)}`;

async function audit(json: string) {
  const rules = join(dir, `rules-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(rules, json);
  return { rules, ...(await runTslc('audit', log, '--spec', rules)) };
}

describe('formula objects in rules.json', () => {
  it(`${MAX_LTL_DEPTH} operators deep is audited; one more is refused at the operator that crosses the limit`, async () => {
    // An even number of negations: `a`, true at step 0 (a formula without G is judged at the first event).
    const ok = await audit(`{"properties":{"even":${nots(MAX_LTL_DEPTH)}}}`);
    expect([ok.code, ok.stdout], ok.stderr).toEqual([0, expect.stringMatching(/even\s+1\s+0 /)]);
    for (const n of [MAX_LTL_DEPTH + 1, 200_000]) {
      const r = await audit(`{"properties":{"deep":${nots(n)}}}`);
      const col = '{"properties":{"deep":'.length + MAX_LTL_DEPTH * '{"op":"!","arg":'.length + 1;
      expect([r.code, r.stderr.split('\n')[0]]).toEqual([
        2,
        `${r.rules}:1:${col}: error: property 'deep': formula nested too deeply (more than ${MAX_LTL_DEPTH} operators inside each other); split it into several formulas`,
      ]);
    }
  });

  it('malformed formula objects are located errors, not crashes', async () => {
    const cases: [string, string, string][] = [
      ['{"op": "bogus"}', '1:20', 'unknown operator "bogus"'],
      ['{"op": "&"}', '1:20', '"&" needs "args": a non-empty list of formulas'],
      ['{"op": "&", "args": []}', '1:20', '"&" needs "args": a non-empty list of formulas'],
      ['{"op": "ap", "name": 3}', '1:20', 'an "ap" needs a non-empty "name"'],
      ['{"op": "G", "arg": {"op": "U", "left": {"op": "ap", "name": "a"}}}', '1:39', '"U" needs "right"'],
      ['{"op": "|", "args": [{"op": "ap", "name": "a"}, 7]}', '1:68', 'expected a formula object with an "op"'],
    ];
    for (const [formula, where, problem] of cases) {
      const r = await audit(`{"properties":{"p":${formula}}}`);
      const first = `${r.rules}:${where}: error: property 'p': ${problem}`;
      expect([r.code, r.stderr.slice(0, first.length)], formula).toEqual([2, first]);
      expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
    }
  });

  it('in the list form, on a later line', async () => {
    const json = `{\n  "properties": [\n    { "name": "ok", "formula": "G a" },\n    { "name": "bad", "formula": { "op": "X" } }\n  ]\n}\n`;
    const r = await audit(json);
    expect([r.code, r.stderr.split('\n')[0]]).toEqual([2, `${r.rules}:4:33: error: property 'bad': "X" needs "arg"`]);
  });
});

describe('jsonValueOffset', () => {
  it('follows keys (escaped ones too) and indices through nested containers', () => {
    const text = '{ "a\\"b": [1, {"x": [ [], {}, "s,]}", {"y": null} ]}], "z": {} }';
    expect(jsonValueOffset(text, [])).toBe(0);
    expect(text.slice(jsonValueOffset(text, ['a"b'])!)).toMatch(/^\[1,/);
    expect(text.slice(jsonValueOffset(text, ['a"b', 1, 'x', 2])!)).toMatch(/^"s,\]}"/);
    expect(text.slice(jsonValueOffset(text, ['a"b', 1, 'x', 3, 'y'])!)).toMatch(/^null/);
    expect(text.slice(jsonValueOffset(text, ['z'])!)).toBe('{} }');
    expect(jsonValueOffset(text, ['nope'])).toBeUndefined();
    expect(jsonValueOffset(text, ['a"b', 5])).toBeUndefined();
  });

  it('ruleNodeProblem walks without recursion', () => {
    let node: unknown = { op: 'ap', name: 'a' };
    for (let i = 0; i < 300_000; i++) node = { op: 'X', arg: node };
    expect(ruleNodeProblem(node)?.path).toHaveLength(MAX_LTL_DEPTH);
    expect(ruleNodeProblem(node, Infinity)).toBeUndefined();
  });
});
