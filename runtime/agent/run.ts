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
import { type BehaviorAutomaton, compileBehavior } from './behavior.js';
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
  | 'choice-forced';

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
  /** Stop after this many states (default 50). */
  readonly maxSteps?: number;
  /** Re-asks per content-constraint failure before forcing (default 2). */
  readonly contentRetries?: number;
  readonly temperature?: number;
  readonly seed?: number;
}

export interface AgentRun {
  readonly steps: readonly AgentStep[];
  readonly transcript: string;
  /** True when the run reached the final state (or the env ended it) in an accepting state. */
  readonly complete: boolean;
  readonly stopReason: 'final-state' | 'env-ended' | 'no-successor' | 'max-steps';
  /** Text of the final state, when reached. */
  readonly answer?: string;
  readonly corrections: readonly Correction[];
  readonly modelCalls: number;
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
  const automaton: BehaviorAutomaton = compileBehavior(spec);
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

  let q = automaton.step(automaton.start, initial);
  if (q === undefined) throw new Error(`the behavior of ${spec.name} does not allow starting in ${initial}`);
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
    let next: string;
    if (proposed && valid.includes(proposed.name)) next = proposed.name;
    else {
      if (proposed) {
        corrections.push({
          step: steps.length - 1,
          kind: 'invalid-marker',
          detail: `after ${state.name} the model wrote "${proposed.text}"; allowed: ${valid.map((v) => byName.get(v)!.text).join(' ')}`,
        });
      }
      if (valid.length === 1) next = valid[0];
      else {
        const options2 = valid.map((v) => byName.get(v)!.text);
        const reply = await ask(
          [{ role: 'user', content: `Which step comes next? Reply with exactly one of: ${options2.join(' | ')}` }],
          transcript,
          [],
        );
        const m = firstMarker(reply, valid.map((v) => byName.get(v)!));
        if (m) next = m.state.name;
        else {
          next = valid[0];
          corrections.push({ step: steps.length - 1, kind: 'choice-forced', detail: `no valid choice in "${reply.trim().slice(0, 60)}"; used ${next}` });
        }
      }
    }
    q = automaton.step(q, next)!;
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
