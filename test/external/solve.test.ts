/**
 * `--synthesizer` dispatch, the `auto` race, and `--cross-check`, with fake external tools and the
 * real builtin engine (or a stand-in that disagrees on purpose).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { builtinBackend } from '../../src/external/builtin.js';
import { crossCheck, crossCheckDiagnostics, formatCrossCheckTable } from '../../src/external/cross-check.js';
import { solve, type BuiltinBackend } from '../../src/external/solve.js';
import { findTools } from '../../src/external/tools.js';
import { ARBITER, HONEST, isAlive, LIAR, printingTool, tempDir, writeTool } from './fake-tools.js';

let dir: string;
beforeAll(() => {
  dir = tempDir();
});
const env = (vars: Record<string, string>) => ({ ...process.env, TSLC_CONFIG: '', PATH: '/usr/bin:/bin', TSLC_STRIX: '', ...vars });

/** A builtin stand-in that only answers once `ready()` holds (polled); records cancellation. */
function waitingBuiltin(answer: 'realizable' | 'unrealizable', ready: () => boolean): BuiltinBackend & { state: { aborted: boolean } } {
  const state = { aborted: false };
  const backend: BuiltinBackend = (signal) =>
    new Promise((resolve) => {
      const poll = setInterval(() => {
        if (signal.aborted) {
          clearInterval(poll);
          state.aborted = true;
          resolve({ status: 'unknown', reason: 'cancelled' });
        } else if (ready()) {
          clearInterval(poll);
          resolve({ status: answer });
        }
      }, 20);
    });
  return Object.assign(backend, { state });
}

describe('solve', () => {
  test('--synthesizer ltlsynt returns the tool’s verified controller', async () => {
    const tool = printingTool(dir, 'honest', HONEST);
    const r = await solve(ARBITER, { synthesizer: 'ltlsynt', mode: 'synthesis', builtin: builtinBackend(ARBITER, 'synthesis'), env: env({ TSLC_LTLSYNT: tool }) });
    expect(r).toMatchObject({ backend: 'ltlsynt', status: 'realizable', exitCode: 0 });
    expect(r.machine?.outputs).toEqual(['[grant <- yes]']);
  });

  test('--synthesizer ltlsynt with a lying tool: no controller, exit 1, loud diagnostic', async () => {
    const tool = printingTool(dir, 'liar', LIAR);
    const r = await solve(ARBITER, { synthesizer: 'ltlsynt', mode: 'synthesis', builtin: builtinBackend(ARBITER, 'synthesis'), env: env({ TSLC_LTLSYNT: tool }) });
    expect(r.machine).toBeUndefined();
    expect(r.exitCode).toBe(1);
    expect(r.diagnostics[0].message).toMatch(/FAILS independent verification/);
  });

  test('--synthesizer ltlsynt when it is not installed: exit 2 with the install hint', async () => {
    const r = await solve(ARBITER, { synthesizer: 'ltlsynt', mode: 'realizability', builtin: builtinBackend(ARBITER, 'realizability'), env: env({ TSLC_LTLSYNT: '', PATH: dir }) });
    expect(r.exitCode).toBe(2);
    expect(r.diagnostics[0].message).toMatch(/install Spot/);
  });

  test('auto: the external tool’s verified answer wins and the builtin engine is cancelled', async () => {
    const tool = printingTool(dir, 'honest2', HONEST);
    const builtin = waitingBuiltin('realizable', () => false);
    const r = await solve(ARBITER, { synthesizer: 'auto', mode: 'synthesis', builtin, env: env({ TSLC_LTLSYNT: tool }) });
    expect(r.backend).toBe('ltlsynt');
    expect(r.status).toBe('realizable');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(builtin.state.aborted).toBe(true);
  });

  test('auto: a lying tool does not win; its lie is reported next to the builtin answer', async () => {
    const done = join(dir, 'liar2.done');
    const tool = printingTool(dir, 'liar2', LIAR, 0, `touch "${done}"`);
    // Answer only after the liar has printed (plus time to verify its machine).
    let seen = 0;
    const builtin = waitingBuiltin('realizable', () => (existsSync(done) ? ++seen > 25 : false));
    const r = await solve(ARBITER, { synthesizer: 'auto', mode: 'synthesis', builtin, env: env({ TSLC_LTLSYNT: tool }) });
    expect(r.backend).toBe('builtin');
    expect(r.status).toBe('realizable');
    expect(r.diagnostics.map((d) => [d.severity, d.message])).toEqual([['warning', expect.stringMatching(/ltlsynt answered REALIZABLE .* FAILS/)]]);
  });

  test('auto: the builtin engine wins against a slow tool, whose process tree is killed', async () => {
    const pidFile = join(dir, 'slow.pid');
    const tool = writeTool(dir, 'slow', `echo $$ > "${pidFile}"\nsleep 1000`);
    const builtin = waitingBuiltin('unrealizable', () => existsSync(pidFile));
    const r = await solve(ARBITER, { synthesizer: 'auto', mode: 'synthesis', builtin, env: env({ TSLC_LTLSYNT: tool }) });
    expect(r).toMatchObject({ backend: 'builtin', status: 'unrealizable', exitCode: 1 });
    const pid = Number(readFileSync(pidFile, 'utf8'));
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(isAlive(pid)).toBe(false);
  });

  test('auto with no external tool installed is the builtin engine', async () => {
    const r = await solve(ARBITER, { synthesizer: 'auto', mode: 'synthesis', builtin: builtinBackend(ARBITER, 'synthesis'), env: env({ TSLC_LTLSYNT: '', PATH: dir }) });
    expect(r).toMatchObject({ backend: 'builtin', status: 'realizable' });
  });
});

describe('cross-check', () => {
  test('the builtin engine and an honest tool agree', async () => {
    const tool = printingTool(dir, 'honest3', HONEST);
    const tools = await findTools({ env: env({ TSLC_LTLSYNT: tool }), probeVersion: false });
    const row = await crossCheck(ARBITER, { builtin: builtinBackend(ARBITER, 'synthesis'), tools, timeoutMs: 20_000 });
    expect(row.agreement).toBe('agree');
    expect(row.cells.map((c) => [c.backend, c.verdict, c.verified])).toEqual([
      ['builtin', 'realizable', true],
      ['ltlsynt', 'realizable', true],
    ]);
    expect(formatCrossCheckTable([row])).toMatch(/arbiter\s+realizable✓ \d+\.\d\ds\s+realizable✓ \d+\.\d\ds\s+AGREE/);
  });

  test('a lying tool and a contradicting verdict are both disagreements', async () => {
    const liar = printingTool(dir, 'liar3', LIAR);
    const tools = await findTools({ env: env({ TSLC_LTLSYNT: liar }), probeVersion: false });
    const lying = await crossCheck(ARBITER, { builtin: builtinBackend(ARBITER, 'synthesis'), tools, timeoutMs: 20_000 });
    expect(lying.agreement).toBe('disagree');
    expect(crossCheckDiagnostics([lying])[0].message).toMatch(/^arbiter: ltlsynt answered REALIZABLE/);

    const honest = printingTool(dir, 'honest4', HONEST);
    const tools2 = await findTools({ env: env({ TSLC_LTLSYNT: honest }), probeVersion: false });
    const contradicting = await crossCheck(ARBITER, { builtin: async () => ({ status: 'unrealizable' }), tools: tools2, timeoutMs: 20_000 });
    expect(contradicting.agreement).toBe('disagree');
    const table = formatCrossCheckTable([lying, contradicting]);
    expect(table).toMatch(/WRONG/);
    expect(table).toMatch(/2 spec\(s\): 0 agree, 2 disagree/);
  });
});
