/**
 * Issue 18 item 13: atoms named like `Object.prototype` members are ordinary atoms. The Spot
 * tokenizer used to look words up on a plain object, so `constructor` or `__proto__` came back as
 * operators (or crashed); names are now matched by the scanner's rules alone.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { atomOffsets, parseLtl } from '../../runtime/ltl/parse.js';
import { printLtl } from '../../runtime/ltl/print.js';
import { Shield } from '../../runtime/shield/index.js';
import { and, ap, F, G, implies, not, X } from '../../src/ltl/formula.js';
import { parseFormula } from '../../src/ltl/parse.js';
import { runTslc } from '../support/cli.js';

const NAMES = ['constructor', 'toString', '__proto__', 'valueOf', 'hasOwnProperty'] as const;

afterEach(() => {
  process.exitCode = undefined;
});

describe.each(NAMES)('an atom named %s', (name) => {
  it('parses, prints and is located as an atom', () => {
    const text = `G (${name} -> F done) & X !${name}`;
    expect(parseFormula(text)).toBe(and(G(implies(ap(name), F(ap('done')))), X(not(ap(name)))));
    expect(parseLtl(printLtl(parseLtl(text)))).toEqual(parseLtl(text));
    expect(parseFormula(`"${name}"`)).toBe(ap(name));
    const offsets = atomOffsets(text);
    expect(offsets.get(name)).toBe(3);
    expect([...offsets.keys()]).toEqual([name, 'done']);
  });

  it('audit --spec: judged from the log', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tslc-names-'));
    const rules = join(dir, 'rules.ltl');
    writeFileSync(rules, `once: G (${name} -> X !${name})\nnever: G !${name}\n`);
    const repeated = join(dir, 'repeated.jsonl');
    writeFileSync(repeated, `{"${name}":true,"other":1}\n{"${name}":true,"other":2}\n`);
    const res = await runTslc('audit', repeated, '--spec', rules);
    expect(res.code, res.stderr).toBe(1);
    expect(res.stdout).toMatch(/once\s+1\s+1 /);
    expect(res.stdout).toMatch(/never\s+1\s+1 /);
    const alternating = join(dir, 'alternating.jsonl');
    writeFileSync(alternating, `{"${name}":true,"other":1}\n{"${name}":false,"other":2}\n{"${name}":true,"other":3}\n`);
    const ok = await runTslc('audit', alternating, '--spec', rules);
    expect(ok.stdout).toMatch(/once\s+1\s+0 /);
  });

  it('a shield rule over it blocks and allows as the rule says', () => {
    const shield = new Shield([{ name: 'once', ltl: `G (${name} -> X G !${name})` }], { tools: ['work'] });
    expect(shield.checkEvent([name]).allowed).toBe(true);
    shield.observe([name]);
    expect(shield.checkEvent([name]).allowed).toBe(false);
    expect(shield.checkEvent(['other']).allowed).toBe(true);
    expect(shield.check('work').allowed).toBe(true);
  });
});

// Synthesis keeps valuations (cubes) in prototype-less records: `cube['__proto__'] = true` on a
// plain object set its prototype instead, and the controller failed verification (exit 70).
describe.each(NAMES)('check --ltl with an atom named %s', (name) => {
  it('as an input and as an output', async () => {
    const asInput = await runTslc('check', '--ltl', `G (${name} -> F reply)`, '--ins', name, '--outs', 'reply');
    expect([asInput.code, asInput.stdout], asInput.stderr).toEqual([0, expect.stringMatching(/: realizable/)]);
    const asOutput = await runTslc('check', '--ltl', `G (ask -> F ${name}) & G (${name} -> X !${name})`, '--ins', 'ask', '--outs', name);
    expect([asOutput.code, asOutput.stdout], asOutput.stderr).toEqual([0, expect.stringMatching(/: realizable/)]);
    const lost = await runTslc('check', '--ltl', `G F ${name}`, '--ins', name);
    expect([lost.code, lost.stdout], lost.stderr).toEqual([1, expect.stringMatching(/: unrealizable/)]);
  });
});

// Outside the LTL reader too: the auditor reads a missing field `constructor` as absent (not as
// `event['constructor']`, which is Object), and a field `"__proto__": false` as false.
describe.each(NAMES)('audit of a field named %s', (name) => {
  it('--missing false: a log without the field never makes it true', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tslc-names-'));
    const rules = join(dir, 'rules.ltl');
    writeFileSync(rules, `never: G !${name}\nalways: G !!${name}\n`);
    const log = join(dir, 'log.jsonl');
    writeFileSync(log, '{"other":1}\n{"other":2}\n');
    const res = await runTslc('audit', log, '--spec', rules, '--missing', 'false');
    expect(res.stdout).toMatch(/never\s+1\s+0 /);
    expect(res.stdout).toMatch(/always\s+1\s+1 /);
    expect(res.code, res.stderr).toBe(1);
  });

  it('a field set to false is false', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tslc-names-'));
    const rules = join(dir, 'rules.ltl');
    writeFileSync(rules, `never: G !${name}\n`);
    const log = join(dir, 'log.jsonl');
    writeFileSync(log, `{"${name}":false}\n{"${name}":false}\n`);
    const res = await runTslc('audit', log, '--spec', rules);
    expect(res.stdout).toMatch(/never\s+1\s+0 /);
    expect(res.code, res.stderr).toBe(0);
  });
});
