/**
 * The demo behind `npm start` / `tslc demo`: compile and check the adventure specs in-process,
 * then play a short adventure, printing each passage with the controller's state and a one-line
 * explanation of its choice. Runs offline on the simulated model unless `TSLC_MODEL` names a real
 * one; `--interactive` lets a person pick the choices. Input/output streams are parameters so
 * tests can drive a game through stdin.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { createLlmSession, createModel, type MaxTokensSetting, type Model, resolveMaxTokens, type SimulatedModel } from '../../runtime/llm/index.js';
import { compileSpecs } from '../../src/codegen/pipeline.js';
import { type AdherenceVerdict, checkProcedural, loadTaskSpecs, specsDir } from './adherence.js';
import { type Judge, type Player, playGame, type TurnRecord } from './agent.js';
import { simulatedPlayer, type PlayerMove } from './player.js';
import { CYOA_TASKS, type CyoaTask } from './prompts.js';
import { compileCommand, GENERATED_MODULE, hasController, loadTaskController, TASK_ORDER } from './tasks.js';

export interface DemoOptions {
  readonly task: CyoaTask;
  readonly steps: number;
  readonly seed: number;
  readonly interactive: boolean;
  /** Point-in-time repair: regenerations per passage (0 = off). */
  readonly repair: number;
  /** The model string (`TSLC_MODEL`); default the simulated model. */
  readonly model?: string;
  /** Skip the synthesis + verification of the played task (the freshness check still runs). */
  readonly skipCompile?: boolean;
  readonly compileTimeoutMs?: number;
  /** Tokens per kind of call (`TSLC_MAX_TOKENS`); default `DEFAULT_MAX_TOKENS`. */
  readonly maxTokens?: MaxTokensSetting;
}

export interface DemoIo {
  readonly input: Readable;
  readonly output: Writable;
}

/** Distinguishes failures worth exit code 2 (bad configuration) from game failures. */
export class DemoConfigError extends Error {}

/** Same recipe as the compile pipeline's spec hash, to tell whether generated/ is up to date. */
function specHash(files: readonly string[]): string {
  const hash = createHash('sha256');
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    hash.update(`${text.length}:`).update(text);
  }
  return `sha256:${hash.digest('hex')}`;
}

const SAFE_CHOICES = ['Take the well-lit road.', 'Ask the guard for directions.', 'Wait and watch quietly.'];
const RISKY_CHOICES = ['Follow the hooded stranger.', 'Climb the crumbling wall.', 'Open the unmarked door.'];

/** A person at the terminal: offered a safe and a risky choice each turn, `q` quits. */
function terminalPlayer(io: DemoIo, write: (text: string) => void): Player & { close(): void } {
  const rl = createInterface({ input: io.input, terminal: false });
  const lines = rl[Symbol.asyncIterator]();
  return {
    async choose(turn) {
      const offered: PlayerMove[] = [
        { text: SAFE_CHOICES[turn % SAFE_CHOICES.length], safe: true },
        { text: RISKY_CHOICES[turn % RISKY_CHOICES.length], safe: false },
      ];
      // Alternate the order so the safe choice is not always the first one.
      if (turn % 2 === 1) offered.reverse();
      for (;;) {
        write(`What do you do?\n  1) ${offered[0].text}\n  2) ${offered[1].text}\n  q) quit\n> `);
        const next = await lines.next();
        if (next.done) return undefined;
        const answer = String(next.value).trim().toLowerCase();
        if (answer === 'q' || answer === 'quit') return undefined;
        if (answer === '1' || answer === '2') {
          const move = offered[Number(answer) - 1];
          write(`${move.text}\n`);
          return move;
        }
        write(`Please type 1, 2 or q.\n`);
      }
    },
    close: () => rl.close(),
  };
}

/** `1 turn`, `3 turns`. */
export const count = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The procedural-adherence verdict in words. When the model's answers broke an environment
 * assumption, the spec promises nothing after that turn, so fewer turns are checked than played:
 * say how many, and which assumption ended the check (as file:line relative to `root`).
 */
export function adherenceText(verdict: AdherenceVerdict, played: number, root: string): string {
  if (!verdict.ok) return `VIOLATED — ${verdict.reason ?? 'the controller’s choices violate the spec'}`;
  const checked = verdict.checkedTurns ?? played;
  const by = 'checked by the independent model checker';
  if (checked >= played) return `every choice of the controller satisfies the spec (${by} over ${played === 1 ? 'the 1 turn' : `all ${played} turns`})`;
  const broken = verdict.brokenAssumption;
  const part = broken?.part;
  const where = part?.span ? `${relative(root, part.span.file).split(sep).join('/')}:${part.span.line}` : undefined;
  const which = part ? `the assumption ${where ? `${where} ` : ''}(${part.text ?? 'an environment assumption'})` : 'the environment assumptions';
  const when = broken ? `on turn ${broken.turn + 1} ` : '';
  return (
    `every choice of the controller satisfies the spec over the first ${checked === 1 ? 'turn' : `${checked} turns`} of ${played} (${by}); ` +
    `${when}the model's answers broke ${which}, and the spec promises nothing after that`
  );
}

function describeTurn(t: TurnRecord, simulated: boolean): string {
  const lines = [`\n── turn ${t.turn + 1} · controller state ${t.stateBefore} → ${t.stateAfter} ${'─'.repeat(30)}`];
  lines.push(`player: ${t.move.text}${t.move.safe ? ' (a safe choice)' : ''}`);
  lines.push(`why:    ${t.explanation}`);
  if (t.safeCount !== undefined) lines.push(`safeCount = ${t.safeCount}`);
  if (t.repairs > 0) lines.push(`repair: the passage missed its location; regenerated ${t.repairs}×`);
  if (t.passage !== undefined) lines.push(`${simulated ? 'passage (simulated)' : 'passage'}:\n  ${t.passage}`);
  else lines.push('passage: (no new passage this turn: the controller keeps the story where it is)');
  return lines.join('\n') + '\n';
}

/** Runs the demo; returns the exit code (0 ok, 1 game failed, 2 configuration error). */
export async function runDemo(options: DemoOptions, io: DemoIo): Promise<number> {
  const write = (text: string) => void io.output.write(text);
  const dir = specsDir();

  // 1. Compile and check: every task's module must be fresh and verified; the played one is
  //    synthesized again in-process and verified by the independent checker.
  write(
    'tslc demo: a choose-your-own-adventure story agent whose LLM calls are chosen by a synthesized controller,\n' +
      'as in Rothkopf, Zeng and Santolucito, "Enforcing Temporal Constraints on Generative Agent Behavior with\n' +
      'Reactive Synthesis" (its four evaluation tasks: adventure, forest, choices, all).\n\n',
  );
  write('Checking specs/ and generated/ controllers:\n');
  for (const task of TASK_ORDER) {
    const files = CYOA_TASKS[task].specs.map((f) => join(dir, f));
    const label = `  ${task.padEnd(9)} ${CYOA_TASKS[task].specs.join(' ∧ ')}`;
    if (!hasController(task)) {
      write(`${label}: generated/${GENERATED_MODULE[task]}.ts missing — run \`${compileCommand(task)}\`\n`);
      continue;
    }
    const module = await loadTaskController(task);
    const fresh = module.metadata?.specHash === specHash(files);
    const verified = module.metadata?.verified === true;
    write(`${label}: ${count(module.metadata?.stateCount ?? module.table.states.length, 'state')}, ${verified ? 'verified' : 'NOT verified'}, ${fresh ? 'up to date' : `STALE — run \`${compileCommand(task)}\``}\n`);
  }
  if (!hasController(options.task)) throw new DemoConfigError(`no controller for task '${options.task}': run \`${compileCommand(options.task)}\``);
  if (!options.skipCompile) {
    const files = CYOA_TASKS[options.task].specs.map((f) => join(dir, f));
    const started = performance.now();
    const outcome = await compileSpecs({ files, name: GENERATED_MODULE[options.task], outDir: join(dir, '..', 'generated'), timeoutMs: options.compileTimeoutMs ?? 45_000 });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    if (outcome.kind === 'ok') {
      const onDisk = join(dir, '..', 'generated', `${GENERATED_MODULE[options.task]}.ts`);
      const same = existsSync(onDisk) && readFileSync(onDisk, 'utf8') === outcome.source;
      write(`Synthesized '${options.task}' again in ${seconds} s: realizable, ${count(outcome.stateCount, 'state')}, verified by the independent model checker; ${same ? 'identical to' : 'differs from'} generated/${GENERATED_MODULE[options.task]}.ts\n`);
    } else {
      write(`Synthesized '${options.task}' again: ${outcome.kind} after ${seconds} s — playing the committed module\n`);
    }
  }

  // 2. The model: simulated unless configured.
  let model: Model;
  try {
    model = createModel(options.model ?? `sim:${options.seed}`);
    resolveMaxTokens(options.maxTokens);
  } catch (err) {
    throw new DemoConfigError(err instanceof Error ? err.message : String(err));
  }
  const sim = model.simulated && 'judge' in model ? (model as SimulatedModel) : undefined;
  write(
    sim
      ? `\n*** SIMULATION: the story is written by tslc's simulated model (${model.id}), not a real LLM; no key, no network. ***\n`
      : `\nModel: ${model.id}\n`,
  );
  const controller = await loadTaskController(options.task);
  write(`Task '${options.task}': ${CYOA_TASKS[options.task].description}\n`);
  write(`Controller: ${count(controller.table.states.length, 'state')}${options.repair > 0 ? `; point-in-time repair: up to ${count(options.repair, 'regeneration')} of a passage that misses its location` : ''}\n`);

  // 3. Play.
  const session = createLlmSession({
    model,
    seed: options.seed,
    timeoutMs: 60_000,
    retry: { maxAttempts: 3, baseDelayMs: 500 },
    ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
  });
  const automatic = simulatedPlayer(options.seed);
  const person = options.interactive ? terminalPlayer(io, write) : undefined;
  const player: Player = person ?? {
    choose: async (turn) => automatic.move(turn),
  };
  const judge: Judge | undefined = sim ? (p, text) => sim.judge(p, text) : undefined;
  let result;
  try {
    result = await playGame({
      task: options.task,
      table: controller.table,
      bindings: controller.bindings,
      session,
      player,
      steps: options.steps,
      repair: { maxAttempts: options.repair },
      judge,
      onTurn: (t) => write(describeTurn(t, model.simulated)),
    });
  } finally {
    person?.close();
  }

  // 4. Report: the game's procedural adherence, usage, and any failure.
  const specs = await loadTaskSpecs(options.task, dir);
  const procedural = checkProcedural(specs, controller.table, result);
  const usage = result.usage;
  write(`\n${result.quit ? 'You left the story' : result.error ? 'The game ended early' : 'The end'} after ${count(result.turns.length, 'turn')}.\n`);
  write(`Procedural adherence: ${adherenceText(procedural, result.turns.length, join(dir, '..'))}\n`);
  write(`LLM usage: ${count(usage.calls, 'call')}, ${count(usage.inputTokens + usage.outputTokens, 'token')}${model.simulated ? ' (simulated)' : ''}\n`);
  if (result.error) {
    write(`error: turn ${result.error.turn + 1}: ${result.error.kind}: ${result.error.message}\n`);
    return 1;
  }
  return procedural.ok ? 0 : 70;
}
