/**
 * Issue 18 item 13, end to end: names that are also `Object.prototype` members (`__proto__`,
 * `constructor`, …) are ordinary names everywhere a user can give one — TSL signals, predicates
 * and functions (check → compile → run the module), LTL atoms (`check --ltl`, `synth`), log fields
 * (`audit`, JSONL and CSV), tool names (shield and its AI SDK wrapper) and monitor propositions.
 * Before the fix, synthesis lost a `__proto__` output (exit 70, "failed independent
 * verification"), diagrams drew a false `__proto__` as set, a plain-object label `{}` read
 * `constructor` as true in the runtime monitors, and a tool named `__proto__` vanished from the
 * wrapped tool set.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AutomatonMonitor } from '../../runtime/monitor/automaton.js';
import { functionLabeler, symbolicLabeler } from '../../runtime/monitor/label.js';
import { ProgressionMonitor } from '../../runtime/monitor/progression.js';
import { parseLtl } from '../../runtime/ltl/parse.js';
import { Shield, shieldTools } from '../../runtime/shield/index.js';
import { buildMonitorAutomaton } from '../../src/audit/automaton.js';
import { runTslc } from '../support/cli.js';
import { scratchDir } from '../codegen/typecheck.js';

const NAMES = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty'] as const;

afterEach(() => {
  process.exitCode = undefined;
});

/** An object with `name` as an own key, as JSON.parse or Object.fromEntries make it. */
const withKey = <T, R = T>(name: string, value: T, rest: Record<string, R> = {}): Record<string, T | R> => Object.fromEntries([[name, value], ...Object.entries(rest)]);

type Bindings = { functions: [string, string][]; signals: [string, string][] };
type Module = Record<string, unknown>;
type Factory = (impl: object, init: object, options?: object) => { step(inputs?: object): Promise<unknown>; signals: Record<string, unknown> };

let dir: string;
beforeAll(() => {
  dir = scratchDir('user-names');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each(NAMES)('the name %s', (name) => {
  /** The same name as a signal, as a predicate and as a function, in three specs. */
  const specs = {
    sig: `always guarantee {\n  ready(${name}) -> [${name} <- grow(${name})];\n  ! ready(${name}) -> [${name} <- ${name}];\n}\n`,
    pred: `always guarantee {\n  ${name}(s) -> [s <- grow(s)];\n  ! ${name}(s) -> [s <- s];\n}\n`,
    fun: `always guarantee {\n  ready(s) -> [s <- ${name}(s)];\n  ! ready(s) -> [s <- s];\n}\n`,
  };

  it('TSL: check, compile, and the compiled modules run with it as signal, predicate and function', async () => {
    const sub = join(dir, name);
    const files = Object.entries(specs).map(([stem, text]) => {
      // Module names come from file names, which have rules of their own: only the terms vary.
      const file = join(dir, `n${NAMES.indexOf(name)}-${stem}.tsl`);
      writeFileSync(file, text);
      return file;
    });
    const checked = await runTslc('check', ...files);
    expect([checked.code, checked.stdout.match(/: realizable/g)?.length], checked.stderr + checked.stdout).toEqual([0, 3]);
    const compiled = await runTslc('compile', ...files, '-o', sub);
    expect(compiled.code, compiled.stderr).toBe(0);

    const load = async (stem: string) => (await import(pathToFileURL(join(sub, `n${NAMES.indexOf(name)}-${stem}.ts`)).href)) as Module;
    const ids = (mod: Module) => {
      const b = Object.entries(mod).find(([k]) => k.endsWith('Bindings'))![1] as Bindings;
      return { fn: new Map(b.functions), sig: new Map(b.signals) };
    };
    const create = (mod: Module) => Object.entries(mod).find(([k]) => k.startsWith('create'))![1] as Factory;

    // The name as a cell: grown when ready, kept otherwise.
    const sig = await load('sig');
    const s = ids(sig);
    const key = s.sig.get(name)!;
    let ready = true;
    const c1 = create(sig)({ ready: () => ready, grow: (x: string) => `${x}+` }, withKey(key, 'a'), { telemetry: false });
    await c1.step();
    ready = false;
    await c1.step();
    expect(Object.keys(c1.signals)).toEqual([key]);
    expect(c1.signals[key]).toBe('a+');

    // The name as a predicate: its answer decides the update.
    const pred = await load('pred');
    let answer = true;
    const c2 = create(pred)(withKey(ids(pred).fn.get(name)!, () => answer, { grow: (x: string) => `${x}+` }), { s: 'b' }, { telemetry: false });
    await c2.step();
    answer = false;
    await c2.step();
    expect(c2.signals.s).toBe('b+');

    // The name as a function: it computes the update.
    const fun = await load('fun');
    const c3 = create(fun)(withKey(ids(fun).fn.get(name)!, (x: string) => `${x}!`, { ready: () => true }), { s: 'c' }, { telemetry: false });
    await c3.step();
    expect(c3.signals.s).toBe('c!');
  }, 120_000);

  it('LTL: check --ltl as input and output, and synth prints it only where it is set', async () => {
    const asInput = await runTslc('check', '--ltl', `G (${name} -> F reply)`, '--ins', name, '--outs', 'reply');
    expect([asInput.code, asInput.stdout], asInput.stderr).toEqual([0, expect.stringMatching(/: realizable/)]);
    const alternate = `G (ask -> F ${name}) & G (${name} -> X !${name})`;
    const asOutput = await runTslc('check', '--ltl', alternate, '--ins', 'ask', '--outs', name);
    expect([asOutput.code, asOutput.stdout], asOutput.stderr).toEqual([0, expect.stringMatching(/: realizable/)]);
    const lost = await runTslc('check', '--ltl', `G F ${name}`, '--ins', name);
    expect([lost.code, lost.stdout], lost.stderr).toEqual([1, expect.stringMatching(/: unrealizable/)]);
    // With the other four names as outputs too (decomposition into parts and their product).
    const others = NAMES.filter((n) => n !== name);
    const many = [`G (a -> F ${name})`, ...others.map((n, i) => `G (${n} -> X !${n}) & G F ${i % 2 ? '!' : ''}${n}`), `G !(${name} & ${others[0]})`].join(' & ');
    const all = await runTslc('check', '--ltl', many, '--ins', 'a', '--outs', name, ...others);
    expect([all.code, all.stdout], all.stderr).toEqual([0, expect.stringMatching(/: realizable/)]);

    // The controller alternates: the edge where the name is false is labelled "keep" (nothing set).
    const dot = await runTslc('synth', '--ltl', `G (${name} -> X !${name}) & G (${name} | X ${name})`, '--outs', name, '--format', 'dot');
    expect(dot.code, dot.stderr).toBe(0);
    const labels = [...dot.stdout.matchAll(/label="true \/ ([^"]*)"/g)].map((m) => m[1]).sort();
    expect(labels).toEqual([name, 'keep'].sort());
    const json = await runTslc('synth', '--ltl', `G (${name} -> X !${name}) & G (${name} | X ${name})`, '--outs', name, '--format', 'json');
    const machine = JSON.parse(json.stdout) as { transitions: { output: Record<string, boolean> }[] };
    expect(machine.transitions.map((t) => Object.hasOwn(t.output, name) && t.output[name]).sort()).toEqual([false, true]);
  }, 60_000);

  it('audit: a JSONL field and a CSV column of that name, true, false and absent', async () => {
    const rules = join(dir, `${name}.ltl`);
    writeFileSync(rules, `once: G (${name} -> X !${name})\nnever: G !${name}\n`);
    const alternating = join(dir, `${name}-alt.jsonl`);
    writeFileSync(alternating, `{"${name}":true,"n":1}\n{"${name}":false,"n":2}\n{"${name}":true,"n":3}\n`);
    const alt = await runTslc('audit', alternating, '--spec', rules);
    expect(alt.code, alt.stderr).toBe(1);
    expect(alt.stdout).toMatch(/once\s+1\s+0 /);
    expect(alt.stdout).toMatch(/never\s+1\s+1 /);
    const falseOnly = join(dir, `${name}-false.csv`);
    writeFileSync(falseOnly, `n,${name}\n1,false\n2,false\n`);
    const csv = await runTslc('audit', falseOnly, '--spec', rules);
    expect(csv.stdout).toMatch(/once\s+1\s+0 /);
    expect(csv.stdout).toMatch(/never\s+1\s+0 /);
    expect(csv.code, csv.stderr).toBe(0);
    const absent = join(dir, `${name}-absent.jsonl`);
    writeFileSync(absent, '{"n":1}\n{"n":2}\n');
    const missing = await runTslc('audit', absent, '--spec', rules, '--missing', 'false');
    expect(missing.stdout).toMatch(/never\s+1\s+0 /);
    expect(missing.code, missing.stderr).toBe(0);
    const refused = await runTslc('audit', absent, '--spec', rules);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(name);
  }, 60_000);

  it('shield: a tool of that name is kept by the AI SDK wrapper and judged by its rules', async () => {
    const shield = new Shield([{ name: 'once', ltl: `G ("call:${name}" -> X G !"call:${name}")` }], { tools: [name, 'other'] });
    const ran: string[] = [];
    const tools = shieldTools(
      withKey(name, { execute: async () => (ran.push(name), 'done') }, { other: { execute: async () => (ran.push('other'), 'ok') } }),
      shield,
    );
    expect(Object.keys(tools)).toEqual([name, 'other']);
    const run = (tool: string) => (tools[tool].execute as (input: unknown, opts: unknown) => Promise<unknown>)({}, {});
    expect(await run(name)).toBe('done');
    expect(await run('other')).toBe('ok');
    expect(await run(name)).toMatchObject({ blocked: true, tool: name });
    expect(ran).toEqual([name, 'other']);
    expect(shield.allowedTools()).toEqual(['other']);
  });

  it('monitors: plain-object labels, JSON events and labelers read the name as an own key only', () => {
    const formula = parseLtl(`G !${name}`);
    const properties = [{ name: 'never', formula }];
    const progression = new ProgressionMonitor(properties);
    const automaton = new AutomatonMonitor(buildMonitorAutomaton(formula));
    // An empty record and a JSON record saying false: the name is false, nothing is violated.
    for (const labels of [{}, JSON.parse(`{"${name}": false}`) as Record<string, boolean>]) {
      expect(progression.step(labels)).toEqual([]);
      expect(automaton.step(labels)).toBe('pending');
    }
    const event = JSON.parse(`{"${name}": "yes", "n": 1}`) as Record<string, unknown>;
    const fromRules = symbolicLabeler(withKey(name, name))(event);
    const fromFunction = functionLabeler(() => [name])(event);
    const fromRecord = functionLabeler(() => withKey(name, false))(event);
    expect([Object.keys(fromRules), fromRules[name]]).toEqual([[name], true]);
    expect([Object.keys(fromFunction), fromFunction[name]]).toEqual([[name], true]);
    expect([Object.keys(fromRecord), fromRecord[name]]).toEqual([[name], false]);
    expect(progression.step(fromRecord)).toEqual([]);
    expect(progression.step(fromFunction)).toEqual([{ name: 'never', verdict: 'violated' }]);
    expect(automaton.step(fromRules)).toBe('violated');
  });
});
