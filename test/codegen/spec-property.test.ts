/**
 * Property test over every generated controller: drive it for 10,000 steps with random predicate
 * answers that keep the spec's assumptions (rejection-sampled with a progression monitor, where
 * some answer keeps them), and check the trace against the guarantees twice: with the runtime
 * monitor's LTL progression, and with the independent model checker's automaton (src/verify,
 * `checkTraceAgainstSpec`), neither of which shares code with codegen or synthesis. Finite traces can only
 * expose safety violations; liveness is the model checker's job at compile time.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createController, type ControllerMetadata, type ControllerTable, replay, type StepRecord } from '../../runtime/index.js';
import { walk } from '../../runtime/decision.js';
import type { LtlNode } from '../../runtime/ltl/syntax.js';
import { progress, type Term, TermStore } from '../../runtime/monitor/terms.js';
import { composeGames } from '../../src/codegen/compose.js';
import { loadGame } from '../../src/frontend/load.js';
import { signalConstraint, type GameSpec } from '../../src/game/spec.js';
import { and, type Formula } from '../../src/ltl/formula.js';
import { checkTraceAgainstSpec, type ControllerStep } from '../../src/verify/index.js';
import { repoRoot } from './typecheck.js';
import { mulberry32 as rng } from '../../runtime/random.js';

const STEPS = 10_000;

function toNode(f: Formula): LtlNode {
  switch (f.kind) {
    case 'true':
    case 'false':
      return { op: f.kind };
    case 'ap':
      return { op: 'ap', name: f.name };
    case 'not':
      return { op: '!', arg: toNode(f.arg) };
    case 'and':
    case 'or':
      return { op: f.kind === 'and' ? '&' : '|', args: f.args.map(toNode) };
    case 'X':
    case 'F':
    case 'G':
      return { op: f.kind, arg: toNode(f.arg) };
    case 'implies':
      return { op: '->', left: toNode(f.left), right: toNode(f.right) };
    case 'iff':
      return { op: '<->', left: toNode(f.left), right: toNode(f.right) };
    default:
      return { op: f.kind, left: toNode(f.left), right: toNode(f.right) };
  }
}


interface DriveResult {
  violations: { step: number; state: number }[];
  assumptionBrokenAt?: number;
  records: StepRecord[];
  /** Every step as the independent checker (src/verify) reads it. */
  steps: ControllerStep[];
}

/** The spec's guarantees alone: the drive keeps the assumptions, so these must hold on the trace. */
function guaranteesOnly(spec: GameSpec): GameSpec {
  return { ...spec, initially: [], assumptions: [] };
}

export async function drive(table: ControllerTable, spec: GameSpec, steps: number, seed: number): Promise<DriveResult> {
  const store = new TermStore();
  const conj = (fs: Formula[]) => and(...fs);
  let assume: Term = store.fromNode(toNode(conj([...spec.initially, ...spec.assumptions].map((p) => p.formula))));
  let guarantee: Term = store.fromNode(toNode(conj([...spec.preset.map((p) => p.formula), signalConstraint(spec), ...spec.guarantees.map((p) => p.formula)])));
  const random = rng(seed);
  const n = table.predicates.length;
  let answers: boolean[] = [];
  // Ask predicates by index: the test owns every answer, whatever the predicate's arguments are.
  const probe: ControllerTable = {
    ...table,
    predicates: table.predicates.map((p) => ({ index: p.index, proposition: p.proposition, text: p.text, fn: '__answer', args: [{ kind: 'literal', value: p.index }] })),
  };
  let made = 0;
  const impl = new Proxy({ __answer: (i: unknown) => answers[i as number] } as Record<string, unknown>, {
    get: (target, key) => (key in target ? target[key as string] : ['add', 'sub', 'mul', 'div', 'eq', 'lt', 'gt', 'lte', 'gte'].includes(String(key)) ? undefined : () => `${String(key)}#${made++}`),
  });
  const initial = Object.fromEntries(table.signals.map((s) => [s.name, 0]));
  const controller = createController<Record<string, unknown>, Record<string, unknown>>({ table: probe, impl, initialSignals: initial, options: { telemetry: false, traceLimit: 0 } });
  const inputs = Object.fromEntries(table.signals.filter((s) => s.role === 'input').map((s) => [s.name, 0]));
  const result: DriveResult = { violations: [], records: [], steps: [] };
  // Progression is memoised per (term, letter): the same few letters recur every step.
  const memo = new Map<string, Term>();
  const step1 = (term: Term, values: readonly boolean[], updates: readonly number[]): Term => {
    const key = `${term.id}|${values.map(Number).join('')}|${updates.join(',')}`;
    let next = memo.get(key);
    if (!next) {
      const truth = new Set<string>();
      values.forEach((v, i) => v && truth.add(table.predicates[i].proposition));
      for (const u of updates) truth.add(table.updates[u].proposition);
      next = progress(store, term, (ap: number) => truth.has(store.aps[ap]));
      memo.set(key, next);
    }
    return next;
  };
  const valuations = (): boolean[][] => {
    if (n <= 7) {
      const all = Array.from({ length: 1 << n }, (_, bits) => Array.from({ length: n }, (_, i) => ((bits >> i) & 1) === 1));
      for (let i = all.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [all[i], all[j]] = [all[j], all[i]];
      }
      return all;
    }
    return Array.from({ length: 64 }, () => Array.from({ length: n }, () => random() < 0.5));
  };
  for (let step = 0; step < steps; step++) {
    const state = controller.state;
    let chosen: { values: boolean[]; updates: readonly number[]; next: number; assume: Term } | undefined;
    let fallback: typeof chosen;
    for (const values of valuations()) {
      const w = walk(table.states[state].decision, new Map(values.map((v, i) => [i, v])));
      if (w.kind !== 'leaf') throw new Error('diagram needs an unknown predicate');
      const nextAssume = step1(assume, values, w.leaf.updates);
      const candidate = { values, updates: w.leaf.updates, next: w.leaf.next, assume: nextAssume };
      fallback ??= candidate;
      if (nextAssume !== store.FALSE) {
        chosen = candidate;
        break;
      }
    }
    if (!chosen) {
      chosen = fallback!;
      result.assumptionBrokenAt ??= step;
    }
    answers = chosen.values;
    const record = await controller.step(inputs);
    // The live controller must take exactly the decision the table predicts.
    if (record.stateAfter !== chosen.next || record.updates.some((u, i) => u.index !== chosen.updates[i]))
      throw new Error(`step ${step}: the controller chose ${JSON.stringify(record.updates.map((u) => u.index))} → ${record.stateAfter}, the table ${JSON.stringify(chosen.updates)} → ${chosen.next}`);
    if (result.records.length < 2000) result.records.push(record);
    result.steps.push({
      state,
      inputs: Object.fromEntries(table.predicates.map((p, i) => [p.proposition, chosen!.values[i]])),
      outputs: Object.fromEntries(table.updates.map((u) => [u.proposition, chosen!.updates.includes(u.index)])),
    });
    assume = chosen.assume;
    guarantee = step1(guarantee, chosen.values, chosen.updates);
    if (guarantee === store.FALSE && result.assumptionBrokenAt === undefined) {
      result.violations.push({ step, state });
      break;
    }
  }
  return result;
}

const generatedDir = join(repoRoot, 'generated');
const modules = readdirSync(generatedDir).filter((f) => f.endsWith('.ts'));

describe.skipIf(modules.length === 0)('generated controllers keep their specs for 10,000 random steps', () => {
  for (const file of modules)
    it(`${file}`, async () => {
      const mod = (await import(pathToFileURL(join(generatedDir, file)).href)) as Record<string, unknown>;
      const table = Object.entries(mod).find(([k]) => k.endsWith('Table'))![1] as ControllerTable;
      const metadata = Object.entries(mod).find(([k]) => k.endsWith('Metadata'))![1] as ControllerMetadata;
      expect(metadata.verified).toBe(true);
      const files = metadata.specFile.split(' + ').map((f) => join(repoRoot, f));
      const specs = await Promise.all(files.map((f) => loadGame(f)));
      const spec = composeGames(table.name, specs);
      // The table speaks about exactly the spec's propositions.
      expect(new Set(table.predicates.map((p) => p.proposition))).toEqual(new Set(spec.inputs.map((p) => p.name)));
      expect(new Set(table.updates.map((u) => u.proposition))).toEqual(new Set(spec.outputs.map((p) => p.name)));
      const result = await drive(table, spec, STEPS, 0x5eed + file.length);
      expect(result.violations).toEqual([]);
      // Some answer always kept the assumptions, so the whole trace was checked.
      expect(result.assumptionBrokenAt).toBeUndefined();
      expect(replay(table, result.records).ok).toBe(true);
      // Second, independent judge: the model checker's automaton for the guarantees.
      expect(checkTraceAgainstSpec(guaranteesOnly(spec), result.steps).badPrefix).toBe(false);
    }, 120_000);
});

describe('the property check can fail', () => {
  it('reports a violation for a controller that breaks a safety guarantee', async () => {
    const specs = await Promise.all([join(repoRoot, 'specs', 'adventure.tsl')].map((f) => loadGame(f)));
    const spec = specs[0];
    const toCave = spec.outputs.findIndex((o) => o.update?.term.kind === 'call' && o.update.term.fn === 'toCave');
    expect(toCave).toBeGreaterThanOrEqual(0);
    // A one-state "controller" that asks for the cave every step: the player enters the cave
    // (assumption: X inCave) before the market and town, violating `!inCave W inMarket`.
    const bad: ControllerTable = {
      name: 'bad',
      signals: spec.tslSignals!,
      predicates: spec.inputs.map((p, index) => ({ index, proposition: p.name, fn: p.predicate?.fn ?? p.name, args: p.predicate?.args ?? [], text: p.term ?? p.name })),
      updates: spec.outputs.map((o, index) => ({ index, proposition: o.name, signal: o.update!.signal, term: o.update!.term, isSelfUpdate: o.update!.isSelfUpdate, text: o.term ?? o.name })),
      initialState: 0,
      states: [{ index: 0, decision: { kind: 'leaf', updates: [toCave], next: 0 } }],
    };
    const result = await drive(bad, spec, 200, 1);
    expect(result.violations.length + (result.assumptionBrokenAt === undefined ? 0 : 1)).toBeGreaterThan(0);
    expect(result.violations.length).toBe(1);
    expect(checkTraceAgainstSpec(guaranteesOnly(spec), result.steps).badPrefix).toBe(true);
  });
});
