/**
 * Explanations and diagrams wired into `tslc check`, `synth` and `compile`, in process: the
 * explanation under an unrealizable verdict (text and --json), --no-explain, --compose across
 * files, synth's dot/mermaid through src/explain/diagram, and compile --diagram.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { run as check } from '../../src/cli/commands/check.js';
import { run as compile } from '../../src/cli/commands/compile.js';
import { run as synth } from '../../src/cli/commands/synth.js';
import { buildDiagram, toDot, toMermaid } from '../../src/explain/diagram.js';
import { loadGame } from '../../src/frontend/load.js';
import type { MealyMachine } from '../../src/game/mealy.js';
import { tempDir } from '../external/fake-tools.js';

let out: string[] = [];
let err: string[] = [];
beforeEach(() => {
  out = [];
  err = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => (err.push(String(s)), true));
});
afterEach(() => vi.restoreAllMocks());

const TUTOR = 'specs/unrealizable/tutor-as-printed.tsl';
const SHOP = 'specs/conflicts/shopkeeper.tsl';
const EXPLORER = 'specs/conflicts/explorer.tsl';
const dir = tempDir();

describe('tslc check explains unrealizable specs', () => {
  test('the verdict line first, then the core by file:line', async () => {
    expect(await check({ files: [TUTOR], timeout: 30, explain: true })).toBe(1);
    const lines = out.join('').split('\n');
    expect(lines[0]).toMatch(/^specs\/unrealizable\/tutor-as-printed\.tsl: unrealizable \(/);
    const rest = lines.slice(1).join('\n');
    expect(rest).toMatch(/core \(minimal/);
    // The README of specs/unrealizable names the core line: `!giveAnswer(response) W hintCount = 3`.
    const line = readFileSync(TUTOR, 'utf8').split('\n').findIndex((l) => l.includes('!giveAnswer(response) W')) + 1;
    expect(rest).toContain(`tutor-as-printed.tsl:${line}`);
    expect(rest).toMatch(/counterplay/);
  });

  test('without explain (as in-process callers get it) only the verdict line', async () => {
    expect(await check({ files: [TUTOR], timeout: 30 })).toBe(1);
    expect(out.join('').trim().split('\n')).toHaveLength(1);
  });

  test('--no-explain prints only the verdict line', async () => {
    expect(await check({ files: [TUTOR], timeout: 30, explain: false })).toBe(1);
    expect(out.join('').trim().split('\n')).toHaveLength(1);
  });

  test('--json keeps {file, verdict, seconds} and adds the core lines', async () => {
    expect(await check({ files: [TUTOR], timeout: 30, json: true, explain: true })).toBe(1);
    const obj = JSON.parse(out.join('')) as { file: string; verdict: string; seconds: number; explanation: { core: { file: string; line: number; text: string }[] } };
    expect(obj.file).toBe(TUTOR);
    expect(obj.verdict).toBe('unrealizable');
    expect(typeof obj.seconds).toBe('number');
    expect(obj.explanation.core).toHaveLength(1);
    expect(obj.explanation.core[0].file).toBe(TUTOR);
    expect(obj.explanation.core[0].text).toContain('giveAnswer');
    expect(readFileSync(TUTOR, 'utf8').split('\n')[obj.explanation.core[0].line - 1]).toContain('giveAnswer');
  });

  test('realizable specs get no explanation', async () => {
    expect(await check({ files: [SHOP], timeout: 30, json: true, explain: true })).toBe(0);
    expect(JSON.parse(out.join('')).explanation).toBeUndefined();
  });

  test('--compose checks each file and the conjunction, with the core across files', async () => {
    expect(await check({ files: [SHOP, EXPLORER], timeout: 30, explain: true })).toBe(0);
    expect(out.join('')).not.toContain(' + ');
    out = [];
    expect(await check({ files: [SHOP, EXPLORER], timeout: 30, compose: true, explain: true })).toBe(1);
    const text = out.join('');
    expect(text).toMatch(/^specs\/conflicts\/shopkeeper\.tsl: realizable/m);
    expect(text).toMatch(/^specs\/conflicts\/explorer\.tsl: realizable/m);
    expect(text).toMatch(/^specs\/conflicts\/shopkeeper\.tsl \+ specs\/conflicts\/explorer\.tsl: unrealizable/m);
    expect(text).toMatch(/shopkeeper\.tsl:3 and explorer\.tsl:3 cannot both hold/);
  });
});

describe('diagrams', () => {
  test('synth --format dot and mermaid draw the same controller as --format json, via explain/diagram', async () => {
    const file = 'specs/adventure.tsl';
    expect(await synth({ file, format: 'json', timeout: 30, explain: true })).toBe(0);
    const machine = JSON.parse(out.join('')) as MealyMachine;
    const spec = await loadGame(file);
    out = [];
    expect(await synth({ file, format: 'dot', timeout: 30, explain: true })).toBe(0);
    expect(out.join('')).toBe(toDot(buildDiagram(machine, spec)));
    out = [];
    expect(await synth({ file, format: 'mermaid', timeout: 30, explain: true })).toBe(0);
    expect(out.join('')).toBe(toMermaid(buildDiagram(machine, spec)));
    expect(out.join('')).toMatch(/^stateDiagram-v2\n/);
  });

  test('compile --diagram writes <module>.mmd (or .dot); --check notices a stale diagram', async () => {
    const outDir = join(dir, 'diagrams');
    expect(await compile({ files: [SHOP], out: outDir, diagram: '', timeout: 30, explain: true })).toBe(0);
    const mmd = join(outDir, 'shopkeeper.mmd');
    expect(readFileSync(mmd, 'utf8')).toMatch(/^stateDiagram-v2\n[\s\S]*toMarket/);
    expect(existsSync(join(outDir, 'shopkeeper.dot'))).toBe(false);
    expect(await compile({ files: [SHOP], out: outDir, diagram: 'mermaid', check: true, timeout: 30, explain: true })).toBe(0);
    writeFileSync(mmd, 'stateDiagram-v2\n');
    expect(await compile({ files: [SHOP], out: outDir, diagram: 'mermaid', check: true, timeout: 30, explain: true })).toBe(1);
    expect(err.join('')).toMatch(/shopkeeper\.mmd: error: stale diagram/);
    expect(await compile({ files: [SHOP], out: outDir, diagram: 'dot', timeout: 30, explain: true })).toBe(0);
    expect(readFileSync(join(outDir, 'shopkeeper.dot'), 'utf8')).toMatch(/^digraph /);
    await expect(compile({ files: [SHOP], out: outDir, diagram: 'png' })).rejects.toThrow(/--diagram must be mermaid or dot/);
  });
});
