import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { type Player, playGame } from '../../examples/cyoa/agent.js';
import { checkObserved, checkProcedural, countingErrors, loadTaskSpecs } from '../../examples/cyoa/adherence.js';
import { simulatedPlayer } from '../../examples/cyoa/player.js';
import { loadTaskController } from '../../examples/cyoa/tasks.js';
import { type ChatMessage, createLlmSession, fromAiSdk, LlmError, type Model, simulatedModel } from '../../runtime/llm/index.js';

const player = (seed: number): Player => ({ choose: async (turn) => simulatedPlayer(seed).move(turn) });

describe('the CYOA agent on the simulated model', () => {
  it('plays the forest task: forest first, cave only after town and market, every choice checked', async () => {
    const controller = await loadTaskController('forest');
    const specs = await loadTaskSpecs('forest');
    const sim = simulatedModel({ seed: 11, hallucinationRate: 0 });
    const session = createLlmSession({ model: sim, seed: 11 });
    const game = await playGame({ task: 'forest', table: controller.table, bindings: controller.bindings, session, player: player(3), steps: 12, judge: (p, t) => sim.judge(p, t) });
    expect(game.error).toBeUndefined();
    expect(game.turns).toHaveLength(12);
    const passages = game.turns.filter((t) => t.passage !== undefined);
    expect(passages[0].passageTerm).toBe('toForest');
    expect(sim.truthOf(passages[0].passage ?? '')?.location).toBe('forest');
    const order = passages.map((t) => t.passageTerm);
    const cave = order.indexOf('toCave');
    expect(cave).toBeGreaterThan(order.indexOf('toTown'));
    expect(cave).toBeGreaterThan(order.indexOf('toMarket'));
    expect(order.indexOf('toTown')).toBeGreaterThan(-1);
    for (const t of game.turns) expect(t.explanation).toMatch(/^state \d+ → \d+: (chose|kept)/);
    const procedural = checkProcedural(specs, controller.table, game);
    expect(procedural.ok).toBe(true);
    // Checked up to the cave: the spec assumes the hero is in the cave only right after `toCave`.
    expect(procedural.checkedTurns).toBeGreaterThan(game.turns.findIndex((t) => t.passageTerm === 'toCave'));
    expect(checkObserved(specs.guarantees, game)).toEqual({ ok: true });
  });

  it('procedural check catches a tampered controller choice', async () => {
    const controller = await loadTaskController('forest');
    const specs = await loadTaskSpecs('forest');
    const sim = simulatedModel({ seed: 2, hallucinationRate: 0 });
    const game = await playGame({ task: 'forest', table: controller.table, session: createLlmSession({ model: sim, seed: 2 }), player: player(1), steps: 4 });
    // Turn 0 must start in the forest; pretend the controller asked for the cave instead.
    const first = game.turns[0];
    const outputs = Object.fromEntries(Object.keys(first.outputs).map((k) => [k, /toCave/.test(k)]));
    const tampered = { ...game, turns: [{ ...first, outputs }, ...game.turns.slice(1)] };
    expect(checkProcedural(specs, controller.table, game).ok).toBe(true);
    expect(checkProcedural(specs, controller.table, tampered).ok).toBe(false);
  });

  it('counts safe choices in TypeScript: the counter never has arithmetic errors', async () => {
    const controller = await loadTaskController('choices');
    let total = 0;
    for (const seed of [1, 2, 3, 4, 5]) {
      const sim = simulatedModel({ seed, hallucinationRate: 0 });
      const game = await playGame({ task: 'choices', table: controller.table, session: createLlmSession({ model: sim, seed }), player: player(seed + 10), steps: 16, judge: (p, t) => sim.judge(p, t) });
      expect(game.error).toBeUndefined();
      const increments = game.turns.filter((t) => t.chosen.some((u) => u.startsWith('[safeCount <-'))).length;
      total += increments;
      expect(game.turns.at(-1)?.safeCount).toBe(increments);
      expect(countingErrors(game)).toBe(0);
      // Tamper with the counter: the arithmetic check must notice.
      const last = game.turns.at(-1);
      if (last) expect(countingErrors({ ...game, turns: [...game.turns.slice(0, -1), { ...last, safeCount: (last.safeCount ?? 0) + 1 }] })).toBe(1);
    }
    expect(total).toBeGreaterThan(0);
  });

  it('repair regenerates a passage that missed its location', async () => {
    const controller = await loadTaskController('adventure');
    const sim = simulatedModel({ seed: 4, hallucinationRate: 0.5 });
    const game = await playGame({ task: 'adventure', table: controller.table, session: createLlmSession({ model: sim, seed: 4 }), player: player(2), steps: 12, repair: { maxAttempts: 6 }, judge: (p, t) => sim.judge(p, t) });
    expect(game.error).toBeUndefined();
    expect(game.turns.reduce((n, t) => n + t.repairs, 0)).toBeGreaterThan(0);
    expect(game.turns.filter((t) => t.hallucinated === true)).toHaveLength(0);
  });
});

describe('LLM failures end the game with a recorded error, never a decision', () => {
  async function playWith(model: Model, options: { maxCalls?: number; timeoutMs?: number } = {}) {
    const controller = await loadTaskController('adventure');
    const { CallBudget } = await import('../../runtime/llm/index.js');
    const session = createLlmSession({
      model,
      seed: 1,
      timeoutMs: options.timeoutMs ?? 5_000,
      retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 },
      budget: options.maxCalls === undefined ? undefined : new CallBudget({ maxCalls: options.maxCalls }),
    });
    return playGame({ task: 'adventure', table: controller.table, session, player: player(1), steps: 10 });
  }

  /** The simulated model, except that `fail` decides per call whether to misbehave instead. */
  function faulty(fail: (messages: readonly ChatMessage[], call: number) => Promise<never> | string | undefined): Model {
    const sim = simulatedModel({ seed: 1, hallucinationRate: 0 });
    let call = 0;
    return {
      id: 'faulty-sim',
      simulated: true,
      async complete(messages, options) {
        call += 1;
        const bad = fail(messages, call);
        if (bad === undefined) return sim.complete(messages, options);
        if (typeof bad === 'string') return { text: bad, usage: { inputTokens: 1, outputTokens: 1 }, model: 'faulty-sim', simulated: true };
        return bad;
      },
    };
  }
  const isPredicate = (m: readonly ChatMessage[]) => m.some((x) => x.content.includes('tslc:predicate'));

  it('garbage answers: garbage-answer error, turns before it intact', async () => {
    const game = await playWith(faulty((m, call) => (call > 12 && isPredicate(m) ? 'Hard to say, perhaps.' : undefined)));
    expect(game.error?.kind).toBe('garbage-answer');
    expect(game.turns.length).toBe(game.error?.turn);
    expect(game.turns.length).toBeGreaterThan(0);
  });

  it('thrown errors and timeouts', async () => {
    const thrown = await playWith(faulty((_m, call) => (call > 8 ? Promise.reject(new Error('socket hang up')) : undefined)));
    expect(thrown.error).toBeDefined();
    expect(thrown.error?.message).toMatch(/socket hang up/);
    const slow = await playWith(faulty((_m, call) => (call > 8 ? new Promise<never>(() => {}) : undefined)), { timeoutMs: 30 });
    expect(slow.error?.kind).toBe('timeout');
    expect(slow.turns.length).toBe(slow.error?.turn);
  });

  it('an exhausted budget', async () => {
    const game = await playWith(simulatedModel({ seed: 1 }), { maxCalls: 9 });
    expect(game.error?.kind).toBe('budget-exhausted');
    expect(game.error?.message).toMatch(/budget/);
  });

  it('a failed predicate is never read as false: the controller state is where the last good turn left it', async () => {
    const game = await playWith(faulty((m, call) => (call > 12 && isPredicate(m) ? Promise.reject(new LlmError('server', 'HTTP 503')) : undefined)));
    expect(game.error?.kind).toBe('server');
    const last = game.turns.at(-1);
    expect(last).toBeDefined();
    expect(game.turns.every((t, i) => i === 0 || t.stateBefore === game.turns[i - 1].stateAfter)).toBe(true);
  });
});

describe('an AI SDK model (ai/test mock) drives the same agent', () => {
  it('plays the adventure task against MockLanguageModelV3', async () => {
    let location = 'nowhere';
    const reply = (text: string) => ({
      content: [{ type: 'text' as const, text }],
      finishReason: { unified: 'stop' as const, raw: 'stop' },
      usage: { inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 5, text: 5, reasoning: undefined } },
      warnings: [],
    });
    const mock = new MockLanguageModelV3({
      provider: 'mock',
      modelId: 'story-1',
      doGenerate: async (options) => {
        const system = JSON.stringify(options.prompt.filter((m) => m.role === 'system'));
        const fn = /tslc:function name=to(\w+)/.exec(system);
        if (fn) {
          location = fn[1].toLowerCase();
          return reply(`The hero arrives in the ${location}.`);
        }
        const predicate = /tslc:predicate name=in(\w+)/.exec(system);
        if (predicate) return reply(predicate[1].toLowerCase() === location ? '1' : '0');
        return reply(`So far the hero reached the ${location}.`);
      },
    });
    const controller = await loadTaskController('adventure');
    const specs = await loadTaskSpecs('adventure');
    const session = createLlmSession({ model: fromAiSdk(mock), seed: 3 });
    const game = await playGame({ task: 'adventure', table: controller.table, session, player: player(4), steps: 10 });
    expect(game.error).toBeUndefined();
    const terms = game.turns.flatMap((t) => (t.passageTerm ? [t.passageTerm] : []));
    expect(terms).toContain('toCave');
    expect(terms.indexOf('toCave')).toBeGreaterThan(Math.max(terms.indexOf('toTown'), terms.indexOf('toMarket')));
    expect(checkProcedural(specs, controller.table, game).ok).toBe(true);
    expect(mock.doGenerateCalls.length).toBe(game.usage.calls);
  });
});
