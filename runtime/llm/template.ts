/**
 * Prompt templates and the turn context they read. A template is either a function of a
 * `PromptView` or a string with `{{name}}` placeholders; both see the term's arguments (by
 * position and by declared parameter name), the current signal values and the turn number.
 *
 * Markers: each helper prefixes its system message with one HTML comment such as
 * `<!-- tslc:predicate name=inCave -->`. Real models ignore it; the simulated model parses it to
 * know which predicate or function term is being asked, so prompt wording and the simulation can
 * evolve independently. Names in markers are the spec's names.
 */
import { dict, own } from '../dict.js';
import { LlmError } from './errors.js';

/** What a template sees when it is rendered. */
export interface PromptView {
  /** The controller step (0-based) the call belongs to. */
  readonly turn: number;
  /** Current signal values (inputs and cells) by name, as last set on the `TurnContext`. */
  readonly signals: Readonly<Record<string, unknown>>;
  /** The term's evaluated arguments, in order. */
  readonly args: readonly unknown[];
  /** The same arguments under the template's declared `params` names. */
  readonly params: Readonly<Record<string, unknown>>;
  /** 0 for the first generation in a turn, 1.. for regenerations (point-in-time repair). */
  readonly attempt: number;
  /** For function terms: the rendered prompt modifier (e.g. "Compose a passage … a cave …"). */
  readonly modifier?: string;
}

export type TemplateText = string | ((view: PromptView) => string);

/**
 * The mutable per-run context helpers read at call time. The agent (or controller runtime) sets the
 * turn and signal values before evaluating predicates for a step, and bumps `attempt` to ask for a
 * regeneration; term functions keep the plain `(...args) => Promise<T>` shape the controller expects.
 */
export class TurnContext {
  turn = 0;
  signals: Readonly<Record<string, unknown>> = {};
  attempt = 0;
  /** Cancels every LLM call made through this context while it is set. */
  abortSignal: AbortSignal | undefined = undefined;

  /** Starts a step: sets the turn and signal values, resets the regeneration attempt. */
  begin(turn: number, signals: Readonly<Record<string, unknown>> = this.signals): this {
    this.turn = turn;
    this.signals = signals;
    this.attempt = 0;
    return this;
  }
}

export type MarkerKind = 'predicate' | 'function' | 'generate' | 'summary';

export interface Marker {
  readonly kind: MarkerKind;
  readonly name?: string;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const MARKER = /<!-- tslc:(predicate|function|generate|summary)(?: name=([A-Za-z_][A-Za-z0-9_]*))? -->/;

export function marker(kind: MarkerKind, name?: string): string {
  if (name !== undefined && !NAME.test(name)) {
    throw new LlmError('template', `marker name ${JSON.stringify(name)} is not an identifier`);
  }
  return name === undefined ? `<!-- tslc:${kind} -->` : `<!-- tslc:${kind} name=${name} -->`;
}

/** The first marker in `text`, if any. */
export function parseMarker(text: string): Marker | undefined {
  const match = MARKER.exec(text);
  if (!match) return undefined;
  return match[2] === undefined
    ? { kind: match[1] as MarkerKind }
    : { kind: match[1] as MarkerKind, name: match[2] };
}

export function makeView(
  context: TurnContext,
  args: readonly unknown[],
  paramNames: readonly string[] = [],
  extra: { modifier?: string } = {},
): PromptView {
  const params = dict(paramNames.map((name, index) => [name, args[index]]));
  return {
    turn: context.turn,
    signals: context.signals,
    args,
    params,
    attempt: context.attempt,
    ...(extra.modifier !== undefined ? { modifier: extra.modifier } : {}),
  };
}

/**
 * Renders a template. String placeholders resolve, in order: a declared parameter, `turn`,
 * `attempt`, `modifier`, then a signal of that name; `{{args.N}}` and `{{signals.NAME}}` are
 * explicit. An unknown placeholder is a `template` error (never rendered as empty text).
 */
export function render(template: TemplateText, view: PromptView, templateName: string): string {
  if (typeof template === 'function') return template(view);
  return template.replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)?)\s*\}\}/g, (_, path: string) => {
    const value = lookup(view, path);
    if (value === undefined) {
      throw new LlmError('template', `template '${templateName}' refers to {{${path}}}, which has no value`);
    }
    return stringify(value);
  });
}

function lookup(view: PromptView, path: string): unknown {
  const [head, tail] = path.split('.') as [string, string | undefined];
  if (tail !== undefined) {
    if (head === 'args') return view.args[Number(tail)];
    if (head === 'signals') return own(view.signals, tail);
    if (head === 'params') return own(view.params, tail);
    return undefined;
  }
  if (Object.hasOwn(view.params, head)) return view.params[head];
  if (head === 'turn') return view.turn;
  if (head === 'attempt') return view.attempt;
  if (head === 'modifier') return view.modifier;
  return own(view.signals, head);
}

function stringify(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

/**
 * Wraps untrusted text (a passage, a summary, user input) in `<tag>…</tag>` and neutralises any
 * closing tag inside it, so model output cannot end the quoted block and pose as instructions.
 */
export function quote(tag: string, text: string): string {
  if (!NAME.test(tag)) throw new LlmError('template', `quote tag ${JSON.stringify(tag)} is not an identifier`);
  const safe = text.replaceAll(`</${tag}>`, `</ ${tag}>`);
  return `<${tag}>\n${safe}\n</${tag}>`;
}
