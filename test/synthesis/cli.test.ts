import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { run as check } from '../../src/cli/commands/check.js';
import { run as synth } from '../../src/cli/commands/synth.js';
import { UserError } from '../../src/diagnostics/diagnostic.js';
import { loadGame } from '../../src/frontend/load.js';
import { parseHoa } from '../../src/automata/hoa.js';
import { hoaToMealy } from '../../src/automata/hoa-convert.js';
import { verifyController } from '../../src/verify/index.js';
import { ltlGame } from '../../src/frontend/game-from-ltl.js';
import { tlsfWriter } from '../support/tlsf.js';

let out: string[] = [];
let err: string[] = [];
beforeEach(() => {
  out = [];
  err = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => (err.push(String(s)), true));
});
afterEach(() => vi.restoreAllMocks());

const dir = mkdtempSync(join(tmpdir(), 'tslc-synthesis-'));
const tlsf = tlsfWriter(dir);

describe('tslc check', () => {
  test('one line per spec, exit 1 when one is unrealizable', async () => {
    const good = tlsf('good.tlsf', 'G (r -> F g)');
    const bad = tlsf('bad.tlsf', 'G (g <-> X r)');
    const code = await check({ files: [good, bad], timeout: 20 });
    expect(code).toBe(1);
    const lines = out.join('').trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/good\.tlsf: realizable \([0-9.]+ s, 1 state\)$/);
    expect(lines[1]).toMatch(/bad\.tlsf: unrealizable \([0-9.]+ s\)$/);
  });

  test('--json prints one object per spec; exit 0 when all are realizable', async () => {
    const code = await check({ ltl: 'G (r -> X g)', ins: ['r'], outs: ['g'], json: true, timeout: 20 });
    expect(code).toBe(0);
    const obj = JSON.parse(out.join('').trim());
    expect(obj).toMatchObject({ file: '<formula>', verdict: 'realizable', states: 1 });
    expect(typeof obj.seconds).toBe('number');
  });

  test('a syntax error is an input error (exit 2) with file:line:col', async () => {
    const broken = join(dir, 'broken.tlsf');
    writeFileSync(broken, 'INFO { TITLE: "x" DESCRIPTION: "x" SEMANTICS: Mealy TARGET: Mealy }\nMAIN { INPUTS { r; } OUTPUTS { g; } GUARANTEE { G (r -> ; } }\n');
    const code = await check({ files: [broken], timeout: 20 });
    expect(code).toBe(2);
    expect(err.join('')).toMatch(/broken\.tlsf:2:\d+: error:/);
    expect(err.join('')).toContain('^');
  });
});

describe('tslc synth', () => {
  test('HOA output with controllable-AP reads back as a verified controller', async () => {
    const file = tlsf('resp.tlsf', 'G (r -> X g)');
    const code = await synth({ file, format: 'hoa', timeout: 20 });
    expect(code).toBe(0);
    const text = out.join('');
    expect(text).toMatch(/^HOA: v1/);
    expect(text).toMatch(/controllable-AP: 1/);
    const machine = hoaToMealy(parseHoa(text));
    expect(verifyController(ltlGame('G (r -> X g)', ['r'], ['g']), machine).ok).toBe(true);
  });

  test('dot and json formats; unrealizable exits 1 with a counterstrategy in json', async () => {
    const file = tlsf('resp2.tlsf', 'G (r -> X g)');
    expect(await synth({ file, format: 'dot', timeout: 20 })).toBe(0);
    expect(out.join('')).toMatch(/^digraph/);
    out = [];
    expect(await synth({ file, format: 'json', timeout: 20 })).toBe(0);
    expect(JSON.parse(out.join('')).stateCount).toBe(1);
    out = [];
    const bad = tlsf('bad2.tlsf', 'G (g <-> X r)');
    expect(await synth({ file: bad, format: 'json', timeout: 20 })).toBe(1);
    expect(JSON.parse(out.join('')).transitions.length).toBeGreaterThan(0);
  });
});

describe('loadGame', () => {
  test('unknown extension is a user error', async () => {
    await expect(loadGame(join(dir, 'x.txt'))).rejects.toBeInstanceOf(UserError);
  });
  test('dispatches .tlsf and .tsl', async () => {
    const spec = await loadGame(tlsf('load.tlsf', 'G (r -> F g)'));
    expect(spec.inputs.map((p) => p.name)).toEqual(['r']);
    const tsl = await loadGame('specs/adventure.tsl');
    expect(tsl.signals.length).toBeGreaterThan(0);
    expect(readFileSync('specs/adventure.tsl', 'utf8').length).toBeGreaterThan(0);
  });
});
