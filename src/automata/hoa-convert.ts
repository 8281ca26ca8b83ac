/**
 * HOA ⇄ MealyMachine and HOA ⇄ Tgba.
 *
 * A Mealy machine in HOA (as ltlsynt and Strix print it) has `controllable-AP:` naming the outputs,
 * a single start state, acceptance `t`, and edge labels over inputs and outputs. Each label
 * becomes one Mealy transition per DNF cube, split into its input and output literals (splitting
 * a cube is exact; splitting a whole label would not be).
 *
 * Automata whose acceptance is not generalized Büchi stay as `HoaAutomaton` data; `hoaToTgba`
 * reports why it cannot convert them.
 */
import { type Diagnostic, UserError } from '../diagnostics/diagnostic.js';
import type { Cube, MealyMachine, MealyTransition } from '../game/mealy.js';
import { dict } from '../../runtime/dict.js';
import type { HoaAcceptance, HoaAutomaton, HoaEdge, HoaLabel, HoaState } from './hoa.js';
import { hoaStateCount } from './hoa.js';
import { aliasTable, DnfTooLargeError, formulaToLabel, labelCubes, labelToFormula } from './hoa-label.js';
import type { Edge, Tgba } from './types.js';

export interface HoaConvertOptions {
  /** File (or tool) name for diagnostics. */
  readonly file?: string;
  /** Map an HOA AP name to the proposition name used by the caller (e.g. undo renaming). */
  readonly rename?: (apName: string) => string;
}

function fail(message: string, options: HoaConvertOptions): never {
  const d: Diagnostic = {
    severity: 'error',
    message,
    span: options.file ? { file: options.file, line: 1, col: 1 } : undefined,
    code: 'hoa',
  };
  throw new UserError(d);
}

function singleStart(aut: HoaAutomaton, options: HoaConvertOptions, what: string): number[] {
  const out: number[] = [];
  for (const conj of aut.start) {
    if (conj.length !== 1) fail(`${what}: a universal start (Start: ${conj.join(' & ')}) is not supported`, options);
    out.push(conj[0]);
  }
  return out;
}

/** The edges of each state with state-level labels and marks pushed onto the edges. */
function normalizedEdges(st: HoaState): { label: HoaLabel; targets: readonly number[]; marks: readonly number[] }[] {
  return st.edges.map((e: HoaEdge) => ({
    label: st.label ?? e.label ?? { kind: 't' },
    targets: e.targets,
    marks: mergeMarks(st.marks, e.marks),
  }));
}

function mergeMarks(a: readonly number[] | undefined, b: readonly number[] | undefined): readonly number[] {
  if (!a || a.length === 0) return b ?? [];
  if (!b || b.length === 0) return a;
  return [...new Set([...a, ...b])].sort((x, y) => x - y);
}

function isTriviallyTrue(c: HoaAcceptance): boolean {
  return c.kind === 't' || (c.kind === 'and' && c.args.every(isTriviallyTrue));
}

// ---------------------------------------------------------------------------------------------
// Mealy

export function hoaToMealy(aut: HoaAutomaton, options: HoaConvertOptions = {}): MealyMachine {
  const what = 'not a Mealy machine';
  if (!aut.controllableAps) fail(`${what}: the automaton has no 'controllable-AP:' header naming the outputs`, options);
  if (!isTriviallyTrue(aut.acceptance))
    fail(`${what}: its acceptance condition is not 't' (a Mealy machine accepts every run)`, options);
  const starts = singleStart(aut, options, what);
  if (starts.length !== 1)
    fail(`${what}: it needs exactly one initial state, the automaton has ${starts.length}`, options);

  const rename = options.rename ?? ((n: string) => n);
  const names = aut.aps.map(rename);
  const controllable = new Set(aut.controllableAps);
  const inputs = names.filter((_, i) => !controllable.has(i));
  const outputs = names.filter((_, i) => controllable.has(i));
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup !== undefined) fail(`${what}: two atomic propositions map to the same name '${dup}'`, options);

  const aliases = aliasTable(aut.aliases);
  const transitions: MealyTransition[] = [];
  for (const st of aut.states) {
    for (const e of normalizedEdges(st)) {
      if (e.targets.length !== 1) fail(`${what}: state ${st.id} has a universal edge (${e.targets.join('&')})`, options);
      let cubes;
      try {
        cubes = labelCubes(e.label, names.length, aliases);
      } catch (err) {
        if (err instanceof DnfTooLargeError) fail(`state ${st.id}: ${err.message}`, options);
        throw err;
      }
      for (const lits of cubes) {
        const input = dict<boolean>();
        const output = dict<boolean>();
        for (let i = 0; i < lits.length; i++) {
          if (lits[i] === 0) continue;
          (controllable.has(i) ? output : input)[names[i]] = lits[i] === 1;
        }
        transitions.push({ from: st.id, input, output, to: e.targets[0] });
      }
    }
  }
  return { inputs, outputs, stateCount: hoaStateCount(aut), initial: starts[0], transitions };
}

export interface MealyToHoaOptions {
  readonly name?: string;
  readonly tool?: readonly string[];
}

export function mealyToHoa(m: MealyMachine, options: MealyToHoaOptions = {}): HoaAutomaton {
  const aps = [...m.inputs, ...m.outputs];
  const index = new Map(aps.map((a, i) => [a, i]));
  const cubeLits = (cube: Cube): HoaLabel[] =>
    Object.keys(cube)
      .map((name) => {
        const i = index.get(name);
        if (i === undefined) throw new Error(`transition mentions '${name}', which is neither an input nor an output`);
        return [i, cube[name]] as const;
      })
      .sort((a, b) => a[0] - b[0])
      .map(([i, v]): HoaLabel => (v ? { kind: 'ap', index: i } : { kind: 'not', arg: { kind: 'ap', index: i } }));
  const edgesOf: HoaEdge[][] = Array.from({ length: m.stateCount }, () => []);
  for (const t of m.transitions) {
    const lits = [...cubeLits(t.input), ...cubeLits(t.output)];
    const label: HoaLabel = lits.length === 0 ? { kind: 't' } : lits.length === 1 ? lits[0] : { kind: 'and', args: lits };
    edgesOf[t.from].push({ label, targets: [t.to] });
  }
  return {
    version: 'v1',
    name: options.name,
    tool: options.tool,
    stateCount: m.stateCount,
    start: [[m.initial]],
    aps,
    aliases: [],
    acceptanceSets: 0,
    acceptance: { kind: 't' },
    accName: { name: 'all', params: [] },
    properties: ['trans-labels', 'explicit-labels', 'state-acc'],
    controllableAps: m.outputs.map((_, i) => m.inputs.length + i),
    otherHeaders: [],
    states: edgesOf.map((edges, id) => ({ id, edges })),
  };
}

// ---------------------------------------------------------------------------------------------
// TGBA

/** The Inf sets of a generalized Büchi condition, or a reason why the condition is not one. */
function generalizedBuchiSets(c: HoaAcceptance): number[] | string {
  if (c.kind === 't') return [];
  const parts = c.kind === 'and' ? c.args : [c];
  const sets: number[] = [];
  for (const p of parts) {
    if (p.kind === 't') continue;
    if (p.kind !== 'Inf' || p.complemented) return 'only conjunctions of Inf(n) (generalized Büchi) can be converted';
    if (!sets.includes(p.set)) sets.push(p.set);
  }
  return sets;
}

export function hoaToTgba(aut: HoaAutomaton, options: HoaConvertOptions = {}): Tgba {
  const what = 'cannot convert to a generalized Büchi automaton';
  const sets = generalizedBuchiSets(aut.acceptance);
  if (typeof sets === 'string') fail(`${what}: ${sets}`, options);
  const remap = new Map(sets.map((s, i) => [s, i]));
  const rename = options.rename ?? ((n: string) => n);
  const aps = aut.aps.map(rename);
  const aliases = aliasTable(aut.aliases);
  const stateCount = hoaStateCount(aut);
  const edges: Edge[][] = Array.from({ length: stateCount }, () => []);
  for (const st of aut.states) {
    for (const e of normalizedEdges(st)) {
      if (e.targets.length !== 1) fail(`${what}: state ${st.id} has a universal edge`, options);
      const marks = e.marks.filter((m) => remap.has(m)).map((m) => remap.get(m)!);
      edges[st.id].push({ to: e.targets[0], guard: labelToFormula(e.label, aps, aliases), marks: [...new Set(marks)].sort((a, b) => a - b) });
    }
  }
  const stateLabels = aut.states.some((s) => s.name !== undefined)
    ? Array.from({ length: stateCount }, (_, i) => aut.states.find((s) => s.id === i)?.name ?? '')
    : undefined;
  return { aps, stateCount, initial: singleStart(aut, options, what), accSets: sets.length, edges, stateLabels };
}

export function tgbaToHoa(t: Tgba, options: MealyToHoaOptions = {}): HoaAutomaton {
  const index = new Map(t.aps.map((a, i) => [a, i]));
  const acceptance: HoaAcceptance =
    t.accSets === 0
      ? { kind: 't' }
      : t.accSets === 1
        ? { kind: 'Inf', set: 0, complemented: false }
        : { kind: 'and', args: Array.from({ length: t.accSets }, (_, i) => ({ kind: 'Inf', set: i, complemented: false }) as const) };
  const accName =
    t.accSets === 0
      ? { name: 'all', params: [] }
      : t.accSets === 1
        ? { name: 'Buchi', params: [] }
        : { name: 'generalized-Buchi', params: [{ kind: 'int', value: t.accSets } as const] };
  return {
    version: 'v1',
    name: options.name,
    tool: options.tool,
    stateCount: t.stateCount,
    start: t.initial.map((s) => [s]),
    aps: [...t.aps],
    aliases: [],
    acceptanceSets: t.accSets,
    acceptance,
    accName,
    properties: ['trans-labels', 'explicit-labels', 'trans-acc'],
    otherHeaders: [],
    states: t.edges.map((es, id) => ({
      id,
      name: t.stateLabels?.[id] || undefined,
      edges: es.map((e) => ({
        label: formulaToLabel(e.guard, index),
        targets: [e.to],
        marks: e.marks.length > 0 ? e.marks : undefined,
      })),
    })),
  };
}
