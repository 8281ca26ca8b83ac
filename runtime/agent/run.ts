/**
 * `runAgent`: the constrained agent loop (paper 003, §3.3) for chat-model APIs.
 *
 * The model writes the text of one state at a time, with every marker as a stop sequence. Where
 * the paper masks the decoder, we work at the prompt level: a marker the model writes is parsed
 * out of its text; a valid one is followed, an invalid one is removed and replaced by a valid
 * marker; when several states may follow and the model named none, it is asked to choose among
 * exactly those. Content constraints are enforced by re-asking, then by forcing an allowed value.
 * Env-input states are handed to the caller's `env` function (tools, the user).
 */
import { dict } from '../dict.js';
import { type ChatMessage, clipForPrompt, type Model } from '../llm/model.js';
import { type BehaviorAutomaton, compileBehavior, shortestToFinal } from './behavior.js';
import { checkContent, forceAllowed } from './content.js';
import { type AgentSpec, type AgentState, endpoints } from './spec.js';

export interface AgentStep {
  readonly state: string;
  readonly text: string;
  readonly source: 'model' | 'env';
}

export type CorrectionKind =
  /** The model wrote the marker of a state the behavior does not allow next; replaced. */
  | 'invalid-marker'
  /** The model's text broke the state's content constraint; re-asked (and maybe forced). */
  | 'content-reasked'
  /** Re-asking did not help; an allowed value was forced. */
  | 'content-forced'
  /** Several states could follow; the model's choice was missing or invalid, so one was picked. */
  | 'choice-forced'
  /** A loop ran its maximum number of times (`maxLoops`), so the path left it for the final state. */
  | 'loop-capped'
  /** Only just enough of `maxSteps` was left to reach the final state, so the path went straight there. */
  | 'finish-forced';

export interface Correction {
  readonly step: number;
  readonly kind: CorrectionKind;
  readonly detail: string;
}

export interface EnvRequest {
  readonly state: string;
  readonly steps: readonly AgentStep[];
  /** The latest text of every state so far (e.g. `Action`, `Action-Input` for a tool call). */
  readonly latest: Readonly<Record<string, string>>;
}

/** Produces env-input states' text; `null` ends the session (e.g. the user left). */
export type AgentEnv = (request: EnvRequest) => Promise<string | null> | string | null;

export interface RunAgentOptions {
  /** The problem text (and few-shot examples) placed before the transcript. */
  readonly task: string;
  readonly instructions?: string;
  /**
   * Stop after this many states (default 50). When only just enough are left to reach the final
   * state, the run goes there by the shortest path (`finish-forced`), so it ends with an answer.
   */
  readonly maxSteps?: number;
  /**
   * Every `until` loop of the behavior runs at most this many times (overrides the spec's
   * `maxLoops`; `null`: no cap): then the path leaves the loop for the final state. The paper
   * caps ReACT at 3 loops.
   */
  readonly maxLoops?: number | null;
  /** Re-asks per content-constraint failure before forcing (default 2). */
  readonly contentRetries?: number;
  readonly temperature?: number;
  readonly seed?: number;
}

export interface AgentRun {
  readonly steps: readonly AgentStep[];
  readonly transcript: string;
  /**
   * True only when the behavior automaton accepts the states the run went through: it reached the
   * final state, or the environment ended it (or nothing may follow) where the behavior may stop.
   */
  readonly complete: boolean;
  readonly stopReason: 'final-state' | 'env-ended' | 'no-successor' | 'max-steps';
  /** Text of the final state, when reached. */
  readonly answer?: string;
  readonly corrections: readonly Correction[];
  readonly modelCalls: number;
}

/** States to enter, `next` first, to stop in `final` with the behavior accepting (Infinity: never). */
function stepsToFinal(a: BehaviorAutomaton, q: number, next: string, final: string): number {
  const r = a.step(q, next)!;
  if (next === final && a.accepting(r)) return 1;
  const rest = shortestToFinal(a, r, final);
  return rest === undefined ? Infinity : 1 + rest.length;
}

interface Marker {
  readonly state: AgentState;
  readonly at: number;
}

/** The earliest marker in the text (longest wins at the same position: "Final Thought:" over "Thought:"). */
function firstMarker(text: string, states: readonly AgentState[]): Marker | undefined {
  let best: Marker | undefined;
  for (const s of states) {
    const at = text.indexOf(s.text);
    if (at < 0) continue;
    if (!best || at < best.at || (at === best.at && s.text.length > best.state.text.length)) best = { state: s, at };
  }
  return best;
}

export async function runAgent(spec: AgentSpec, model: Model, env: AgentEnv, options: RunAgentOptions): Promise<AgentRun> {
  const automaton: BehaviorAutomaton = compileBehavior(spec, options.maxLoops === undefined ? {} : { maxLoops: options.maxLoops });
  // The same behavior without loop caps, to tell a capped loop from a model's mistake.
  const free: BehaviorAutomaton = compileBehavior(spec, { unbounded: true });
  const { initial, final } = endpoints(spec);
  const byName = new Map(spec.states.map((s) => [s.name, s]));
  const markers = spec.states.map((s) => s.text);
  const maxSteps = options.maxSteps ?? 50;
  const retries = options.contentRetries ?? 2;
  const steps: AgentStep[] = [];
  const corrections: Correction[] = [];
  // Keyed by the spec's state names: no prototype, so a state may be called `constructor`.
  const latest = dict<string>();
  let modelCalls = 0;

  const system: ChatMessage = {
    role: 'system',
    content:
      (options.instructions ? `${options.instructions}\n\n` : '') +
      'Continue the transcript. Write only the text of the current step, then stop; the step labels are added for you.',
  };
  const ask = async (extra: readonly ChatMessage[], transcript: string, stop: readonly string[]): Promise<string> => {
    modelCalls++;
    const messages: ChatMessage[] = [system, { role: 'user', content: `${options.task}\n\n${transcript}` }, ...extra];
    const c = await model.complete(messages, {
      stop,
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      ...(options.seed !== undefined ? { seed: options.seed } : {}),
    });
    return c.text;
  };

  const q0 = automaton.step(automaton.start, initial);
  if (q0 === undefined) throw new Error(`the behavior of ${spec.name} does not allow starting in ${initial}`);
  let q: number = q0;
  let qFree = free.step(free.start, initial)!;
  let state = byName.get(initial)!;
  let transcript = state.text;
  let stopReason: AgentRun['stopReason'] = 'max-steps';

  for (let n = 0; n < maxSteps; n++) {
    let text: string;
    let proposed: AgentState | undefined;
    if (state.envInput) {
      const got = await env({ state: state.name, steps, latest });
      if (got === null) {
        stopReason = 'env-ended';
        break;
      }
      text = got;
    } else {
      let raw = await ask([], transcript, markers);
      // Models often echo the marker they were given; that is not a transition.
      if (raw.trimStart().startsWith(state.text)) raw = raw.trimStart().slice(state.text.length);
      const m = firstMarker(raw, spec.states);
      text = m ? raw.slice(0, m.at) : raw;
      proposed = m?.state;
      const check0 = checkContent(state, text);
      let check = check0;
      for (let r = 0; !check.ok && r < retries; r++) {
        corrections.push({ step: steps.length, kind: 'content-reasked', detail: `${state.name}: ${check.problem}` });
        const hint = state.allowed
          ? `Your text for "${state.text}" must be exactly one of: ${state.allowed.join(', ')}. Reply with that only.`
          : `Your text for "${state.text}" must be JSON matching the schema ${JSON.stringify(state.schema)} (${check.problem}). Reply with the JSON only.`;
        // The rejected text is quoted back, cut if long: a huge answer is never sent again whole.
        const again = await ask([{ role: 'assistant', content: clipForPrompt(text.trim()) }, { role: 'user', content: hint }], transcript, markers);
        const m2 = firstMarker(again, spec.states);
        check = checkContent(state, m2 ? again.slice(0, m2.at) : again);
      }
      if (!check.ok && state.allowed) {
        const forced = forceAllowed(state.allowed, text);
        corrections.push({ step: steps.length, kind: 'content-forced', detail: `${state.name}: used "${forced}"` });
        check = { ok: true, value: forced };
      }
      text = check.ok ? check.value : text.trim();
    }
    steps.push({ state: state.name, text, source: state.envInput ? 'env' : 'model' });
    latest[state.name] = text;
    transcript += ` ${text}\n`;

    if (state.name === final && automaton.accepting(q)) {
      stopReason = 'final-state';
      break;
    }
    const valid = automaton.valid(q);
    if (valid.length === 0) {
      stopReason = 'no-successor';
      break;
    }
    // States the loop caps took away here (the uncapped behavior would allow them).
    const capped = free.valid(qFree).filter((v) => !valid.includes(v));
    // The final state must stay within the steps left: while it can still be reached, only next
    // states from which it can be reached in time are offered (so a run ends with an answer).
    const left = maxSteps - (n + 1);
    const toFinal = final === undefined ? undefined : shortestToFinal(automaton, q, final);
    const choices = toFinal !== undefined && toFinal.length <= left ? valid.filter((v) => stepsToFinal(automaton, q, v, final!) <= left) : valid;
    let next: string;
    if (proposed && choices.includes(proposed.name)) next = proposed.name;
    else {
      const wrote = proposed ? ` (the model wrote "${proposed.text}")` : '';
      const onlyFinish = `${left} of ${maxSteps} steps left, just enough to reach ${final}`;
      if (proposed && valid.includes(proposed.name)) {
        corrections.push({ step: steps.length - 1, kind: 'finish-forced', detail: `${onlyFinish}: "${proposed.text}" would not get there` });
      } else if (proposed && capped.includes(proposed.name)) {
        corrections.push({ step: steps.length - 1, kind: 'loop-capped', detail: `the loop ran its maximum number of times${wrote}; allowed: ${choices.map((v) => byName.get(v)!.text).join(' ')}` });
      } else if (proposed) {
        corrections.push({
          step: steps.length - 1,
          kind: 'invalid-marker',
          detail: `after ${state.name} the model wrote "${proposed.text}"; allowed: ${valid.map((v) => byName.get(v)!.text).join(' ')}`,
        });
      } else if (capped.length > 0 && choices.length === 1) {
        corrections.push({ step: steps.length - 1, kind: 'loop-capped', detail: `the loop ran its maximum number of times: going on with ${choices[0]}` });
      } else if (choices.length === 1 && valid.length > 1) {
        corrections.push({ step: steps.length - 1, kind: 'finish-forced', detail: `${onlyFinish}: going on with ${choices[0]}` });
      }
      if (choices.length === 1) next = choices[0];
      else {
        const options2 = choices.map((v) => byName.get(v)!.text);
        const reply = await ask(
          [{ role: 'user', content: `Which step comes next? Reply with exactly one of: ${options2.join(' | ')}` }],
          transcript,
          [],
        );
        const m = firstMarker(reply, choices.map((v) => byName.get(v)!));
        if (m) next = m.state.name;
        else {
          next = choices[0];
          corrections.push({ step: steps.length - 1, kind: 'choice-forced', detail: `no valid choice in "${reply.trim().slice(0, 60)}"; used ${next}` });
        }
      }
    }
    q = automaton.step(q, next)!;
    qFree = free.step(qFree, next)!;
    state = byName.get(next)!;
    transcript += state.text;
  }

  const last = steps[steps.length - 1];
  // Env-ended: the environment's refusal to take its turn ends the session at that turn.
  const complete =
    stopReason === 'final-state' || ((stopReason === 'env-ended' || stopReason === 'no-successor') && automaton.accepting(q));
  return {
    steps,
    transcript,
    complete,
    stopReason,
    ...(stopReason === 'final-state' && last ? { answer: last.text } : {}),
    corrections,
    modelCalls,
  };
}
