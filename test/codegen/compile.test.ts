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
