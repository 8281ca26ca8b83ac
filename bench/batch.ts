/**
 * bench/batch — one judge call per turn: the adventure agents of the TSL papers played with the
 * simulated model, predicates asked one call each (lazily, the controller's default) versus one
 * batched call per turn (controller option `batch`, runtime/llm/batch.ts) with single-call fallback
 * for answers the batch left out. Counts judge calls (predicate and batch requests) and their
 * tokens per turn, and the share of turns that needed a fallback, on a clean simulated evaluator
 * and on one whose batch replies lose answers and get cut off.
 *
 * Simulated model: token counts are its ≈4-characters-per-token estimate of the prompts and replies.
 */
import { createController, type ControllerTable, type StepRecord } from '../runtime/index.js';
import {
  type ChatMessage,
  type Completion,
  createLlmSession,
  type GenerateOptions,
  llmPredicateBatcher,
  type Model,
  parseMarker,
  simulatedModel,
  type SimOptions,
} from '../runtime/llm/index.js';
import type { BatchRequest } from '../runtime/index.js';
import { CYOA_FUNCTIONS, CYOA_PREDICATES, CYOA_SUMMARY } from '../examples/cyoa/prompts.js';
import { simulatedPlayer } from '../examples/cyoa/player.js';
import { loadTable } from './runtime.js';
import type { BenchContext, BenchSection } from './sections.js';

const TASKS = ['adventure', 'adventure-forest', 'adventure-choices', 'adventure-choices-forest'];
const GAMES = 40;
const TURNS = 15;

const SIMS: readonly { readonly name: string; readonly options: SimOptions }[] = [
  { name: 'clean', options: { hallucinationRate: 0.03 } },
  { name: 'flaky batch replies (batchOmit=0.05, batchMalformed=0.05)', options: { hallucinationRate: 0.03, batchOmitRate: 0.05, batchMalformedRate: 0.05 } },
];

type Mode = 'single' | 'batched';

interface Tally {
  turns: number;
  judgeCalls: number;
  judgeTokens: number;
  /** Turns whose state asked a batch, and of those, turns that needed a single-call fallback. */
  batchTurns: number;
  fallbackTurns: number;
  fallbackCalls: number;
  failedGames: number;
}

/** Counts predicate and batch requests (the judge's calls) and their tokens. */
function counting(inner: Model, tally: Tally): Model {
  return {
    id: inner.id,
    simulated: inner.simulated,
    async complete(messages: readonly ChatMessage[], options?: GenerateOptions): Promise<Completion> {
      const result = await inner.complete(messages, options);
      const kind = messages.map((m) => parseMarker(m.content)).find((m) => m !== undefined)?.kind;
      if (kind === 'predicate' || kind === 'batch') {
        tally.judgeCalls++;
        tally.judgeTokens += (result.usage.inputTokens ?? 0) + (result.usage.outputTokens ?? 0);
      }
      return result;
    },
  };
}

const isEmptyStory = (value: unknown): boolean => typeof value === 'string' && value.trim() === '';

async function playGames(table: ControllerTable, mode: Mode, sim: SimOptions, tally: Tally): Promise<void> {
  const usesCounter = table.signals.some((s) => s.name === 'safeCount');
  const inputNames = new Set(table.signals.filter((s) => s.role === 'input').map((s) => s.name));
  for (let game = 0; game < GAMES; game++) {
    const model = counting(simulatedModel({ ...sim, seed: game }), tally);
    const session = createLlmSession({ model, seed: game });
    const impl: Record<string, (...args: unknown[]) => unknown> = {};
    for (const [name, template] of Object.entries(CYOA_PREDICATES)) {
      const ask = session.predicate(template);
      // A predicate of the empty story is false without asking (as in examples/cyoa/agent.ts).
      impl[name] = (...args) => (isEmptyStory(args[0]) ? false : ask(...args));
    }
    for (const [name, template] of Object.entries(CYOA_FUNCTIONS)) impl[name] = session.generator(template);
    const summarize = session.summarizer(CYOA_SUMMARY);
    const batcher = llmPredicateBatcher(session, CYOA_PREDICATES);
    const batch = Object.assign(
      async (requests: readonly BatchRequest[]) => {
        const answers = new Map<number, boolean>(requests.filter((r) => isEmptyStory(r.args[0])).map((r) => [r.index, false]));
        const asked = requests.filter((r) => !isEmptyStory(r.args[0]));
        if (asked.length > 0) for (const [index, value] of await batcher(asked)) answers.set(index, value);
        return answers;
      },
      { names: batcher.names },
    );
    const controller = createController<Record<string, unknown>, Record<string, unknown>>({
      table,
      impl,
      initialSignals: usesCounter ? { storyPassage: '', safeCount: 0 } : { storyPassage: '' },
      options: { traceLimit: 0, telemetry: false, ...(mode === 'batched' ? { batch } : {}) },
    });
    const player = simulatedPlayer(game);
    let summary = '';
    for (let turn = 0; turn < TURNS; turn++) {
      const move = player.move(turn);
      const safeCount = Number(controller.signals.safeCount ?? 0);
      const offered: Record<string, unknown> = { s: summary, safe: move.safe, safeThreshold: safeCount >= 3 };
      const inputs = Object.fromEntries(Object.entries(offered).filter(([k]) => inputNames.has(k)));
      session.context.begin(turn, { playerChoice: move.text, safeCount, lastChoiceSafe: move.safe });
      let record: StepRecord;
      try {
        record = await controller.step(inputs);
      } catch {
        tally.failedGames++;
        break;
      }
      tally.turns++;
      if (record.batch) {
        tally.batchTurns++;
        if (record.batch.fallbacks > 0) tally.fallbackTurns++;
        tally.fallbackCalls += record.batch.fallbacks;
      }
      const passage = record.updates.find((u) => u.signal === 'storyPassage' && !u.isSelfUpdate) ? String(controller.signals.storyPassage) : undefined;
      if (passage !== undefined) summary = await summarize(summary, passage);
    }
  }
}

const emptyTally = (): Tally => ({ turns: 0, judgeCalls: 0, judgeTokens: 0, batchTurns: 0, fallbackTurns: 0, fallbackCalls: 0, failedGames: 0 });

export const batchSection: BenchSection = {
  name: 'batch',
  describe: 'one judge call per turn: batched predicate evaluation vs. one call per predicate (adventure tasks, simulated model)',
  async run(ctx: BenchContext): Promise<string> {
    const rows: string[] = [];
    for (const task of TASKS) {
      const table = await loadTable(task);
      if (!table) {
        ctx.log(`batch: generated/${task}.ts missing`);
        continue;
      }
      for (const sim of SIMS) {
        const single = emptyTally();
        const batched = emptyTally();
        ctx.log(`batch: ${task}, ${sim.name}`);
        await playGames(table, 'single', sim.options, single);
        await playGames(table, 'batched', sim.options, batched);
        const per = (t: Tally, x: number) => (x / Math.max(1, t.turns)).toFixed(2);
        // Change of the batched figure against one call per predicate, signed (−58%: 58% fewer).
        const change = (a: number, b: number) => {
          const pct = Math.round(100 * (b / Math.max(1, a) - 1));
          return `${pct > 0 ? '+' : pct < 0 ? '−' : '±'}${Math.abs(pct)}%`;
        };
        rows.push(
          `| ${task} | ${sim.name} | ${single.turns} / ${batched.turns} | ${per(single, single.judgeCalls)} | ${per(batched, batched.judgeCalls)} (${change(single.judgeCalls, batched.judgeCalls)}) | ` +
            `${per(single, single.judgeTokens)} | ${per(batched, batched.judgeTokens)} (${change(single.judgeTokens, batched.judgeTokens)}) | ` +
            `${batched.batchTurns} | ${((100 * batched.fallbackTurns) / Math.max(1, batched.batchTurns)).toFixed(1)}% (${batched.fallbackCalls} calls) | ${single.failedGames + batched.failedGames} |`,
        );
      }
    }
    return [
      '## One judge call per turn (batched predicate evaluation)',
      '',
      `The four adventure tasks of the TSL agent papers, ${GAMES} games of ${TURNS} turns per task and mode, played with the **simulated model**`,
      '(seeded per game, so both modes tell the same stories) and the simulated player. "Judge calls" are predicate and batch requests;',
      'generation and summary calls are the same in both modes and not counted. Tokens are the simulated model\'s estimate (≈4 characters',
      'per token) of prompt and reply. One call per predicate is the controller\'s default lazy walk; batched sends every predicate the',
      'current state may test in one JSON request (states testing one predicate ask it singly) and asks singly only what the walk needs',
      'and the reply left out or garbled.',
      '',
      '| task | simulated evaluator | turns (single / batched) | judge calls per turn: one per predicate | batched | judge tokens per turn: one per predicate | batched | batched turns | turns needing a fallback | failed games |',
      '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
      ...rows,
      '',
    ].join('\n');
  },
};
