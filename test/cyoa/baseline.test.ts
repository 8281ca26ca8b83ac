import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { type EvalConfig, formatReport, JUDGE_SYSTEM, parseEvalArgs, runEvaluation } from '../../examples/cyoa/eval.js';
import { simulatedPlayer } from '../../examples/cyoa/player.js';
import { fromAiSdk } from '../../runtime/llm/index.js';

type Place = 'forest' | 'town' | 'market' | 'cave';
/** A scripted prompt-only passage: what its text says, and where it really is (the judge's truth). */
interface Scripted {
  readonly says: Place;
  readonly truth?: Place;
  /** The `safeCount=x` it prints; 'right' = the correct count; 'none' or undefined = none. */
  readonly count?: number | 'right' | 'none';
}

const reply = (text: string) => ({
  content: [{ type: 'text' as const, text }],
  finishReason: { unified: 'stop' as const, raw: 'stop' },
  usage: { inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 5, text: 5, reasoning: undefined } },
  warnings: [],
});

const PLACES = /\b(forest|town|market|cave)\b/g;
const lastPlace = (text: string): string | undefined => [...text.matchAll(PLACES)].at(-1)?.[1];

const SEED = 2;
const safeMove = (game: number, turn: number) => simulatedPlayer(SEED * 7 + game).move(turn).safe;

/**
 * One AI SDK mock per game. Baseline generations (`tslc:generate`) return the game's script in
 * order; the TSL agent's function terms write at the requested place. The judge (JUDGE_SYSTEM)
 * answers from the scripted truth of a passage; every other question reads the place in the text.
 */
function scriptedModels(scripts: readonly (readonly Scripted[])[], log: { judge: number; generate: number }) {
  return (game: number) => {
    const script = scripts[game] ?? [];
    const truthOf = new Map<string, Place>();
    let written = 0;
    let count = 0;
    let lastTruth: Place | undefined;
    const mock = new MockLanguageModelV3({
      provider: 'mock',
      modelId: 'scripted',
      doGenerate: async (options) => {
        const system = options.prompt.filter((m) => m.role === 'system').map((m) => m.content).join('\n');
        const user = options.prompt
          .filter((m) => m.role === 'user')
          .flatMap((m) => m.content.map((part) => (part.type === 'text' ? part.text : '')))
          .join('\n');
        if (system.includes('tslc:generate name=story')) {
          log.generate += 1;
          const step = script[written];
          if (!step) throw new Error(`game ${game}: no scripted passage ${written}`);
          const turn = written++;
          const expected = count + (safeMove(game, turn) && lastTruth === 'town' ? 1 : 0);
          const printed = step.count === 'right' ? expected : step.count === 'none' ? undefined : step.count;
          if (printed !== undefined) count = printed;
          lastTruth = step.truth ?? step.says;
          const text = `${printed === undefined ? '' : `safeCount=${printed} `}Passage ${game}.${turn}: the hero stands in the ${step.says}.`;
          truthOf.set(text, lastTruth);
          return reply(text);
        }
        const fn = /tslc:function name=to(\w+)/.exec(system);
        if (fn) return reply(`The hero arrives in the ${fn[1].toLowerCase()}.`);
        const predicate = /tslc:predicate name=in(\w+)/.exec(system);
        if (predicate) {
          const quoted = /<passage>\n([\s\S]*?)\n<\/passage>/.exec(user)?.[1] ?? '';
          const judged = system.includes(JUDGE_SYSTEM);
          if (judged) log.judge += 1;
          const place = (judged ? truthOf.get(quoted) : undefined) ?? lastPlace(quoted);
          return reply(place === predicate[1].toLowerCase() ? '1' : '0');
        }
        return reply(`So far the hero reached the ${lastPlace(user) ?? 'road'}.`);
      },
    });
    return fromAiSdk(mock);
  };
}

const base = (scripts: readonly (readonly Scripted[])[], log: { judge: number; generate: number }): EvalConfig => ({
  tasks: ['adventure'],
  games: scripts.length,
  steps: 4,
  model: 'unused',
  seed: SEED,
  repair: 0,
  makeModel: scriptedModels(scripts, log),
});

describe('the prompt-only baseline (AI SDK mock model)', () => {
  it('counts exactly the scripted violating games, from the judge’s labels, not the text', async () => {
    const p = (says: Place, truth?: Place): Scripted => ({ says, truth });
    const scripts = [
      [p('forest'), p('town'), p('market'), p('cave')], // keeps the rules
      [p('cave'), p('town'), p('market'), p('forest')], // cave first: violates
      [p('market', 'cave'), p('town'), p('market'), p('town')], // says market, judge sees a cave: violates
      [p('town'), p('cave', 'market'), p('cave'), p('forest')], // says cave, judge sees a market: keeps
      [p('forest', 'cave'), p('town'), p('market'), p('town')], // says forest, judge sees a cave: violates
    ];
    // Read from the passages' text instead, games 1 and 3 would violate: 2 games, not 3.
    const log = { judge: 0, generate: 0 };
    const report = await runEvaluation(base(scripts, log));
    expect(report.simulated).toBe(false);
    expect(report.baseline).toBe(true); // on by default on a real (non-simulated) model
    const tsl = report.rows.find((r) => r.method === 'TSL');
    const baseline = report.rows.find((r) => r.method === 'prompt-only');
    expect(tsl?.proceduralAdherence).toBe(100);
    expect(baseline).toMatchObject({ task: 'adventure', completed: 5, states: undefined, proceduralAdherence: undefined, hallucinationErrors: 3, arithmeticErrors: 0 });
    expect(baseline?.errors).toEqual([]);
    expect(baseline?.observedAdherence).toBe(40);
    expect(baseline?.violations).toBe(60);
    expect(log.generate).toBe(20);
    // The judge labelled every baseline passage (inCave, inMarket, inTown), besides the TSL agent's turns.
    expect(log.judge).toBeGreaterThanOrEqual(20 * 3);
    const text = formatReport(report);
    expect(text).toMatch(/\| adventure +\| prompt-only +\| – \(8\) +\| 5\/5 +\| n\/a +\| 40\.0% +\| 60\.0% +\|/);
    expect(text).not.toMatch(/not meaningful/);
  });

  it('counts safe choices: jumps and missing counts are arithmetic errors, a cave first a hallucination', async () => {
    const s = (says: Place, count: number | 'right' | 'none' = 'right'): Scripted => ({ says, count });
    const scripts = [
      [s('town'), s('town'), s('market'), s('market')], // right counts throughout
      [s('town', 5), s('town'), s('market'), s('market')], // the count jumps to 5
      [s('town'), s('town', 'none'), s('market'), s('market')], // no safeCount=x
      [s('cave'), s('town'), s('market'), s('market')], // right counts, cave first
    ];
    const log = { judge: 0, generate: 0 };
    const report = await runEvaluation({ ...base(scripts, log), tasks: ['choices'] });
    const baseline = report.rows.find((r) => r.method === 'prompt-only');
    expect(baseline).toMatchObject({ completed: 4, hallucinationErrors: 1, arithmeticErrors: 2, observedAdherence: 25, violations: 75 });
  });

  it('an LLM failure ends a baseline game with a recorded error', async () => {
    const log = { judge: 0, generate: 0 };
    // Game 1 has only two scripted passages: its third generation throws.
    const p = (says: Place): Scripted => ({ says });
    const scripts = [[p('town'), p('market'), p('cave'), p('town')], [p('town'), p('market')]];
    const report = await runEvaluation({ ...base(scripts, log), baseline: true });
    const baseline = report.rows.find((r) => r.method === 'prompt-only');
    expect(baseline?.completed).toBe(1);
    expect(baseline?.errors).toHaveLength(1);
    expect(baseline?.errors[0]).toMatchObject({ game: 1, turn: 2 });
    expect(baseline?.errors[0].message).toMatch(/no scripted passage 2/);
    expect(baseline?.observedAdherence).toBe(100);
  });
});

describe('the prompt-only baseline on the simulated model', () => {
  const sim: EvalConfig = { tasks: ['adventure'], games: 3, steps: 6, model: 'sim', seed: 1, repair: 0 };

  it('is off by default, and marked as not meaningful when forced', async () => {
    const off = await runEvaluation(sim);
    expect(off.baseline).toBe(false);
    expect(off.rows.map((r) => r.method)).toEqual(['TSL']);
    expect(formatReport(off)).toMatch(/prompt-only baseline: not played/);
    const on = await runEvaluation({ ...sim, baseline: true });
    const row = on.rows.find((r) => r.method === 'prompt-only');
    expect(row?.notMeaningful).toBe(true);
    expect(row?.completed).toBe(3);
    expect(formatReport(on)).toMatch(/\| adventure +\| prompt-only \(sim: not meaningful\) +\|/);
    expect(on.usage.calls).toBeGreaterThan(off.usage.calls);
  });

  it('--baseline / --no-baseline / --judge-model on the command line', () => {
    expect(parseEvalArgs([], {}).baseline).toBeUndefined();
    expect(parseEvalArgs(['--baseline', '--games', '2'], {})).toMatchObject({ baseline: true, games: 2 });
    expect(parseEvalArgs(['--no-baseline'], {}).baseline).toBe(false);
    expect(() => parseEvalArgs(['--baseline', '--no-baseline'], {})).toThrow(/contradict/);
    expect(parseEvalArgs(['--judge-model', 'openai:gpt-4o'], {}).judgeModel).toBe('openai:gpt-4o');
    expect(() => parseEvalArgs(['--judge-model', 'sim'], {})).toThrow(/real model/);
  });
});
