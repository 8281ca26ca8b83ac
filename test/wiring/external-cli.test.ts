/**
 * `--synthesizer` / `--cross-check` wired into `tslc check`, `synth` and `compile`, in process,
 * with fake ltlsynt scripts (TSLC_LTLSYNT). Each test fails if its command ignores the flag: the
 * fakes answer differently from the builtin engine, or record that they were run.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { run as check } from '../../src/cli/commands/check.js';
import { run as compile } from '../../src/cli/commands/compile.js';
import { run as synth } from '../../src/cli/commands/synth.js';
import { makeRenaming } from '../../src/external/names.js';
import { loadGame } from '../../src/frontend/load.js';
import type { Cube, MealyMachine } from '../../src/game/mealy.js';
import { inputNames, outputNames } from '../../src/game/spec.js';
import { synthesize } from '../../src/synthesis/index.js';
import { controllerToHoa } from '../../src/synthesis/print.js';
import { argsOf, HONEST, LIAR, printingTool, tempDir } from '../external/fake-tools.js';

let out: string[] = [];
let err: string[] = [];
const saved = { ...process.env };
beforeEach(() => {
  out = [];
  err = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => (err.push(String(s)), true));
  process.env.TSLC_CONFIG = '';
  process.env.TSLC_STRIX = '';
});
afterEach(() => {
  vi.restoreAllMocks();
  process.env = { ...saved };
});

const dir = tempDir();
/** G (r <-> g): realizable; after renaming r is i0 and g is o0, as in fake-tools' HONEST/LIAR. */
const iff = join(dir, 'iff.tlsf');
writeFileSync(
  iff,
  'INFO { TITLE: "iff" DESCRIPTION: "test" SEMANTICS: Mealy TARGET: Mealy }\nMAIN {\n  INPUTS { r; }\n  OUTPUTS { g; }\n  GUARANTEE { G (r <-> g); }\n}\n',
);
const shop = join(dir, 'shop.tsl');
writeFileSync(shop, 'always guarantee {\n  inTown(s) -> [storyPassage <- toMarket(s)];\n  ! [storyPassage <- toCave(s)];\n}\n');

const fake = (name: string, stdout: string, exitCode = 0) => {
  process.env.TSLC_LTLSYNT = printingTool(dir, name, stdout, exitCode);
};

/** A machine in the spec's names, as ltlsynt would print it: APs renamed to i<k>/o<k>. */
function asToolOutput(m: MealyMachine, ins: readonly string[], outs: readonly string[]): string {
  const r = makeRenaming(ins, outs);
  const rename = (c: Cube): Cube => Object.fromEntries(Object.entries(c).map(([k, v]) => [r.toSafe.get(k)!, v]));
  const safe: MealyMachine = {
    ...m,
    inputs: m.inputs.map((n) => r.toSafe.get(n)!),
    outputs: m.outputs.map((n) => r.toSafe.get(n)!),
    transitions: m.transitions.map((t) => ({ ...t, input: rename(t.input), output: rename(t.output) })),
  };
  return `REALIZABLE\n${controllerToHoa(safe, 'fake')}`;
}

describe('tslc check --synthesizer / --cross-check', () => {
  test('--synthesizer ltlsynt takes the tool’s verdict (the builtin engine would say realizable)', async () => {
    fake('unreal', 'UNREALIZABLE\n', 1);
    expect(await check({ files: [iff], synthesizer: 'ltlsynt' })).toBe(1);
    expect(out.join('')).toMatch(/iff\.tlsf: unrealizable \(\d+\.\d\d s, ltlsynt\)/);
    expect(argsOf(dir, 'unreal')).toContain('--realizability');
  });

  test('a bad file is reported and the other files are still checked (exit 2)', async () => {
    fake('unreal2', 'UNREALIZABLE\n', 1);
    const bad = join(dir, 'broken.tlsf');
    writeFileSync(bad, 'INFO { TITLE: ');
    expect(await check({ files: [bad, iff], synthesizer: 'ltlsynt' })).toBe(2);
    expect(err.join('')).toContain('broken.tlsf');
    expect(out.join('')).toMatch(/iff\.tlsf: unrealizable/);
  });

  test('the builtin default is untouched by the wiring', async () => {
    fake('unused', 'UNREALIZABLE\n', 1);
    expect(await check({ files: [iff], synthesizer: 'builtin' })).toBe(0);
    expect(out.join('')).toMatch(/iff\.tlsf: realizable/);
    expect(existsSync(join(dir, 'unused.args'))).toBe(false);
  });

  test('--cross-check tabulates and exits 1 on disagreement, 0 on agreement', async () => {
    fake('liar-unreal', 'UNREALIZABLE\n', 1);
    expect(await check({ files: [iff], 'cross-check': true })).toBe(1);
    expect(out.join('')).toMatch(/iff\.tlsf\s+realizable✓ [\d.]+s\s+unrealizable [\d.]+s\s+DISAGREE/);
    out = [];
    fake('honest', HONEST);
    expect(await check({ files: [iff], 'cross-check': true })).toBe(0);
    expect(out.join('')).toMatch(/iff\.tlsf\s+realizable✓ [\d.]+s\s+realizable✓ [\d.]+s\s+AGREE/);
  });

  test('a missing tool is an input error naming how to install it', async () => {
    process.env.TSLC_LTLSYNT = join(dir, 'no-such-ltlsynt');
    expect(await check({ files: [iff], synthesizer: 'ltlsynt' })).toBe(2);
    expect(err.join('')).toMatch(/ltlsynt/);
  });

  test('--ltl with an external synthesizer is a usage error, not silently builtin', async () => {
    await expect(check({ ltl: 'G (r <-> g)', ins: ['r'], outs: ['g'], synthesizer: 'ltlsynt' })).rejects.toThrow(/spec files only/);
  });
});

describe('tslc synth --synthesizer ltlsynt', () => {
  test('prints the tool’s verified controller and names the back end', async () => {
    fake('synth-honest', HONEST);
    expect(await synth({ file: iff, format: 'json', synthesizer: 'ltlsynt', timeout: 20 })).toBe(0);
    const m = JSON.parse(out.join('')) as MealyMachine;
    expect(m.inputs).toEqual(['r']);
    expect(m.outputs).toEqual(['g']);
    expect(err.join('')).toMatch(/realizable, 1 state \([\d.]+ s, ltlsynt\)/);
    expect(argsOf(dir, 'synth-honest')).not.toContain('--realizability');
  });

  test('a lying tool is rejected loudly: exit 1, no controller printed', async () => {
    fake('synth-liar', LIAR);
    expect(await synth({ file: iff, format: 'hoa', synthesizer: 'ltlsynt', timeout: 20 })).toBe(1);
    expect(out.join('')).toBe('');
    expect(err.join('')).toMatch(/FAILS independent verification/);
  });
});

describe('tslc compile --synthesizer ltlsynt', () => {
  test('writes a module from the tool’s controller, recorded in its metadata', async () => {
    const spec = await loadGame(shop);
    const own = synthesize(spec, { timeoutMs: 20_000 });
    if (own.verdict !== 'realizable') throw new Error('fixture must be realizable');
    fake('compile-honest', asToolOutput(own.controller, inputNames(spec), outputNames(spec)));
    const outDir = join(dir, 'out-honest');
    expect(await compile({ files: [shop], out: outDir, synthesizer: 'ltlsynt', timeout: 20 })).toBe(0);
    const module = readFileSync(join(outDir, 'shop.ts'), 'utf8');
    expect(module).toContain('ltlsynt (verified by tslc)');
    expect(out.join('')).toMatch(/shop\.ts: written \(\d+ states?, [\d.]+ s, ltlsynt\)/);
    expect(argsOf(dir, 'compile-honest').some((a) => a.startsWith('--outs='))).toBe(true);
  });

  test('a lying tool: nothing written, exit 1, the verification failure on stderr', async () => {
    const spec = await loadGame(shop);
    const toCave = outputNames(spec).find((n) => n.includes('toCave'));
    expect(toCave).toBeDefined();
    // Always sends the player to the cave, which the spec forbids.
    const lie: MealyMachine = {
      inputs: inputNames(spec),
      outputs: outputNames(spec),
      stateCount: 1,
      initial: 0,
      transitions: [{ from: 0, to: 0, input: {}, output: Object.fromEntries(outputNames(spec).map((n) => [n, n === toCave])) }],
    };
    fake('compile-liar', asToolOutput(lie, inputNames(spec), outputNames(spec)));
    const outDir = join(dir, 'out-liar');
    mkdirSync(outDir, { recursive: true });
    expect(await compile({ files: [shop], out: outDir, synthesizer: 'ltlsynt', timeout: 20 })).toBe(1);
    expect(existsSync(join(outDir, 'shop.ts'))).toBe(false);
    expect(err.join('')).toMatch(/FAILS independent verification/);
  });
});
