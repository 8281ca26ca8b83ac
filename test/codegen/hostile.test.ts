import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ControllerMetadata, TermData } from '../../runtime/table.js';
import { emitControllerModule } from '../../src/codegen/emit.js';
import { commentText, IdentifierScope, safeIdentifier } from '../../src/codegen/identifiers.js';
import { buildControllerTable } from '../../src/codegen/table.js';
import type { MealyMachine } from '../../src/game/mealy.js';
import type { GameSpec } from '../../src/game/spec.js';
import { ap, G } from '../../src/ltl/formula.js';
import { scratchDir, typecheck } from './typecheck.js';

/** Names an attacker (or an unlucky spec author) might write. */
const hostile = {
  cell: '__proto__',
  cell2: 'constructor',
  output: '*/ process.exit(1); /*',
  input: 'a.b\nimport("fs")',
  unicode: 'ünïcødé𝒳',
  keyword: 'class',
  predicate: 'toString',
  fn: '"); require("child_process").exec("rm -rf /"); ("',
  fn2: '\u2028globalThis.pwned = 1\u2029',
  literal: '`${process.exit(2)}`\'"\\',
};

const sig = (name: string): TermData => ({ kind: 'signal', name });

const spec: GameSpec = {
  name: 'evil */ spec\nname',
  semantics: 'mealy',
  inputs: [
    { name: 'p0', term: `${hostile.predicate} ${hostile.input} */`, predicate: { fn: hostile.predicate, args: [sig(hostile.input)] } },
    { name: 'p1', term: 'keyword pred', predicate: { fn: hostile.keyword, args: [sig(hostile.cell), { kind: 'literal', value: hostile.literal }] } },
  ],
  outputs: [
    { name: 'u0', term: `[${hostile.output} <- ${hostile.fn}]\n*/ evil(); /*`, update: { signal: hostile.output, term: { kind: 'call', fn: hostile.fn, args: [sig(hostile.cell2)] }, isSelfUpdate: false } },
    { name: 'u1', term: 'keep', update: { signal: hostile.output, term: sig(hostile.output), isSelfUpdate: true } },
    { name: 'u2', term: 'proto', update: { signal: hostile.cell, term: { kind: 'call', fn: hostile.fn2, args: [sig(hostile.unicode)] }, isSelfUpdate: false } },
    { name: 'u3', term: 'keep proto', update: { signal: hostile.cell, term: sig(hostile.cell), isSelfUpdate: true } },
  ],
  signals: [
    { signal: hostile.output, updates: ['u0', 'u1'], selfUpdate: 'u1' },
    { signal: hostile.cell, updates: ['u2', 'u3'], selfUpdate: 'u3' },
  ],
  initially: [],
  preset: [],
  assumptions: [],
  guarantees: [{ formula: G(ap('u0')), span: { file: 'x', line: 3, col: 1 } }],
  tslSignals: [
    { name: hostile.input, role: 'input' },
    { name: hostile.cell, role: 'cell' },
    { name: hostile.cell2, role: 'cell' },
    { name: hostile.unicode, role: 'cell' },
    { name: hostile.output, role: 'output' },
  ],
};

const machine: MealyMachine = {
  inputs: ['p0', 'p1'],
  outputs: ['u0', 'u1', 'u2', 'u3'],
  stateCount: 2,
  initial: 0,
  transitions: [
    { from: 0, input: { p0: true }, output: { u0: true, u2: true }, to: 1 },
    { from: 0, input: { p0: false }, output: { u1: true, u3: true }, to: 0 },
    { from: 1, input: { p1: true }, output: { u0: true }, to: 0 },
    { from: 1, input: { p1: false }, output: {}, to: 1 },
  ],
};

const metadata: ControllerMetadata = {
  specFile: 'specs/evil*/\n.tsl',
  specHash: 'sha256:*/ x',
  stateCount: 2,
  toolVersion: '0.1.0\n*/',
  verified: true,
  synthesizer: '*/ synth',
};

describe('safe identifiers', () => {
  it('produces valid, non-reserved, unique ASCII identifiers', () => {
    const scope = new IdentifierScope();
    const names = Object.values(hostile).map((n) => scope.name(n));
    for (const id of names) expect(id).toMatch(/^[A-Za-z_$][A-Za-z0-9_$]*$/);
    expect(new Set(names).size).toBe(names.length);
    expect(safeIdentifier('class')).toBe('class_');
    expect(safeIdentifier('__proto__')).toBe('__proto___');
    expect(safeIdentifier('2fast')).toBe('_2fast');
    expect(scope.name('a_b')).not.toBe(scope.name('a.b'));
  });

  it('keeps comment text on one line and unterminated', () => {
    const text = commentText('a */ b\nc\u2028d /* e');
    expect(text).not.toMatch(/\*\/|\/\*|[\n\u2028]/);
  });
});

describe('hostile names in an emitted module', () => {
  const table = buildControllerTable(spec, machine);
  const source = emitControllerModule(table, metadata, { runtimeImport: '../../runtime/index.js' });
  let dir: string;
  let diagnostics: Record<string, string[]>;
  let exact: Record<string, string[]>;
  beforeAll(() => {
    dir = scratchDir('hostile-test');
    diagnostics = typecheck(dir, { 'evil.ts': source });
    exact = typecheck(dir, { 'evil.ts': source }, { exactOptionalPropertyTypes: true });
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('type-checks under strict, and with exactOptionalPropertyTypes', () => {
    expect(diagnostics['evil.ts']).toEqual([]);
    expect(exact['evil.ts']).toEqual([]);
    expect(exact['<other>']).toBeUndefined();
  });

  it('contains only the statements a module is made of (nothing injected)', () => {
    const file = ts.createSourceFile('evil.ts', source, ts.ScriptTarget.ES2022, true);
    const kinds = file.statements.map((s) =>
      ts.isImportDeclaration(s) ? 'ImportDeclaration' : ts.isInterfaceDeclaration(s) ? 'InterfaceDeclaration' : ts.isTypeAliasDeclaration(s) ? 'TypeAliasDeclaration' : ts.isVariableStatement(s) ? 'VariableStatement' : ts.isFunctionDeclaration(s) ? 'FunctionDeclaration' : ts.SyntaxKind[s.kind],
    );
    expect(kinds).toEqual([
      'ImportDeclaration',
      'InterfaceDeclaration',
      'InterfaceDeclaration',
      'InterfaceDeclaration',
      'TypeAliasDeclaration',
      'TypeAliasDeclaration',
      'TypeAliasDeclaration',
      'VariableStatement',
      'VariableStatement',
      'VariableStatement',
      'FunctionDeclaration',
      'FunctionDeclaration',
    ]);
    // No call expressions outside the two factory bodies.
    const calls: string[] = [];
    const visit = (node: ts.Node, inFunction: boolean): void => {
      if (ts.isCallExpression(node) && !inFunction) calls.push(node.getText());
      ts.forEachChild(node, (child) => visit(child, inFunction || ts.isFunctionDeclaration(node)));
    };
    visit(file, false);
    expect(calls).toEqual([]);
    expect(source).not.toContain('\u2028');
  });

  it('runs and keeps the names intact in the table and bindings', async () => {
    const mod = (await import(pathToFileURL(join(dir, 'evil.ts')).href)) as Record<string, unknown>;
    const create = Object.entries(mod).find(([k]) => k.startsWith('create'))![1] as (impl: object, init: object, o?: object) => {
      step(inputs?: object): Promise<unknown>;
      signals: Record<string, unknown>;
      state: number;
    };
    const pairs = Object.entries(mod).find(([k]) => k.endsWith('Bindings'))![1] as { functions: [string, string][]; signals: [string, string][] };
    const bindings = { functions: Object.fromEntries(pairs.functions), signals: Object.fromEntries(pairs.signals) };
    expect(pairs.functions.map(([spec]) => spec).sort()).toEqual([hostile.fn, hostile.fn2, hostile.keyword, hostile.predicate].sort());
    expect(pairs.signals.map(([spec]) => spec)).toContain('__proto__');
    const calls: unknown[][] = [];
    const impl: Record<string, (...a: unknown[]) => unknown> = {};
    impl[bindings.functions[hostile.predicate]] = (x) => (calls.push(['pred', x]), true);
    impl[bindings.functions[hostile.keyword]] = (x, lit) => (calls.push(['kw', x, lit]), false);
    impl[bindings.functions[hostile.fn]] = (x) => `new from ${String(x)}`;
    impl[bindings.functions[hostile.fn2]] = (x) => `proto from ${String(x)}`;
    const init: Record<string, unknown> = {};
    init[bindings.signals[hostile.cell]] = 'P';
    init[bindings.signals[hostile.cell2]] = 'C';
    init[bindings.signals[hostile.unicode]] = 'U';
    const c = create(impl, init, { telemetry: false });
    const input: Record<string, unknown> = {};
    input[bindings.signals[hostile.input]] = 'in';
    await c.step(input);
    expect(calls).toEqual([['pred', 'in']]);
    expect(c.signals[bindings.signals[hostile.output]]).toBe('new from C');
    expect(c.signals[bindings.signals[hostile.cell]]).toBe('proto from U');
    expect(Object.getPrototypeOf(c.signals)).toBe(Object.prototype);
    await c.step(input);
    expect(calls[1]).toEqual(['kw', 'proto from U', hostile.literal]);
    expect((globalThis as Record<string, unknown>).pwned).toBeUndefined();
  });
});
