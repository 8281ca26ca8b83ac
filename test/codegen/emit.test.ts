import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ControllerMetadata } from '../../runtime/table.js';
import type { MealyMachine } from '../../src/game/mealy.js';
import { emitControllerModule } from '../../src/codegen/emit.js';
import { buildControllerTable } from '../../src/codegen/table.js';
import { tinyMachine, tinySpec } from './fixtures.js';
import { scratchDir, typecheck } from './typecheck.js';

const metadata: ControllerMetadata = {
  specFile: 'tiny.tsl',
  specHash: 'sha256:test',
  stateCount: 2,
  toolVersion: '0.1.0',
  verified: true,
  synthesizer: 'hand-built',
};

const source = emitControllerModule(buildControllerTable(tinySpec, tinyMachine), metadata, { runtimeImport: '../../runtime/index.js' });

const goodImpl = `
import { createTiny, type TinyImpl } from './tiny.js';
type Sig = { mood: 'up' | 'down'; summary: string; count: number; passage: string };
const impl: TinyImpl<Sig> = {
  inCave: (summary) => summary.includes('cave'),
  inTown: async (summary) => summary.length > 3,
  happy: (mood) => mood === 'up',
  toCave: async (summary) => summary + ' cave',
  toTown: (summary) => summary + ' town',
  summarize: (summary, passage) => summary + passage,
};
export const c = createTiny<Sig>(impl, { summary: '', count: 0 });
export async function go(): Promise<number> {
  const r = await c.step({ mood: 'up' });
  const n: number = c.signals.count;
  return r.step + n;
}
// Defaults: text signals, and \`count\` is a number because it is updated with \`add\`.
export const d = createTiny(
  { inCave: () => true, inTown: () => false, happy: () => true, toCave: (s) => s, toTown: (s) => s, summarize: (s, p) => s + p },
  { summary: 'x', count: 1 },
);
`;

/** Each wrong implementation must be rejected by the type checker. */
const wrong: Record<string, string> = {
  missingPredicate: `const impl = { inTown: () => true, happy: () => true, toCave: (s: string) => s, toTown: (s: string) => s, summarize: (s: string) => s };
createTiny(impl, { summary: '', count: 0 });`,
  wrongPredicateReturn: `createTiny({ inCave: () => 1, inTown: () => true, happy: () => true, toCave: (s) => s, toTown: (s) => s, summarize: (s) => s }, { summary: '', count: 0 });`,
  wrongFunctionReturn: `createTiny<{ mood: string; summary: string; count: number; passage: number }>({ inCave: () => true, inTown: () => true, happy: () => true, toCave: (s) => s, toTown: () => 1, summarize: (s) => s }, { summary: '', count: 0 });`,
  wrongAsyncReturn: `createTiny({ inCave: async () => 'yes', inTown: () => true, happy: () => true, toCave: (s) => s, toTown: (s) => s, summarize: (s) => s }, { summary: '', count: 0 });`,
  tooManyParameters: `createTiny({ inCave: (a: string, b: string) => a === b, inTown: () => true, happy: () => true, toCave: (s) => s, toTown: (s) => s, summarize: (s) => s }, { summary: '', count: 0 });`,
  wrongParameterType: `createTiny({ inCave: (a: number) => a > 0, inTown: () => true, happy: () => true, toCave: (s) => s, toTown: (s) => s, summarize: (s) => s }, { summary: '', count: 0 });`,
  missingCell: `createTiny({ inCave: () => true, inTown: () => true, happy: () => true, toCave: (s) => s, toTown: (s) => s, summarize: (s) => s }, { summary: '' });`,
  wrongInput: `const c = createTiny({ inCave: () => true, inTown: () => true, happy: () => true, toCave: (s) => s, toTown: (s) => s, summarize: (s) => s }, { summary: '', count: 0 });
void c.step({ mood: 3 });`,
  wrongBuiltinOverride: `createTiny({ inCave: () => true, inTown: () => true, happy: () => true, toCave: (s) => s, toTown: (s) => s, summarize: (s) => s, add: (a: number, b: number) => String(a + b) }, { summary: '', count: 0 });`,
};

const expectedError: Record<string, RegExp> = {
  missingPredicate: /Property 'inCave' is missing/,
  wrongPredicateReturn: /'number' is not assignable to type 'boolean \| Promise<boolean>'/,
  wrongFunctionReturn: /'string' is not assignable to type 'number \| Promise<number>'/,
  wrongAsyncReturn: /'Promise<string>' is not assignable to type 'boolean \| Promise<boolean>'/,
  tooManyParameters: /provides too few arguments/,
  wrongParameterType: /'string' is not assignable to type 'number'/,
  missingCell: /Property 'count' is missing/,
  wrongInput: /'number' is not assignable to type 'string'/,
  wrongBuiltinOverride: /'string' is not assignable to type 'number \| Promise<number>'/,
};

describe('emitted module', () => {
  let dir: string;
  let results: Record<string, string[]>;
  let exact: Record<string, string[]>;
  beforeAll(() => {
    dir = scratchDir('emit-test');
    const files: Record<string, string> = { 'tiny.ts': source, 'good.ts': goodImpl };
    for (const [name, body] of Object.entries(wrong)) files[`${name}.ts`] = `import { createTiny } from './tiny.js';\n${body}\n`;
    results = typecheck(dir, files);
    exact = typecheck(dir, { 'tiny.ts': source, 'good.ts': goodImpl }, { exactOptionalPropertyTypes: true });
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('compiles under strict together with a correct implementation', () => {
    expect(results['tiny.ts']).toEqual([]);
    expect(results['good.ts']).toEqual([]);
    expect(results['<other>']).toBeUndefined();
  });

  it('compiles with exactOptionalPropertyTypes too', () => {
    expect(exact['tiny.ts']).toEqual([]);
    expect(exact['good.ts']).toEqual([]);
    expect(exact['<other>']).toBeUndefined();
  });

  for (const name of Object.keys(wrong))
    it(`rejects a wrong implementation: ${name}`, () => {
      expect(results[`${name}.ts`].join('\n')).toMatch(expectedError[name]);
    });

  it('contains no `any`, exports the documented API and points states at spec lines', () => {
    expect(source).not.toMatch(/\bany\b/);
    for (const name of ['createTiny', 'tinyTable', 'tinyMetadata', 'tinyBindings', 'replayTiny', 'TinyImpl', 'TinySignalShape'])
      expect(source).toContain(name);
    expect(source).toMatch(/State 0 \(initial\):\n\s*\* - when inCave summary: \[summary <- summarize summary passage\], \[passage <- toTown summary\] -> state 1 \(tiny\.tsl:5\)/);
    expect(source).toContain('specFiles: ["tiny.tsl"],');
  });

  it('counts states in the header and the table comment, singular for one', () => {
    expect(source).toMatch(/^\/\/ Spec hash sha256:test; 2 states; verified: true\.$/m);
    expect(source).toMatch(/as data: 2 states, each a decision diagram/);
    const oneState: MealyMachine = { ...tinyMachine, stateCount: 1, transitions: [tinyMachine.transitions[1]] };
    const one = emitControllerModule(buildControllerTable(tinySpec, oneState), { ...metadata, stateCount: 1 }, { runtimeImport: '../../runtime/index.js' });
    expect(one).toMatch(/^\/\/ Spec hash sha256:test; 1 state; verified: true\.$/m);
    expect(one).toMatch(/as data: 1 state, each a decision diagram/);
  });

  it('runs: the emitted factory drives the runtime', async () => {
    const mod = (await import(pathToFileURL(join(dir, 'good.ts')).href)) as { go: () => Promise<number> };
    // Step 0 from state 0: inCave('') is false → count + 1; r.step (0) + count (1).
    expect(await mod.go()).toBe(1);
  });
});
