import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toJsonl } from '../../runtime/trace.js';
import { run as explain } from '../../src/cli/commands/explain.js';
import { run as report } from '../../src/cli/commands/report.js';
import { run as why } from '../../src/cli/commands/why.js';
import { buildControllerTable } from '../../src/codegen/table.js';
import { UserError } from '../../src/diagnostics/diagnostic.js';
import { loadSpecs } from '../../src/report/build.js';
import { synthesize } from '../../src/synthesis/index.js';
import { simulateTrace } from './helpers.js';

let out = '';
beforeEach(() => {
  out = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
});
afterEach(() => vi.restoreAllMocks());

describe('CLI commands (in-process)', () => {
  it('tslc explain prints the cross-file core and exits 1', async () => {
    const code = await explain({ files: ['specs/conflicts/shopkeeper.tsl', 'specs/conflicts/explorer.tsl'], timeout: 20 });
    expect(code).toBe(1);
    expect(out).toContain('shopkeeper.tsl:3 and explorer.tsl:3 cannot both hold');
    expect(out).toContain('counterplay');
  });

  it('tslc explain --json, and exit 0 on a realizable spec', async () => {
    expect(await explain({ files: ['specs/conflicts/strict.tsl'], timeout: 20 })).toBe(0);
    out = '';
    expect(await explain({ files: ['specs/conflicts/adventure.tsl', 'specs/conflicts/strict.tsl'], timeout: 20, json: true })).toBe(1);
    const json = JSON.parse(out) as { core: { location: string }[]; minimal: boolean };
    expect(json.core.map((c) => c.location).sort()).toEqual(['adventure.tsl:23', 'strict.tsl:3']);
    expect(json.minimal).toBe(true);
  });

  it('tslc explain: a missing file is a user error, not a crash', async () => {
    await expect(explain({ files: ['specs/conflicts/nope.tsl'] })).rejects.toBeInstanceOf(UserError);
  });

  it('tslc why --effect and --step on a recorded trace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tslc-why-'));
    const spec = await loadSpecs(['specs/conflicts/adventure.tsl']);
    const r = synthesize(spec, { timeoutMs: 20_000 });
    if (r.verdict !== 'realizable') throw new Error('adventure must be realizable');
    const table = buildControllerTable(spec, r.controller);
    const trace = simulateTrace(table, 6, (s) => ({ inTown_s: s >= 1, inMarket_s: false, inCave_s: false }), true);
    writeFileSync(join(dir, 'table.json'), JSON.stringify(table));
    writeFileSync(join(dir, 'run.jsonl'), toJsonl(trace));
    const code = await why({ trace: join(dir, 'run.jsonl'), table: join(dir, 'table.json'), effect: 'never toCave' });
    expect(code).toBe(0);
    expect(out).toContain('closest cause: 1 change');
    expect(out).toContain('inMarket s was false');
    out = '';
    expect(await why({ trace: join(dir, 'run.jsonl'), table: join(dir, 'table.json'), step: 1 })).toBe(0);
    expect(out).toMatch(/^step 1 \(state \d+\): chose/);
    await expect(why({ trace: join(dir, 'run.jsonl'), table: join(dir, 'table.json'), effect: 'never toMoon' })).rejects.toBeInstanceOf(UserError);
  }, 30_000);

  it('tslc report writes a self-contained page', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tslc-report-cli-'));
    const file = join(dir, 'r.html');
    expect(await report({ files: ['specs/conflicts/shopkeeper.tsl', 'specs/conflicts/explorer.tsl'], output: file, timeout: 20 })).toBe(1);
    const html = readFileSync(file, 'utf8');
    expect(html).toContain('class="verdict unrealizable"');
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=/);
  });
});
