import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runDemo } from '../../examples/cyoa/demo.js';
import { type EvalConfig, type EvalReport, formatReport, parseEvalArgs, runEvaluation, type TaskRow } from '../../examples/cyoa/eval.js';

const base: EvalConfig = { tasks: ['forest', 'choices'], games: 12, steps: 12, model: 'sim', seed: 3, repair: 0 };

describe('the adherence evaluation on the simulated model', () => {
  it('procedural adherence is 100%; observed adherence falls with hallucination and rises with repair', async () => {
    const clean = await runEvaluation({ ...base, hallucinationRate: 0 });
    const noisy = await runEvaluation({ ...base, hallucinationRate: 0.6 });
    const repaired = await runEvaluation({ ...base, hallucinationRate: 0.6, repair: 4 });
    for (const report of [clean, noisy, repaired]) {
      for (const row of report.rows) {
        expect(row.skipped).toBeUndefined();
        expect(row.completed).toBe(12);
        expect(row.proceduralAdherence).toBe(100);
        expect(row.arithmeticErrors).toBe(0);
      }
    }
    const observed = (r: typeof clean) => r.rows.reduce((sum, row) => sum + row.observedAdherence, 0);
    expect(clean.rows.every((r) => r.observedAdherence === 100)).toBe(true);
    expect(observed(noisy)).toBeLessThan(observed(clean));
    expect(observed(repaired)).toBeGreaterThan(observed(noisy));
    expect(noisy.rows.some((r) => r.hallucinationErrors > 0)).toBe(true);
    expect(repaired.rows.reduce((n, r) => n + r.repairs, 0)).toBeGreaterThan(0);
  });

  it('is deterministic for a seed and prints Table 1 and Table 2 with model, seed, calls and tokens', async () => {
    const a = await runEvaluation({ ...base, games: 3, tasks: ['adventure'], hallucinationRate: 0.3 });
    const b = await runEvaluation({ ...base, games: 3, tasks: ['adventure'], hallucinationRate: 0.3 });
    const stable = (r: typeof a) => r.rows.map((row) => ({ ...row, usage: { ...row.usage, ms: 0 } }));
    expect(stable(a)).toEqual(stable(b));
    const text = formatReport(a);
    expect(text).toMatch(/SIMULATED/);
    expect(text).toMatch(/seed: 3/);
    expect(text).toMatch(new RegExp(`LLM calls: ${a.usage.calls} sent`));
    expect(a.usage.calls).toBeGreaterThan(0);
    expect(text).toMatch(/## Table 1/);
    expect(text).toMatch(/\| adventure +\| TSL +\| \d+ \(8\) +\| 3\/3 +\| 100\.0%/);
    expect(text).toMatch(/## Table 2/);
  });

  it('Table 2 ends with a total row per method over all tasks, with shares of its games (as the paper’s)', () => {
    const usage = { calls: 0, cachedCalls: 0, retries: 0, failures: 0, inputTokens: 0, outputTokens: 0, ms: 0 };
    const row = (task: TaskRow['task'], method: TaskRow['method'], completed: number, violations: number, h: number, a: number, repairs: number, errors = 0): TaskRow => ({
      task,
      method,
      states: method === 'TSL' ? 5 : undefined,
      paperStates: 8,
      games: completed + errors,
      completed,
      proceduralAdherence: method === 'TSL' ? 100 : undefined,
      observedAdherence: 100 - violations,
      violations,
      hallucinationErrors: h,
      arithmeticErrors: a,
      repairs,
      errors: Array.from({ length: errors }, (_, game) => ({ game, turn: 1, kind: 'timeout', message: 'slow' })),
      usage,
    });
    const report: EvalReport = {
      model: 'openai:test',
      simulated: false,
      seed: 1,
      games: 10,
      steps: 5,
      repair: 0,
      baseline: true,
      rows: [
        row('adventure', 'TSL', 10, 10, 1, 0, 2),
        row('adventure', 'prompt-only', 10, 40, 3, 0, 0),
        row('choices', 'TSL', 8, 25, 2, 0, 3, 2),
        row('choices', 'prompt-only', 10, 90, 2, 8, 0),
      ],
      usage,
      seconds: 1,
    };
    const text = formatReport(report);
    const t2 = text.slice(text.indexOf('## Table 2'));
    const cells = (line: string) => line.split('|').slice(1, -1).map((c) => c.trim());
    const lines = t2.split('\n').filter((l) => l.startsWith('| '));
    expect(cells(lines[0])).toEqual(['task', 'method', 'games', 'violating games', 'hallucination errors', 'arithmetic errors', 'repairs', 'LLM failures']);
    const totals = lines.filter((l) => cells(l)[0] === 'total').map(cells);
    expect(totals).toEqual([
      ['total', 'TSL', '18', '3 (16.7%)', '3 (16.7%)', '0 (0.0%)', '5', '2'],
      ['total', 'prompt-only', '20', '13 (65.0%)', '5 (25.0%)', '8 (40.0%)', '–', '0'],
    ]);
    // The totals come last, after every task row.
    expect(lines.slice(-2).map((l) => cells(l)[0])).toEqual(['total', 'total']);
    expect(text).toContain('Rothkopf, Zeng and Santolucito');
  });

  it('counts no idle turn while an obligation is pending on the adventure task', async () => {
    const report = await runEvaluation({ ...base, tasks: ['adventure'], games: 6, steps: 15 });
    const row = report.rows[0];
    expect(row.completed).toBe(6);
    expect(row.idleTurns?.pending).toBeGreaterThan(60);
    expect(row.idleTurns?.idle).toBe(0);
    expect(formatReport(report)).toMatch(/\| idle turns while pending \|[\s\S]*\| adventure +\| TSL +\|.*\| 0 of \d+ +\|/);
  });

  it('records games ended by LLM failures instead of judging them', async () => {
    const report = await runEvaluation({ ...base, games: 2, tasks: ['adventure'], model: 'sim:1?garbage=1' });
    const row = report.rows[0];
    expect(row.completed).toBe(0);
    expect(row.errors).toHaveLength(2);
    expect(row.errors[0].kind).toBe('garbage-answer');
    expect(formatReport(report)).toMatch(/Games ended by LLM failures[\s\S]*garbage-answer/);
  });

  it('parses its command line', () => {
    const config = parseEvalArgs(['--games', '5', '--steps=7', '--tasks', 'adventure,all', '--hallucination', '0.2', '--repair', '2'], {});
    expect(config).toMatchObject({ games: 5, steps: 7, tasks: ['adventure', 'all'], hallucinationRate: 0.2, repair: 2, model: 'sim' });
    expect(parseEvalArgs([], { TSLC_MODEL: 'openai:gpt-4o-mini' }).model).toBe('openai:gpt-4o-mini');
    expect(() => parseEvalArgs(['--games', '0'], {})).toThrow(/--games/);
    expect(() => parseEvalArgs(['--tasks', 'dungeon'], {})).toThrow(/unknown task/);
    expect(() => parseEvalArgs(['--hallucination', '2'], {})).toThrow(/probability/);
    expect(() => parseEvalArgs(['--frobnicate', '1'], {})).toThrow(/unknown option/);
  });
});

describe('the demo (npm start)', () => {
  async function demo(options: Partial<Parameters<typeof runDemo>[0]>, input: string[] = []) {
    const output = new PassThrough();
    let text = '';
    output.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const code = await runDemo({ task: 'forest', steps: 4, seed: 2, interactive: false, repair: 1, skipCompile: true, ...options }, { input: Readable.from(input), output });
    return { code, text };
  }

  it('plays a labelled simulation with state and explanation per turn', async () => {
    const { code, text } = await demo({});
    expect(code).toBe(0);
    expect(text).toMatch(/SIMULATION/);
    expect(text).toMatch(/forest +adventure\.tsl ∧ forest\.tsl: \d+ states, verified/);
    expect(text.match(/── turn \d+ · controller state \d+ → \d+/g)).toHaveLength(4);
    expect(text).toMatch(/why: +state 0 → \d+: chose \[storyPassage <- toForest s\]/);
    expect(text).toMatch(/Procedural adherence: every choice/);
  });

  it('writes a passage on the first turn of every task (`tslc demo --task T --steps 3`)', async () => {
    for (const task of ['adventure', 'forest', 'choices', 'all'] as const) {
      const { code, text } = await demo({ task, steps: 3 });
      expect(code, text).toBe(0);
      const turns = text.split(/\n── turn /).slice(1);
      expect(turns).toHaveLength(3);
      expect(turns[0], `task ${task}, turn 1`).toMatch(/\npassage \(simulated\):\n {2}\S/);
      expect(turns[0]).toMatch(/why: +state \d+ → \d+: chose \[storyPassage <- to[A-Z]\w* s\]/);
    }
  });

  it('--interactive: a person picks the choices through stdin, and can quit', async () => {
    const { code, text } = await demo({ interactive: true, steps: 5 }, ['2\n', 'nonsense\n', '1\n', 'q\n']);
    expect(code).toBe(0);
    expect(text).toMatch(/1\) Take the well-lit road\.\n  2\) Follow the hooded stranger\./);
    expect(text).toMatch(/player: Follow the hooded stranger\.\n/);
    expect(text).toMatch(/Please type 1, 2 or q\./);
    // Turn 2 offers the choices in the other order; "1" is then the risky one.
    expect(text).toMatch(/player: Climb the crumbling wall\./);
    expect(text).toMatch(/You left the story after 2 turns\./);
  });

  it('reports an LLM failure as a failed game (exit 1), a bad model as a config error', async () => {
    const failed = await demo({ model: 'sim:1?garbage=1' });
    expect(failed.code).toBe(1);
    expect(failed.text).toMatch(/error: turn 1: garbage-answer/);
    await expect(demo({ model: 'nonsense:x' })).rejects.toThrow(/unknown provider/);
  });
});
