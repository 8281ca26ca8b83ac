/**
 * runExternal against fake tools: honest, lying, garbage, crashing, sleeping, missing. Every
 * controller goes through the real independent checker.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { runExternal } from '../../src/external/run.js';
import { ap, G, iff } from '../../src/ltl/formula.js';
import { toSpot } from '../../src/ltl/print.js';
import { cubeMatches } from '../../src/game/mealy.js';
// ↔ operands are in canonical (structural) order, so the printed orientation is not source order.
const ARBITER_LTL = toSpot(G(iff(ap('i0'), ap('o0'))));
import { ARBITER, argsOf, HONEST, isAlive, LIAR, printingTool, tempDir, writeTool } from './fake-tools.js';

let dir: string;
beforeAll(() => {
  dir = tempDir();
});

const envWith = (vars: Record<string, string>) => ({ ...process.env, TSLC_CONFIG: '', ...vars });

describe('runExternal with fake tools', () => {
  test('an honest tool: verified controller in the spec’s own names, safe names on the command line', async () => {
    const tool = printingTool(dir, 'honest', HONEST);
    const r = await runExternal('ltlsynt', ARBITER, { mode: 'synthesis', timeoutMs: 20_000, env: envWith({ TSLC_LTLSYNT: tool }) });
    expect(r.status).toBe('realizable');
    if (r.status !== 'realizable') return;
    expect(r.verified).toBe(true);
    expect(r.machine!.inputs).toEqual(['req "x", y']);
    expect(r.machine!.outputs).toEqual(['[grant <- yes]']);
    // On req the machine grants, otherwise it does not.
    const onReq = r.machine!.transitions.filter((t) => cubeMatches(t.input, () => true));
    expect(onReq.map((t) => t.output['[grant <- yes]'])).toEqual([true]);
    const args = argsOf(dir, 'honest');
    expect(args).toEqual(['-f', ARBITER_LTL, '--ins=i0', '--outs=o0']);
  });

  test('realizability mode passes --realizability and needs no machine', async () => {
    const tool = printingTool(dir, 'realz', 'REALIZABLE\n');
    const r = await runExternal('ltlsynt', ARBITER, { mode: 'realizability', timeoutMs: 20_000, env: envWith({ TSLC_LTLSYNT: tool }) });
    expect(r).toMatchObject({ status: 'realizable', verified: false });
    expect(argsOf(dir, 'realz')).toContain('--realizability');
  });

  test('UNREALIZABLE (exit 1, counter-strategy after it) is read as unrealizable', async () => {
    const tool = printingTool(dir, 'unreal', 'UNREALIZABLE\nHOA: v1\n(whatever follows is ignored)\n', 1);
    const r = await runExternal('ltlsynt', ARBITER, { mode: 'synthesis', timeoutMs: 20_000, env: envWith({ TSLC_LTLSYNT: tool }) });
    expect(r.status).toBe('unrealizable');
  });

  test('Strix gets both --ins and --outs and the same checks', async () => {
    const tool = printingTool(dir, 'strix', HONEST);
    const r = await runExternal('strix', ARBITER, { mode: 'synthesis', timeoutMs: 20_000, env: envWith({ TSLC_STRIX: tool }) });
    expect(r.status).toBe('realizable');
    expect(argsOf(dir, 'strix')).toEqual(['-f', ARBITER_LTL, '--ins=i0', '--outs=o0']);
  });

  test('a tool that lies is caught, loudly, with a counterexample', async () => {
    const tool = printingTool(dir, 'liar', LIAR);
    const r = await runExternal('ltlsynt', ARBITER, { mode: 'synthesis', timeoutMs: 20_000, env: envWith({ TSLC_LTLSYNT: tool }) });
    expect(r.status).toBe('wrong');
    if (r.status !== 'wrong') return;
    expect(r.diagnostic.message).toMatch(/ltlsynt answered REALIZABLE .* FAILS independent verification/);
    expect(r.diagnostic.message).toMatch(/counterexample:/);
    expect(r.diagnostic.message).toContain('req "x", y');
    expect(r.counterexample).toBeDefined();
  });

  test('a tool that swaps input and output sides is rejected', async () => {
    const tool = printingTool(dir, 'swapped', HONEST.replace('controllable-AP: 1', 'controllable-AP: 0'));
    const r = await runExternal('ltlsynt', ARBITER, { mode: 'synthesis', timeoutMs: 20_000, env: envWith({ TSLC_LTLSYNT: tool }) });
    expect(r.status).toBe('error');
    if (r.status === 'error') expect(r.diagnostic.message).toMatch(/treats input "req "x", y" as an output/);
  });

  test('garbage output becomes a diagnostic quoting it', async () => {
    const tool = printingTool(dir, 'garbage', 'Hello from a broken build\nmore noise\n');
    const r = await runExternal('ltlsynt', ARBITER, { mode: 'synthesis', timeoutMs: 20_000, env: envWith({ TSLC_LTLSYNT: tool }) });
    expect(r.status).toBe('error');
    if (r.status === 'error') expect(r.diagnostic.message).toMatch(/neither REALIZABLE nor UNREALIZABLE: "Hello from a broken build"/);
  });

  test('a corrupted HOA controller becomes a diagnostic with its position', async () => {
    const tool = printingTool(dir, 'corrupt', HONEST.replace('[0&1 | !0&!1] 0', '[0&1 | !0&!7] 0'));
    const r = await runExternal('ltlsynt', ARBITER, { mode: 'synthesis', timeoutMs: 20_000, env: envWith({ TSLC_LTLSYNT: tool }) });
    expect(r.status).toBe('error');
    if (r.status !== 'error') return;
    expect(r.diagnostic.message).toMatch(/malformed HOA controller: atomic proposition 7 does not exist/);
    expect(r.diagnostic.span).toMatchObject({ file: '<ltlsynt output>', line: 12 });
  });

  test('REALIZABLE without a machine in synthesis mode is an error', async () => {
    const tool = printingTool(dir, 'nomachine', 'REALIZABLE\n');
    const r = await runExternal('ltlsynt', ARBITER, { mode: 'synthesis', timeoutMs: 20_000, env: envWith({ TSLC_LTLSYNT: tool }) });
    expect(r.status).toBe('error');
    if (r.status === 'error') expect(r.diagnostic.message).toMatch(/printed no controller/);
  });

  test('a non-zero exit becomes a diagnostic with the tool’s stderr', async () => {
    const tool = writeTool(dir, 'failing', 'echo "ltlsynt: unknown option --frobnicate" >&2\nexit 2');
    const r = await runExternal('ltlsynt', ARBITER, { mode: 'synthesis', timeoutMs: 20_000, env: envWith({ TSLC_LTLSYNT: tool }) });
    expect(r.status).toBe('error');
    if (r.status === 'error') expect(r.diagnostic.message).toBe('ltlsynt exited with status 2: ltlsynt: unknown option --frobnicate');
  });

  test('a crash by signal is reported', async () => {
    const tool = writeTool(dir, 'crashing', 'kill -SEGV $$');
    const r = await runExternal('ltlsynt', ARBITER, { mode: 'synthesis', timeoutMs: 20_000, env: envWith({ TSLC_LTLSYNT: tool }) });
    expect(r.status).toBe('error');
    if (r.status === 'error') expect(r.diagnostic.message).toMatch(/killed by SIGSEGV/);
  });

  test('the timeout kills the whole process tree, even a child that ignores SIGTERM', async () => {
    const pids = join(dir, 'sleeper.pids');
    const tool = writeTool(
      dir,
      'sleeper',
      `sh -c 'trap "" TERM; while :; do sleep 1; done' &\necho $! > "${pids}"\necho $$ >> "${pids}"\nsleep 1000`,
    );
    const t0 = performance.now();
    const r = await runExternal('ltlsynt', ARBITER, { mode: 'synthesis', timeoutMs: 500, env: envWith({ TSLC_LTLSYNT: tool }) });
    expect(r.status).toBe('timeout');
    expect(performance.now() - t0).toBeLessThan(10_000);
    const [child, self] = readFileSync(pids, 'utf8').trim().split('\n').map(Number);
    // SIGKILL follows SIGTERM after a short grace period.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(isAlive(self)).toBe(false);
    expect(isAlive(child)).toBe(false);
  });

  test('a missing binary gives one line: what to install and how to point tslc at it', async () => {
    const r = await runExternal('ltlsynt', ARBITER, {
      mode: 'synthesis',
      timeoutMs: 1000,
      env: envWith({ TSLC_LTLSYNT: '', PATH: dir + '/nowhere' }),
    });
    expect(r.status).toBe('unavailable');
    if (r.status !== 'unavailable') return;
    expect(r.diagnostic.message).not.toContain('\n');
    expect(r.diagnostic.message).toMatch(/ltlsynt not found: install Spot .*TSLC_LTLSYNT=.*tslc\.config\.json/);
  });

  test('a TSLC_LTLSYNT that points nowhere is reported as such', async () => {
    const r = await runExternal('ltlsynt', ARBITER, { mode: 'synthesis', timeoutMs: 1000, env: envWith({ TSLC_LTLSYNT: join(dir, 'absent') }) });
    expect(r.status).toBe('unavailable');
    if (r.status === 'unavailable') expect(r.diagnostic.message).toMatch(/TSLC_LTLSYNT=.*absent is not an executable file/);
  });

  test('Moore specs are refused rather than solved under the wrong semantics', async () => {
    const tool = printingTool(dir, 'moore', HONEST);
    const r = await runExternal('ltlsynt', { ...ARBITER, semantics: 'moore' }, { mode: 'synthesis', timeoutMs: 1000, env: envWith({ TSLC_LTLSYNT: tool }) });
    expect(r.status).toBe('error');
  });
});
