/**
 * runtime/agent — declarative agent-behavior specs (states with markers, flags and content
 * constraints, plus a temporal behavior over the states), their compilation to a deterministic
 * automaton, and `runAgent`, the constrained agent loop that keeps a chat model on the automaton.
 *
 * spec.ts owns the spec types and the paper's PDDL-style s-expression reader:
 *   (define react-agent (:states (Thought (:text "Thought:")) …) (:behavior (next …)))
 */

/** A small JSON Schema subset used as a content constraint. */
export interface JsonSchema {
  readonly type?: 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'null';
  readonly enum?: readonly unknown[];
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean;
  readonly items?: JsonSchema;
}

export interface AgentState {
  readonly name: string;
  /** The marker: prompt text for the state and the signal that the model moved to it. */
  readonly text: string;
  /** The environment (tools, the user), not the model, produces this state's text. */
  readonly envInput?: boolean;
  /** Content constraint: the state's text must be one of these strings (e.g. tool names). */
  readonly allowed?: readonly string[];
  /** Content constraint: the state's text must be JSON matching this schema. */
  readonly schema?: JsonSchema;
}

/**
 * The behavior language of the paper: a state name; `next` — the chain ○⟨φ1, φ2, …⟩, "φ1 then φ2
 * then …"; `until` — repeat the first part until the second starts; `always` — repeat forever;
 * and `or` (an extension) — any one of the alternatives.
 */
export type Behavior =
  | string
  | { readonly next: readonly Behavior[] }
  /** `max`: this loop runs at most so many times, then the second part must follow. */
  | { readonly until: readonly [Behavior, Behavior]; readonly max?: number }
  | { readonly always: Behavior }
  | { readonly or: readonly Behavior[] };

export interface AgentSpec {
  readonly name: string;
  readonly states: readonly AgentState[];
  /** Paper-style behavior, or Spot-syntax LTL over state names read on finite traces (one state per step). */
  readonly behavior: Behavior | { readonly ltl: string };
  /** Default: the first state to appear in the behavior. */
  readonly initial?: string;
  /** Default: the last state to appear in the behavior, unless the behavior is `always …` (then none). */
  readonly final?: string;
  /**
   * Every `until` loop of the behavior runs at most this many times (a loop's own `max` wins):
   * once reached, the loop is left and the path goes on to the final state. The paper caps the
   * ReACT loop at 3. Default: no cap.
   */
  readonly maxLoops?: number;
}

export class AgentSpecError extends Error {
  constructor(
    message: string,
    readonly line = 0,
    readonly col = 0,
  ) {
    super(line > 0 ? `${line}:${col}: ${message}` : message);
    this.name = 'AgentSpecError';
  }
}

type SExpr = { kind: 'list'; items: SExpr[]; line: number; col: number } | { kind: 'atom' | 'string'; value: string; line: number; col: number };

function readSExprs(text: string): SExpr[] {
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const here = () => ({ line, col: i - lineStart + 1 });
  const skip = (): void => {
    while (i < text.length) {
      const c = text[i];
      if (c === '\n') {
        line++;
        i++;
        lineStart = i;
      } else if (/\s/.test(c)) i++;
      else if (c === ';') while (i < text.length && text[i] !== '\n') i++;
      else break;
    }
  };
  const read = (): SExpr => {
    skip();
    const pos = here();
    if (i >= text.length) throw new AgentSpecError('unexpected end of spec: missing )', pos.line, pos.col);
    const c = text[i];
    if (c === '(') {
      i++;
      const items: SExpr[] = [];
      for (;;) {
        skip();
        if (i >= text.length) throw new AgentSpecError('missing ) for the list opened here', pos.line, pos.col);
        if (text[i] === ')') {
          i++;
          return { kind: 'list', items, ...pos };
        }
        items.push(read());
      }
    }
    if (c === ')') throw new AgentSpecError('unexpected )', pos.line, pos.col);
    if (c === '"') {
      let s = '';
      i++;
      while (i < text.length && text[i] !== '"') {
        if (text[i] === '\\' && i + 1 < text.length) i++;
        if (text[i] === '\n') {
          line++;
          lineStart = i + 1;
        }
        s += text[i++];
      }
      if (i >= text.length) throw new AgentSpecError('unterminated string', pos.line, pos.col);
      i++;
      return { kind: 'string', value: s, ...pos };
    }
    let s = '';
    while (i < text.length && !/[\s()";]/.test(text[i])) s += text[i++];
    return { kind: 'atom', value: s, ...pos };
  };
  const out: SExpr[] = [];
  for (;;) {
    skip();
    if (i >= text.length) return out;
    out.push(read());
  }
}

function fail(e: SExpr, message: string): never {
  throw new AgentSpecError(message, e.line, e.col);
}

function atom(e: SExpr | undefined, what: string, parent: SExpr): string {
  if (!e) fail(parent, `expected ${what}`);
  if (e.kind !== 'atom') fail(e, `expected ${what}`);
  return e.value;
}

function str(e: SExpr | undefined, what: string, parent: SExpr): string {
  if (!e) fail(parent, `expected ${what}`);
  if (e.kind !== 'string') fail(e, `expected ${what} (a "quoted string")`);
  return e.value;
}

/** Read one `(define name (:states …) (:behavior …))` form. */
export function parseAgentSpec(text: string): AgentSpec {
  const forms = readSExprs(text);
  if (forms.length !== 1) throw new AgentSpecError(`expected exactly one (define …) form, found ${forms.length}`);
  const top = forms[0];
  if (top.kind !== 'list' || atom(top.items[0], '(define …)', top) !== 'define') fail(top, 'expected (define name (:states …) (:behavior …))');
  const name = atom(top.items[1], 'the agent name', top);
  let states: AgentState[] | undefined;
  let behavior: AgentSpec['behavior'] | undefined;
  let initial: string | undefined;
  let final: string | undefined;
  let maxLoops: number | undefined;
  for (const section of top.items.slice(2)) {
    if (section.kind !== 'list' || section.items.length === 0) fail(section, 'expected a section such as (:states …)');
    const key = atom(section.items[0], 'a section keyword', section);
    const body = section.items.slice(1);
    switch (key) {
      case ':states':
        states = body.map(readState);
        break;
      case ':behavior':
        if (body.length !== 1) fail(section, '(:behavior …) takes exactly one formula');
        behavior = body[0].kind === 'string' ? { ltl: body[0].value } : readBehavior(body[0]);
        break;
      case ':initial':
        initial = atom(body[0], 'a state name', section);
        break;
      case ':final':
        final = atom(body[0], 'a state name', section);
        break;
      case ':max-loops':
        maxLoops = count(body[0], section);
        break;
      default:
        fail(section, `unknown section ${key} (expected :states, :behavior, :initial, :final or :max-loops)`);
    }
  }
  if (!states) fail(top, 'missing (:states …)');
  if (behavior === undefined) fail(top, 'missing (:behavior …)');
  const spec: AgentSpec = {
    name,
    states,
    behavior,
    ...(initial ? { initial } : {}),
    ...(final ? { final } : {}),
    ...(maxLoops !== undefined ? { maxLoops } : {}),
  };
  validateAgentSpec(spec);
  return spec;
}

function readState(e: SExpr): AgentState {
  if (e.kind !== 'list' || e.items.length === 0) fail(e, 'expected (Name (:text "marker") …)');
  const name = atom(e.items[0], 'a state name', e);
  let text: string | undefined;
  let envInput = false;
  let allowed: string[] | undefined;
  let schema: JsonSchema | undefined;
  for (const prop of e.items.slice(1)) {
    if (prop.kind !== 'list' || prop.items.length === 0) fail(prop, 'expected (:text …), (:flags …), (:allowed …) or (:schema …)');
    const key = atom(prop.items[0], 'a property keyword', prop);
    const args = prop.items.slice(1);
    if (key === ':text') text = str(args[0], 'the marker text', prop);
    else if (key === ':flags') {
      for (const f of args) {
        const flag = atom(f, 'a flag', prop);
        if (flag === ':env-input') envInput = true;
        else fail(f, `unknown flag ${flag} (known: :env-input)`);
      }
    } else if (key === ':allowed') allowed = args.map((a) => str(a, 'an allowed string', prop));
    else if (key === ':schema') {
      const raw = str(args[0], 'a JSON schema string', prop);
      try {
        schema = JSON.parse(raw) as JsonSchema;
      } catch (err) {
        fail(args[0], `invalid JSON schema: ${(err as Error).message}`);
      }
    } else fail(prop, `unknown state property ${key}`);
  }
  if (text === undefined) fail(e, `state ${name} needs (:text "marker")`);
  return { name, text, ...(envInput ? { envInput } : {}), ...(allowed ? { allowed } : {}), ...(schema ? { schema } : {}) };
}

/** A loop count: a whole number ≥ 1. */
function count(e: SExpr | undefined, parent: SExpr): number {
  const text = atom(e, 'a whole number of loops', parent);
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 1) fail(e ?? parent, `expected a whole number of loops (1 or more), not ${text}`);
  return n;
}

function readBehavior(e: SExpr): Behavior {
  if (e.kind === 'atom') return e.value;
  if (e.kind !== 'list') fail(e, 'expected a state name or (next …), (until …), (always …), (or …)');
  const op = atom(e.items[0], 'an operator', e);
  let items = e.items.slice(1);
  // (until a b :max 3): this loop's own cap.
  let max: number | undefined;
  const at = items.findIndex((x) => x.kind === 'atom' && x.value === ':max');
  if (at >= 0) {
    if (op !== 'until') fail(items[at], ':max is allowed only in (until …)');
    max = count(items[at + 1], e);
    items = [...items.slice(0, at), ...items.slice(at + 2)];
  }
  const args = items.map(readBehavior);
  switch (op) {
    case 'next':
      if (args.length < 1) fail(e, '(next …) needs at least one argument');
      return { next: args };
    case 'until':
      if (args.length !== 2) fail(e, '(until a b) takes two arguments');
      return max === undefined ? { until: [args[0], args[1]] } : { until: [args[0], args[1]], max };
    case 'always':
      if (args.length !== 1) fail(e, '(always a) takes one argument');
      return { always: args[0] };
    case 'or':
      if (args.length < 2) fail(e, '(or …) needs at least two arguments');
      return { or: args };
    default:
      fail(e.items[0], `unknown behavior operator ${op} (known: next, until, always, or)`);
  }
}

/** States named in a behavior, in order of first appearance. */
export function behaviorStates(b: Behavior): string[] {
  const out: string[] = [];
  const walk = (x: Behavior): void => {
    if (typeof x === 'string') {
      if (!out.includes(x)) out.push(x);
    } else if ('next' in x) x.next.forEach(walk);
    else if ('until' in x) x.until.forEach(walk);
    else if ('or' in x) x.or.forEach(walk);
    else walk(x.always);
  };
  walk(b);
  return out;
}

/** Last state to appear (the paper's default final state). */
function lastState(b: Behavior): string | undefined {
  const all: string[] = [];
  const walk = (x: Behavior): void => {
    if (typeof x === 'string') all.push(x);
    else if ('next' in x) x.next.forEach(walk);
    else if ('until' in x) x.until.forEach(walk);
    else if ('or' in x) x.or.forEach(walk);
    else walk(x.always);
  };
  walk(b);
  return all[all.length - 1];
}

/** Check names and defaults; throws AgentSpecError. */
export function validateAgentSpec(spec: AgentSpec): void {
  const names = new Set<string>();
  for (const s of spec.states) {
    if (names.has(s.name)) throw new AgentSpecError(`duplicate state ${s.name}`);
    names.add(s.name);
    if (s.text.trim() === '') throw new AgentSpecError(`state ${s.name} has an empty marker`);
    if (s.allowed && s.allowed.length === 0) throw new AgentSpecError(`state ${s.name}: (:allowed) needs at least one string`);
  }
  if (!isLtlBehavior(spec.behavior)) {
    for (const n of behaviorStates(spec.behavior)) if (!names.has(n)) throw new AgentSpecError(`behavior mentions unknown state ${n}`);
  }
  for (const n of [spec.initial, spec.final]) if (n !== undefined && !names.has(n)) throw new AgentSpecError(`unknown state ${n}`);
  if (spec.maxLoops !== undefined && !(Number.isSafeInteger(spec.maxLoops) && spec.maxLoops >= 1)) {
    throw new AgentSpecError(`maxLoops must be a whole number of loops (1 or more), not ${spec.maxLoops}`);
  }
  // A cap that silently did nothing would be a wrong promise: LTL behaviors have no (until …) loops.
  if (spec.maxLoops !== undefined && isLtlBehavior(spec.behavior)) throw new AgentSpecError('maxLoops bounds (until …) loops; an LTL behavior has none');
}

/** Initial and final states with the paper's defaults applied. */
export function endpoints(spec: AgentSpec): { initial: string; final: string | undefined } {
  const b = spec.behavior;
  if (isLtlBehavior(b)) {
    const initial = spec.initial ?? spec.states[0]?.name;
    if (!initial) throw new AgentSpecError('spec has no states');
    return { initial, final: spec.final ?? spec.states[spec.states.length - 1]?.name };
  }
  const initial = spec.initial ?? behaviorStates(b)[0];
  const topAlways = typeof b !== 'string' && 'always' in b;
  return { initial, final: spec.final ?? (topAlways ? undefined : lastState(b)) };
}

export function isLtlBehavior(b: AgentSpec['behavior']): b is { readonly ltl: string } {
  return typeof b === 'object' && 'ltl' in b;
}
