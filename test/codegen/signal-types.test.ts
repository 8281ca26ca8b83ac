/**
 * Signal types implied by the built-ins (issue 18, item 8): `[d <- eq c d]` stores a boolean, so
 * `d * 2` elsewhere is a located compile error, not a module typing `d` as a number that then
 * fails at run time; consistent specs get default types that match what the runtime stores.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { TermData } from '../../runtime/table.js';
import { compileSpecs } from '../../src/codegen/pipeline.js';
import { inferSignalTypes, type TypingInput } from '../../src/codegen/signal-types.js';
import { UserError } from '../../src/diagnostics/diagnostic.js';
import { scratchDir, typecheck } from './typecheck.js';

const dir = scratchDir('signal-types');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function compile(name: string, text: string) {
  const file = join(dir, `${name}.tsl`);
  writeFileSync(file, text);
  return compileSpecs({ files: [file], outDir: dir });
}

describe('mixed built-in types are refused at compile time', () => {
  it('[d <- eq c d] with d * 2 elsewhere: one located error naming d, both uses and both types', async () => {
    const text = 'always guarantee {\n  F [d <- eq c d];\n  F [d <- d * 2];\n}\n';
    const err = await compile('eqmix', text).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(UserError);
    const [d, ...rest] = (err as UserError).diagnostics;
    expect(rest).toEqual([]);
    expect(d.span).toMatchObject({ file: join(dir, 'eqmix.tsl'), line: 3, col: 3 });
    expect(d.message).toMatch(/signal `d` would hold both a boolean and a number/);
    expect(d.message).toContain('[d <- eq c d]');
    expect(d.message).toContain('[d <- mul d 2]');
  });

  it('a comparison used as a number inside a term', async () => {
    const err = await compile('nested', 'always guarantee {\n  [n <- add (lt a b) 1];\n}\n').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((err as UserError).diagnostics.map((d) => [d.span?.line, d.message])).toEqual([
      [2, expect.stringMatching(/^type mismatch: `lt a b` is a boolean .*, but `\[n <- add \(lt a b\) 1\]` passes it to `add`, which takes numbers$/)],
    ]);
  });
});

describe('inferred default types', () => {
  it('match what the runtime stores: eq gives a boolean, < makes its arguments numbers', async () => {
    const text = 'always guarantee {\n  F [d <- eq c d];\n  F [n <- f n];\n  n < 3 -> [m <- g m];\n}\n';
    const outcome = await compile('consistent', text);
    expect(outcome.kind).toBe('ok');
    if (outcome.kind !== 'ok') return;
    expect(outcome.source).toMatch(/export interface ConsistentDefaultSignals[^}]*\bd: boolean;/);
    expect(outcome.source).toMatch(/export interface ConsistentDefaultSignals[^}]*\bn: number;/);
    expect(outcome.source).toMatch(/readonly eq\?: \(c: S\["c"\], d: S\["d"\]\) => boolean \| Promise<boolean>;/);
    // A user relying on the defaults gets the runtime's actual values.
    const use = `import { createConsistent } from './consistent.js';
const c = createConsistent({ f: (n) => n + 1, g: (m) => m + '!' }, { d: false, n: 0, m: '' }, { telemetry: false });
export async function run(): Promise<boolean> {
  await c.step({ c: 'x' });
  const d: boolean = c.signals.d;
  return d;
}
`;
    const result = typecheck(dir, { 'consistent.ts': outcome.source, 'use.ts': use });
    expect(result['consistent.ts']).toEqual([]);
    expect(result['use.ts']).toEqual([]);
    const mod = (await import(pathToFileURL(join(dir, 'use.ts')).href)) as { run: () => Promise<unknown> };
    expect(typeof (await mod.run())).toBe('boolean');
  }, 60_000);
});

describe('inferSignalTypes', () => {
  const sig = (name: string): TermData => ({ kind: 'signal', name });
  const lit = (value: number | string | boolean): TermData => ({ kind: 'literal', value });
  const call = (fn: string, ...args: TermData[]): TermData => ({ kind: 'call', fn, args });
  const update = (signal: string, term: TermData, text = `[${signal} <- …]`) => ({ proposition: `u_${signal}_${text}`, signal, term, isSelfUpdate: false, text });
  const infer = (updates: TypingInput['updates'], predicates: TypingInput['predicates'] = []) => inferSignalTypes({ updates, predicates });

  it('propagates through copies and leaves user functions free', () => {
    const r = infer([update('a', call('add', sig('a'), lit(1))), update('b', sig('a')), update('c', call('f', sig('a'))), update('t', call('eq', sig('c'), lit('x')))]);
    expect(Object.fromEntries(r.types)).toEqual({ a: 'number', b: 'number', t: 'boolean' });
    expect(r.conflicts).toEqual([]);
  });

  it('refuses a text literal and arithmetic on the same signal', () => {
    const r = infer([update('s', lit('x'), '[s <- "x"]'), update('s', call('add', sig('s'), lit(1)), '[s <- add s 1]')]);
    expect(r.conflicts.map((c) => c.message)).toEqual([expect.stringMatching(/^signal `s` would hold both a string and a number: `\[s <- "x"\]` stores a string/)]);
  });

  it('refuses a copy between a tested boolean signal and a counter', () => {
    const r = infer(
      [update('n', call('sub', sig('n'), lit(1))), update('n', sig('ok'), '[n <- ok]')],
      [{ proposition: 'p_ok', fn: '', args: [], text: 'ok', signal: 'ok' }],
    );
    expect(r.conflicts).toHaveLength(1);
    expect(r.conflicts[0].message).toMatch(/`\[n <- ok\]` copies `ok` into `n`/);
  });
});
