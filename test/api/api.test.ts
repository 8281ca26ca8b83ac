/**
 * The library front door (src/index.ts), in process: every function answers with the CLI's
 * diagnostics objects, its warnings and its exit code, reads files or in-memory sources, and
 * reports bad input in the result instead of throwing.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { audit, check, compile, explain, ExitCode, formatDiagnostics, parse, synthesize } from '../../src/index.js';
import { verifyController } from '../../src/verify/index.js';

const root = join(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'tslc-api-'));
const PRECEDENCE = 'always guarantee { a(x) -> b(x) W c(x); }\n';

describe('check', () => {
  it('returns the precedence warning of an in-memory source, with its location', async () => {
    const r = await check({ path: join(dir, 'mixed.tsl'), text: PRECEDENCE }, { explain: false });
    expect(r.specs).toHaveLength(1);
    expect(r.warnings.map((w) => [w.severity, w.code, w.span?.line, w.span?.col])).toEqual([['warning', 'precedence', 1, 20]]);
    expect(r.specs[0].warnings).toEqual(r.warnings);
    // Rendered as the CLI renders it: location, the source line and a caret.
    expect(formatDiagnostics(r.warnings)).toMatch(/mixed\.tsl:1:20: warning: "W" mixed with "->".*\n {2}always guarantee \{ a\(x\) -> b\(x\) W c\(x\); \}\n {21}\^+/);
  });

  it('one bad spec is an error in its verdict; the others are still checked; exit code 2', async () => {
    const r = await check([{ path: join(dir, 'broken.tsl'), text: 'guarantee { G (a(x) -> ; }' }, join(root, 'specs/adventure.tsl'), { ltl: 'G (r -> X g)', ins: ['r'], outs: ['g'] }]);
    expect(r.specs.map((s) => s.verdict)).toEqual(['error', 'realizable', 'realizable']);
    expect(r.errors.map((e) => [e.code, e.span?.line, e.span?.col])).toEqual([['parse', 1, 24]]);
    expect(r.exitCode).toBe(ExitCode.inputError);
    expect(r.specs[1].states).toBeGreaterThan(0);
  });

  it('an unrealizable spec comes with its explanation and exit code 1', async () => {
    const r = await check(join(root, 'specs/unrealizable/tutor-as-printed.tsl'));
    expect(r.specs[0].verdict).toBe('unrealizable');
    expect(r.exitCode).toBe(ExitCode.failure);
    const e = r.specs[0].explanation;
    expect(e?.core.length).toBeGreaterThan(0);
    expect(e?.text).toContain(e!.headline);
  });

  it('no input is a usage error in the result, not an exception', async () => {
    const r = await check([]);
    expect(r.exitCode).toBe(ExitCode.inputError);
    expect(r.errors[0].code).toBe('usage');
    const t = await check('specs/adventure.tsl', { timeout: -1 });
    expect(t.errors[0].message).toMatch(/--timeout expects a positive number/);
  });
});

describe('synthesize', () => {
  it('gives a controller that the independent checker accepts', async () => {
    const r = await synthesize(join(root, 'specs/adventure.tsl'));
    expect(r.verdict).toBe('realizable');
    if (r.verdict !== 'realizable') return;
    expect(verifyController(r.spec, r.controller).ok).toBe(true);
    expect(r.exitCode).toBe(ExitCode.ok);
  });

  it('reports warnings and input errors in the result', async () => {
    const warned = await synthesize({ path: join(dir, 'w.tsl'), text: PRECEDENCE });
    expect(warned.warnings.map((w) => w.code)).toEqual(['precedence']);
    const bad = await synthesize(join(dir, 'missing.tsl'));
    expect([bad.verdict, bad.exitCode, bad.errors[0].code]).toEqual(['error', ExitCode.inputError, 'io']);
  });
});

describe('compile', () => {
  it('returns the module, its metadata, its declaration and every file it read', async () => {
    const lib = join(dir, 'lib.tsl');
    writeFileSync(lib, 'go s = [out <- walk s];\n');
    const spec = join(dir, 'walker.tsl');
    const r = await compile({ path: spec, text: 'import "lib.tsl" as Lib\nalways guarantee { F Lib.go(s); }\n' }, { outDir: join(dir, 'gen'), dts: true });
    expect(r.exitCode).toBe(ExitCode.ok);
    const [m] = r.modules;
    expect(m.status).toBe('compiled');
    expect(m.module?.path).toBe(join(dir, 'gen', 'walker.ts'));
    expect(m.module?.text).toContain('export function createWalker');
    expect(m.metadata?.verified).toBe(true);
    expect(m.dependencies).toEqual([resolve(spec), resolve(lib)]);
    expect(m.declaration?.path).toBe(join(dir, 'walker.d.tsl.ts'));
    expect(m.declaration?.text).toMatch(/export declare function createWalker<S extends WalkerSignalShape = WalkerDefaultSignals>\(impl: WalkerImpl<S>/);
    // The declaration declares what the module exports, and has no bodies.
    expect(m.declaration?.text).not.toMatch(/return tslc\./);
  });

  it('an unrealizable spec is a module without text, exit code 1; --dts with --as is a usage error', async () => {
    const r = await compile(join(root, 'specs/unrealizable/tutor-as-printed.tsl'));
    expect([r.modules[0].status, r.modules[0].module, r.exitCode]).toEqual(['unrealizable', undefined, ExitCode.failure]);
    const u = await compile(['a.tsl', 'b.tsl'], { as: 'both', dts: true });
    expect([u.modules.length, u.exitCode, u.errors[0].code]).toEqual([0, ExitCode.inputError, 'usage']);
  });
});

describe('explain', () => {
  it('names the conflicting lines across composed files', async () => {
    const r = await explain([join(root, 'specs/conflicts/adventure.tsl'), join(root, 'specs/conflicts/strict.tsl')]);
    expect(r.verdict).toBe('unrealizable');
    if (r.verdict !== 'unrealizable') return;
    const files = new Set(r.explanation.core.map((c) => c.file));
    expect(files).toEqual(new Set([join(root, 'specs/conflicts/adventure.tsl'), join(root, 'specs/conflicts/strict.tsl')]));
    expect(r.exitCode).toBe(ExitCode.failure);
  });
});

describe('audit', () => {
  it('finds the violating run of a log in memory, and a missing field is an input error', async () => {
    const rules = { path: 'rules.ltl', text: 'pay-then-confirm: G (pay -> F confirm)\n' };
    async function* lines(): AsyncGenerator<string> {
      yield '{"run":"a","pay":true,"confirm":false}\n{"run":"a","pay":false,"confirm":true}\n';
      yield '{"run":"b","pay":true,"confirm":false}\n';
    }
    const r = await audit(lines(), { rules, groupBy: 'run', semantics: 'ltlf' });
    expect(r.exitCode).toBe(ExitCode.failure);
    expect(r.report?.runs.map((run) => [run.run, run.properties[0].verdict])).toEqual([
      ['a', 'satisfied'],
      ['b', 'violated'],
    ]);
    async function* lacking(): AsyncGenerator<string> {
      yield '{"run":"a","pay":true}\n';
    }
    const missing = await audit(lacking(), { rules, groupBy: 'run' });
    expect([missing.exitCode, missing.errors[0].code, missing.report]).toEqual([ExitCode.inputError, 'missing-field', undefined]);
  });
});

describe('parse', () => {
  it('gives the syntax tree, or the syntax error', async () => {
    const ok = await parse(join(root, 'specs/adventure.tsl'));
    expect(ok.ast?.sections.map((s) => s.kind)).toEqual(expect.arrayContaining(['guarantee']));
    expect(readFileSync(join(root, 'specs/adventure.tsl'), 'utf8')).toContain('guarantee');
    const bad = await parse({ path: 'x.tsl', text: 'guarantee { ( }' });
    expect([bad.ast, bad.exitCode, bad.errors[0].span?.line]).toEqual([undefined, ExitCode.inputError, 1]);
  });
});
