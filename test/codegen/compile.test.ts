import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { run } from '../../src/cli/commands/compile.js';
import { UserError } from '../../src/diagnostics/diagnostic.js';
import { loadGame } from '../../src/frontend/load.js';
import { assertVerified, CodegenVerificationError, defaultRuntimeImport } from '../../src/codegen/pipeline.js';
import type { MealyMachine } from '../../src/game/mealy.js';
import { repoRoot } from './typecheck.js';

const conversation = join(repoRoot, 'specs', 'conversation.tsl');
const forest = join(repoRoot, 'specs', 'forest.tsl');

describe('tslc compile (in-process)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tslc-compile-'));
    // Keep the command's progress lines out of the test output.
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  });
  afterAll(() => {
    vi.restoreAllMocks();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes one module per spec; --check passes when fresh and fails when stale or missing', async () => {
    const out = join(dir, 'one');
    expect(await run({ files: [conversation, forest], out })).toBe(0);
    const module = join(out, 'conversation.ts');
    const text = readFileSync(module, 'utf8');
    expect(text).toContain('export function createConversation');
    expect(text).toContain("from 'tslc/runtime'");
    expect(text).toMatch(/"verified": true/);
    expect(existsSync(join(out, 'forest.ts'))).toBe(true);
    expect(await run({ files: [conversation, forest], out, check: true })).toBe(0);
    writeFileSync(module, text.replace('"stateCount": ', '"stateCount": 1'));
    expect(await run({ files: [conversation], out, check: true })).toBe(1);
    // --check never writes.
    expect(readFileSync(module, 'utf8')).not.toBe(text);
    rmSync(join(out, 'forest.ts'));
    expect(await run({ files: [forest], out, check: true })).toBe(1);
    expect(existsSync(join(out, 'forest.ts'))).toBe(false);
  });

  /** Runs the command and returns what it wrote to stdout and stderr. */
  async function captured(args: Record<string, unknown>): Promise<{ code: number; stdout: string; stderr: string }> {
    let stdout = '';
    let stderr = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true));
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true));
    try {
      return { code: await run(args), stdout, stderr };
    } finally {
      vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
      vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    }
  }

  it('--check reports a missing or stale module once, on stderr, with the fix; stdout lists only fresh modules', async () => {
    const out = join(dir, 'check-streams');
    expect(await run({ files: [conversation, forest], out })).toBe(0);
    rmSync(join(out, 'forest.ts'));
    const missing = await captured({ files: [conversation, forest], out, check: true });
    expect(missing.code).toBe(1);
    expect(missing.stdout).toMatch(/conversation\.ts: fresh \(2 states, /);
    expect(missing.stdout).not.toContain('forest.ts');
    expect(missing.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/forest\.ts: error: missing module; run `tslc compile .*forest\.tsl -o /)]);

    writeFileSync(join(out, 'forest.ts'), '// edited\n');
    const stale = await captured({ files: [forest], out, check: true });
    expect(stale.code).toBe(1);
    expect(stale.stdout).toBe('');
    expect(stale.stderr).toMatch(/^\S*forest\.ts: error: stale module; run `tslc compile /);

    const json = await captured({ files: [conversation, forest], out, check: true, json: true });
    const report = JSON.parse(json.stdout) as { modules: { name: string; status: string }[] };
    expect(report.modules.map((m) => [m.name, m.status])).toEqual([
      ['conversation', 'fresh'],
      ['forest', 'stale'],
    ]);
    rmSync(join(out, 'forest.ts'));
    const jsonMissing = await captured({ files: [forest], out, check: true, json: true });
    expect((JSON.parse(jsonMissing.stdout) as { modules: { status: string }[] }).modules[0].status).toBe('missing');
  });

  it('--check --diagram: a stale diagram is one stderr line and keeps its module off stdout', async () => {
    const out = join(dir, 'check-diagram');
    expect(await run({ files: [forest], out, diagram: 'mermaid' })).toBe(0);
    writeFileSync(join(out, 'forest.mmd'), 'graph LR\n');
    const r = await captured({ files: [forest], out, check: true, diagram: 'mermaid' });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/forest\.mmd: error: stale diagram; run `tslc compile .* --diagram mermaid -o /)]);
  });

  it('composes several specs into one controller with --as and honours --runtime-import', async () => {
    const out = join(dir, 'composed');
    expect(await run({ files: [conversation, forest], out, as: 'talk-forest', 'runtime-import': '@me/runtime' })).toBe(0);
    const text = readFileSync(join(out, 'talk-forest.ts'), 'utf8');
    expect(text).toContain('export function createTalkForest');
    expect(text).toContain("from '@me/runtime'");
    // Both specs' functions are in the one implementation interface.
    expect(text).toMatch(/readonly workTopic:/);
    expect(text).toMatch(/readonly toForest:/);
  });

  it('exits 1 for an unrealizable spec and writes nothing', async () => {
    const spec = join(dir, 'impossible.tsl');
    // The controller cannot make an environment predicate true.
    writeFileSync(spec, 'always guarantee {\n  happy(mood);\n  [reply <- cheer(mood)];\n}\n');
    const out = join(dir, 'none');
    expect(await run({ files: [spec], out })).toBe(1);
    expect(existsSync(join(out, 'impossible.ts'))).toBe(false);
  });

  it('reports user mistakes as diagnostics (UserError), not crashes', async () => {
    const bad = join(dir, 'broken.tsl');
    writeFileSync(bad, 'always guarantee {\n  [x <- ;\n}\n');
    await expect(run({ files: [bad], out: dir })).rejects.toBeInstanceOf(UserError);
    await expect(run({ files: [join(dir, 'missing.tsl')], out: dir })).rejects.toBeInstanceOf(UserError);
    await expect(run({ files: [conversation], out: dir, as: 'bad name!' })).rejects.toBeInstanceOf(UserError);
    await expect(run({ files: [conversation] })).rejects.toBeInstanceOf(UserError);
  });
});

describe('compile pipeline safeguards', () => {
  it('refuses a controller that fails independent verification', async () => {
    const spec = await loadGame(conversation);
    const keep = spec.outputs.find((o) => o.update?.isSelfUpdate)!.name;
    // Never talks about work: violates `F [speakA <- workTopic summary]`.
    const lazy: MealyMachine = {
      inputs: spec.inputs.map((p) => p.name),
      outputs: spec.outputs.map((p) => p.name),
      stateCount: 1,
      initial: 0,
      transitions: [{ from: 0, input: {}, output: Object.fromEntries(spec.outputs.map((o) => [o.name, o.name === keep])), to: 0 }],
    };
    expect(() => assertVerified(spec, lazy)).toThrow(CodegenVerificationError);
  });

  it('imports the runtime relatively inside the tslc checkout and as tslc/runtime elsewhere', () => {
    expect(defaultRuntimeImport(join(repoRoot, 'generated'))).toBe('../runtime/index.js');
    expect(defaultRuntimeImport(join(repoRoot, 'a', 'b'))).toBe('../../runtime/index.js');
    expect(defaultRuntimeImport(tmpdir())).toBe('tslc/runtime');
  });
});
