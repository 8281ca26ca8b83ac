/**
 * The simulated model (`TSLC_MODEL=sim`): a deterministic, offline stand-in for an LLM, clearly
 * labelled as a simulation (id `sim:<world>#<seed>`, `simulated: true`, texts prefixed
 * `[simulated]`). It recognises requests by the `<!-- tslc:… -->` marker the term helpers add:
 *  - `function name=F`: writes a passage honouring F's intent, except with probability
 *    `hallucinationRate`, when the passage's hidden facts contradict it;
 *  - `predicate name=P`: answers from the hidden facts of the passage/summary quoted in the prompt,
 *    flipped with probability `evaluatorErrorRate`;
 *  - `summary`: summarizes, carrying facts forward; `generate`: writes an unconstrained passage;
 *  - `batch`: answers several predicates as one JSON object (runtime/llm/batch.ts), each answer
 *    flipped, unreadable or left out with the given rates, the whole reply cut off with
 *    `batchMalformedRate` (what single-call fallback is for).
 * Every output is a pure function of (seed, call seed, messages), like a seeded LLM in the papers.
 */
import { LlmError } from '../errors.js';
import { type ChatMessage, type Completion, estimateTokens, type GenerateOptions, type Model } from '../model.js';
import { abortableSleep } from '../reliable.js';
import { type Marker, parseMarker } from '../template.js';
import { cyoaWorld } from './cyoa-world.js';
import { createRng, type Rng, seedFrom } from './rng.js';
import { type Facts, honours, type SimWorld } from './world.js';

export const SIM_LABEL = '[simulated]';
const PREFIX_LENGTH = 48;

export interface SimOptions {
  readonly seed?: number;
  /** Defaults to the choose-your-own-adventure world. */
  readonly world?: SimWorld;
  /** Probability that a generated passage contradicts its prompt modifier (default 0.03). */
  readonly hallucinationRate?: number;
  /** Probability that a predicate answer is the opposite of the ground truth (default 0). */
  readonly evaluatorErrorRate?: number;
  /** Probability that a predicate answer is unreadable prose instead of 0/1 (default 0). */
  readonly garbageRate?: number;
  /** Probability that a readable answer comes dressed up (`**1**`, `Answer: 0`, `1.`) (default 0.1). */
  readonly answerNoiseRate?: number;
  /** Batch replies: probability that one answer is left out of the JSON object (default 0). */
  readonly batchOmitRate?: number;
  /** Batch replies: probability that the reply is cut off part-way, leaving malformed JSON (default 0). */
  readonly batchMalformedRate?: number;
  /** Artificial latency per call in ms (default 0), honouring the abort signal. */
  readonly latencyMs?: number;
}

/** What the simulation did on one generation, for tests and evaluation reports. */
export interface SimGeneration {
  readonly text: string;
  readonly facts: Facts;
  /** The facts the modifier asked for; undefined for unconstrained generation. */
  readonly intent: Facts | undefined;
  readonly hallucinated: boolean;
}

export interface SimulatedModel extends Model {
  readonly world: SimWorld;
  readonly options: Required<Omit<SimOptions, 'world'>>;
  /** The hidden facts of a passage or summary this model wrote (ground truth for judging). */
  truthOf(text: string): Facts | undefined;
  /** Ground truth of a predicate on a text this model wrote; undefined if unknown. */
  judge(predicate: string, text: string): boolean | undefined;
  /** Generations so far, in order. */
  readonly generations: readonly SimGeneration[];
}

const DRESSINGS: readonly ((digit: string) => string)[] = [
  (d) => `**${d}**`,
  (d) => `Answer: ${d}`,
  (d) => `${d}.`,
  (d) => `'${d}'`,
  (d) => ` ${d}\n`,
];

const GARBAGE = [
  'It is hard to say from this passage alone.',
  'The passage is ambiguous about where the hero is.',
  'Perhaps, depending on how one reads it.',
];

export function simulatedModel(options: SimOptions = {}): SimulatedModel {
  const world = options.world ?? cyoaWorld();
  const settings = {
    seed: options.seed ?? 0,
    hallucinationRate: rate(options.hallucinationRate ?? 0.03, 'hallucinationRate'),
    evaluatorErrorRate: rate(options.evaluatorErrorRate ?? 0, 'evaluatorErrorRate'),
    garbageRate: rate(options.garbageRate ?? 0, 'garbageRate'),
    answerNoiseRate: rate(options.answerNoiseRate ?? 0.1, 'answerNoiseRate'),
    batchOmitRate: rate(options.batchOmitRate ?? 0, 'batchOmitRate'),
    batchMalformedRate: rate(options.batchMalformedRate ?? 0, 'batchMalformedRate'),
    latencyMs: options.latencyMs ?? 0,
  };
  const id = `sim:${world.name}#${settings.seed}`;
  // Hidden facts of everything written, keyed by the exact text (as it appears in later prompts).
  const truths = new Map<string, Facts>();
  // Every text starts with SIM_LABEL, so quoted texts are found by scanning for the label and
  // looking up a fixed-length prefix, instead of testing every text ever written.
  const byPrefix = new Map<string, string[]>();
  const generations: SimGeneration[] = [];

  function remember(text: string, facts: Facts): void {
    if (!truths.has(text)) {
      const key = text.slice(0, PREFIX_LENGTH);
      byPrefix.set(key, [...(byPrefix.get(key) ?? []), text]);
    }
    truths.set(text, facts);
  }

  /** Texts this model wrote that occur verbatim in `haystack`. */
  function quotedTexts(haystack: string): { text: string; facts: Facts }[] {
    const found: { text: string; facts: Facts }[] = [];
    for (let at = haystack.indexOf(SIM_LABEL); at >= 0; at = haystack.indexOf(SIM_LABEL, at + 1)) {
      for (const text of byPrefix.get(haystack.slice(at, at + PREFIX_LENGTH)) ?? []) {
        const facts = truths.get(text);
        if (facts && haystack.startsWith(text, at)) found.push({ text, facts });
      }
    }
    return found;
  }

  function unsupported(message: string): LlmError {
    return new LlmError('unsupported', `${id} (simulated): ${message}`, { model: id });
  }

  /** The longest text this model wrote that is quoted in the request: the subject being asked about. */
  function subjectOf(messages: readonly ChatMessage[]): { text: string; facts: Facts } | undefined {
    const haystack = messages
      .filter((m) => m.role === 'user')
      .map((m) => m.content)
      .join('\n');
    let best: { text: string; facts: Facts } | undefined;
    for (const quoted of quotedTexts(haystack)) {
      if (!best || quoted.text.length > best.text.length) best = quoted;
    }
    if (best) return best;
    const classified = world.classify?.(quotedPart(haystack));
    return classified ? { text: '', facts: classified } : undefined;
  }

  function generate(intent: Facts | undefined, rng: Rng): string {
    const hallucinated = intent !== undefined && rng.chance(settings.hallucinationRate);
    let facts: Facts;
    if (intent === undefined) facts = world.spontaneous(rng);
    else if (hallucinated) facts = world.contradict(intent, rng);
    else facts = world.realize(intent, rng);
    if (intent !== undefined && honours(facts, intent) === hallucinated) {
      throw new LlmError('provider', `world '${world.name}' produced facts inconsistent with its intent`, { model: id });
    }
    const text = `${SIM_LABEL} ${world.render(facts, rng)}`;
    remember(text, facts);
    generations.push({ text, facts, intent, hallucinated });
    return text;
  }

  function answerPredicate(name: string, messages: readonly ChatMessage[], rng: Rng): string {
    const subject = subjectOf(messages);
    if (!subject) throw unsupported(`predicate '${name}' asked about a text the simulation cannot read`);
    const truth = world.predicate(name, subject.facts);
    if (truth === undefined) throw unsupported(`world '${world.name}' has no predicate '${name}'`);
    if (rng.chance(settings.garbageRate)) return rng.pick(GARBAGE);
    const answer = rng.chance(settings.evaluatorErrorRate) ? !truth : truth;
    const digit = answer ? '1' : '0';
    return rng.chance(settings.answerNoiseRate) ? rng.pick(DRESSINGS)(digit) : digit;
  }

  /** A batch request: `- key [name] (about textN): question` lines over `<textN>` subject blocks. */
  function answerBatch(messages: readonly ChatMessage[], rng: Rng): string {
    const request = messages.filter((m) => m.role === 'user').map((m) => m.content).join('\n');
    const subjects = new Map([...request.matchAll(/<(text\d+)>\n([\s\S]*?)\n<\/\1>/g)].map((m) => [m[1], m[2]]));
    const entries: string[] = [];
    for (const m of request.matchAll(/^- (\S+) \[([A-Za-z_]\w*)\](?: \(about ([^)]*)\))?: /gm)) {
      const [, key, name, about] = m;
      const subjectText = about === undefined ? undefined : subjects.get(about.split(', ')[0]);
      if (subjectText === undefined) throw unsupported(`batch question '${key}' quotes no subject the simulation can read (give the template a 'question')`);
      // The longest text this model wrote inside the subject block is what the question is about.
      const quoted = quotedTexts(subjectText).sort((a, b) => b.text.length - a.text.length)[0];
      const facts = quoted?.facts ?? world.classify?.(subjectText);
      if (!facts) throw unsupported(`batch question '${key}' asks about a text the simulation cannot read`);
      const truth = world.predicate(name, facts);
      if (truth === undefined) throw unsupported(`world '${world.name}' has no predicate '${name}'`);
      const omitted = rng.chance(settings.batchOmitRate);
      const garbage = rng.chance(settings.garbageRate);
      const answer = rng.chance(settings.evaluatorErrorRate) ? !truth : truth;
      if (omitted) continue;
      entries.push(`${JSON.stringify(key)}: ${garbage ? '"unsure"' : answer ? 1 : 0}`);
    }
    let json = `{${entries.join(', ')}}`;
    // A reply cut off part-way (as at a token limit): malformed JSON, some answers complete.
    if (rng.chance(settings.batchMalformedRate)) json = json.slice(0, Math.max(1, Math.floor(rng.next() * (json.length - 1))));
    const dressed = rng.chance(settings.answerNoiseRate) ? '```json\n' + json + '\n```' : json;
    return `${SIM_LABEL} ${dressed}`;
  }

  function summarize(messages: readonly ChatMessage[], rng: Rng): string {
    const user = messages.filter((m) => m.role === 'user').map((m) => m.content).join('\n');
    // The newest passage is the subject; an earlier summary quoted beside it carries history.
    let passage: Facts | undefined;
    let previous: Facts | undefined;
    let passageLength = -1;
    for (const { text, facts } of quotedTexts(user)) {
      if (Array.isArray(facts.visited)) previous = facts;
      else if (text.length > passageLength) {
        passage = facts;
        passageLength = text.length;
      }
    }
    passage ??= world.classify?.(quotedPart(user));
    if (!passage) throw unsupported('summary request quotes no passage the simulation can read');
    const summary = world.summarize(previous, passage, rng);
    const text = `${SIM_LABEL} ${summary.text}`;
    remember(text, summary.facts);
    return text;
  }

  function respond(found: Marker, messages: readonly ChatMessage[], rng: Rng): string {
    switch (found.kind) {
      case 'predicate':
        return answerPredicate(found.name ?? '', messages, rng);
      case 'function': {
        const intent = world.intent(found.name ?? '');
        if (!intent) throw unsupported(`world '${world.name}' has no function term '${found.name ?? ''}'`);
        return generate(intent, rng);
      }
      case 'generate':
        return generate(undefined, rng);
      case 'summary':
        return summarize(messages, rng);
      case 'batch':
        return answerBatch(messages, rng);
      case 'label':
      case 'judge':
        throw unsupported(`'${found.kind}' requests are answered by the simulated label and judge models (runtime/monitor/sim-label.ts, sim-judge.ts)`);
    }
  }

  async function complete(messages: readonly ChatMessage[], call: GenerateOptions = {}): Promise<Completion> {
    if (call.signal?.aborted) throw new LlmError('aborted', 'the LLM call was aborted', { model: id });
    if (settings.latencyMs > 0) {
      try {
        await abortableSleep(settings.latencyMs, call.signal);
      } catch (error) {
        throw new LlmError('aborted', 'the LLM call was aborted', { model: id, cause: error });
      }
    }
    const found = messages.map((m) => parseMarker(m.content)).find((m) => m !== undefined);
    if (!found) {
      throw unsupported('only prompts built by the tslc term helpers (with a <!-- tslc:… --> marker) are understood');
    }
    const rng = createRng(seedFrom(settings.seed, call.seed ?? null, messages.map((m) => [m.role, m.content])));
    const text = respond(found, messages, rng);
    const input = messages.reduce((sum, m) => sum + estimateTokens(m.content), 0);
    return { text, model: id, simulated: true, usage: { inputTokens: input, outputTokens: estimateTokens(text) } };
  }

  return {
    id,
    simulated: true,
    world,
    options: settings,
    complete,
    truthOf: (text) => truths.get(text) ?? truths.get(text.trim()),
    judge(predicate, text) {
      const facts = truths.get(text) ?? truths.get(text.trim());
      return facts === undefined ? undefined : world.predicate(predicate, facts);
    },
    generations,
  };
}

/**
 * The last `<tag>…</tag>` block (how the prompts quote their subject), else the whole text: the
 * question's own words ("is the hero in a market?") must not be read as the passage's content.
 */
function quotedPart(text: string): string {
  const blocks = [...text.matchAll(/<([A-Za-z_]\w*)>\n([\s\S]*?)\n<\/\1>/g)];
  return blocks.at(-1)?.[2] ?? text;
}

function rate(value: number, name: string): number {
  if (!(value >= 0 && value <= 1)) throw new LlmError('config', `${name} must be between 0 and 1, got ${value}`);
  return value;
}
