/**
 * Names a generated module must survive (issue 18, items 7 and 9): spec names that clash with what
 * the module itself uses (`controller.tsl` → `createController`), names that start with a digit
 * (`2fa.tsl`), and signal/function/predicate names that equal the module's imports, helpers,
 * parameters or globals. Every emitted module, and every shipped module in generated/, must
 * type-check under `strict` and under `exactOptionalPropertyTypes`, and must load and step.
 */
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { run } from '../../src/cli/commands/compile.js';
import { assertModuleNames, EmitError } from '../../src/codegen/emit.js';
import { UserError } from '../../src/diagnostics/diagnostic.js';
import { repoRoot, scratchDir, typecheckPaths } from './typecheck.js';

const STRICT = {};
const EXACT = { exactOptionalPropertyTypes: true };

/** A tiny realizable spec: an input, an output and two functions. */
const TINY = 'always guarantee {\n  [reply <- f ask] || [reply <- g ask];\n  F [reply <- g ask];\n}\n';

/** Spec file stems → the factory each module must export. */
const SPEC_NAMES: Record<string, string> = {
  controller: 'createController',
  replay: 'createReplay',
  tslc: 'createTslc',
  Promise: 'createPromise',
  S: 'createS',
  K: 'createK',
  constructor: 'createConstructor',
  class: 'createClass',
  default: 'createDefault',
  ControllerOptions: 'createControllerOptions',
  'step-record': 'createStepRecord',
  '2fa': 'createSpec2fa',
  '0': 'createSpec0',
  'my.spec': 'createMySpec',
};

/** Signals, predicates and functions named after the module's own names and parameters. */
const HOSTILE_TERMS = `always guarantee {
  Promise tslc -> [createController <- replay S impl];
  undefined options -> [initialSignals <- trace K createController];
  !(undefined options) -> [initialSignals <- ControllerTable K createController];
}
`;

type Factory = (impl: object, init: object, options?: object) => { step(inputs?: object): Promise<unknown>; signals: Record<string, unknown> };

describe('hostile controller names in a multi-file compile', () => {
  let dir: string;
  let out: string;
  let failure: unknown;
  let written: string[];
  beforeAll(async () => {
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    dir = scratchDir('module-names');
    out = join(dir, 'out');
    const files = Object.keys(SPEC_NAMES).map((stem) => join(dir, `${stem}.tsl`));
    for (const f of files) writeFileSync(f, TINY);
    // A name that cannot be made safe, in the middle of the list.
    const bad = join(dir, 'bad name!.tsl');
    writeFileSync(bad, TINY);
    files.splice(3, 0, bad);
    writeFileSync(join(dir, 'hostile-terms.tsl'), HOSTILE_TERMS);
    files.push(join(dir, 'hostile-terms.tsl'));
    failure = await run({ files, out }).then(
      (code) => code,
      (err: unknown) => err,
    );
    written = existsSync(out) ? readdirSync(out).filter((f) => f.endsWith('.ts')) : [];
  }, 120_000);
  afterAll(() => {
    vi.restoreAllMocks();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes every module it can and reports the unusable name once, naming the file and the --as fix', () => {
    expect(written.sort()).toEqual([...Object.keys(SPEC_NAMES), 'hostile-terms'].map((s) => `${s}.ts`).sort());
    expect(failure).toBeInstanceOf(UserError);
    const diagnostics = (failure as UserError).diagnostics;
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0].message).toContain('bad name!.tsl');
    expect(diagnostics[0].message).toMatch(/--as bad-name /);
  });

  it('type-checks every module under strict and under exactOptionalPropertyTypes', () => {
    expect(written).toContain('controller.ts');
    const paths = written.map((f) => join(out, f));
    for (const settings of [STRICT, EXACT]) {
      const result = typecheckPaths(paths, settings);
      for (const p of paths) expect({ [p]: result[p] }).toEqual({ [p]: [] });
      expect(result['<other>']).toBeUndefined();
    }
  }, 120_000);

  it('loads and steps every module through the documented factory name', async () => {
    for (const [stem, factory] of Object.entries(SPEC_NAMES)) {
      const mod = (await import(pathToFileURL(join(out, `${stem}.ts`)).href)) as Record<string, unknown>;
      expect(typeof mod[factory], `${stem}.ts exports ${factory}`).toBe('function');
      const c = (mod[factory] as Factory)({ f: (x: string) => `f:${x}`, g: (x: string) => `g:${x}` }, {}, { telemetry: false });
      await c.step({ ask: 'a' });
      expect(['f:a', 'g:a']).toContain(c.signals.reply);
    }
    const mod = (await import(pathToFileURL(join(out, 'hostile-terms.ts')).href)) as Record<string, unknown>;
    const pairs = mod.hostileTermsBindings as { functions: [string, string][]; signals: [string, string][] };
    const fn = new Map(pairs.functions);
    const sig = new Map(pairs.signals);
    const impl: Record<string, (...a: unknown[]) => unknown> = {};
    impl[fn.get('Promise')!] = () => true;
    impl[fn.get('undefined')!] = () => false;
    impl[fn.get('replay')!] = (s, i) => `replay(${String(s)},${String(i)})`;
    impl[fn.get('trace')!] = (k, c) => `trace(${String(k)},${String(c)})`;
    impl[fn.get('ControllerTable')!] = (k, c) => `table(${String(k)},${String(c)})`;
    const init: Record<string, unknown> = { [sig.get('createController')!]: 'c0', [sig.get('initialSignals')!]: 'i0' };
    const c = (mod.createHostileTerms as Factory)(impl, init, { telemetry: false });
    const inputs: Record<string, unknown> = {};
    for (const name of ['tslc', 'S', 'impl', 'options', 'K']) inputs[sig.get(name)!] = name;
    await c.step(inputs);
    expect(c.signals[sig.get('createController')!]).toBe('replay(S,impl)');
    expect(c.signals[sig.get('initialSignals')!]).toBe('table(K,c0)');
  });
});

describe('a spec named controller.tsl on its own', () => {
  it('gives a module that type-checks (strict) and loads, exporting createController', async () => {
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const dir = scratchDir('controller-name');
    try {
      writeFileSync(join(dir, 'controller.tsl'), TINY);
      expect(await run({ files: [join(dir, 'controller.tsl')], out: dir })).toBe(0);
      const module = join(dir, 'controller.ts');
      expect(typecheckPaths([module])[module]).toEqual([]);
      const mod = (await import(pathToFileURL(module).href)) as Record<string, unknown>;
      const c = (mod.createController as Factory)({ f: (x: string) => `f:${x}`, g: (x: string) => `g:${x}` }, {}, { telemetry: false });
      await c.step({ ask: 'b' });
      expect(['f:b', 'g:b']).toContain(c.signals.reply);
    } finally {
      vi.restoreAllMocks();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('the emitter refuses a module whose own names would clash', () => {
  it('duplicates, reserved words and the names the module relies on', () => {
    expect(() => assertModuleNames(['createX', 'XImpl', 'xTable'])).not.toThrow();
    for (const bad of [['createX', 'createX'], ['tslc'], ['Promise'], ['S'], ['class'], ['2x'], ['a-b']])
      expect(() => assertModuleNames(bad), bad.join(',')).toThrow(EmitError);
  });
});

describe('shipped modules (generated/)', () => {
  const generated = join(repoRoot, 'generated');
  const paths = readdirSync(generated)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(generated, f));

  it('exist', () => {
    expect(paths.length).toBeGreaterThanOrEqual(5);
  });

  for (const [label, settings] of [
    ['strict', STRICT],
    ['strict + exactOptionalPropertyTypes', EXACT],
  ] as const)
    it(`type-check under ${label}`, () => {
      const result = typecheckPaths(paths, settings);
      for (const p of paths) expect({ [p]: result[p] }).toEqual({ [p]: [] });
      expect(result['<other>']).toBeUndefined();
    }, 120_000);
});
