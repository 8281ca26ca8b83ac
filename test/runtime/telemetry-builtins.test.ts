import { trace, type Tracer, type TracerProvider } from '@opentelemetry/api';
import { afterAll, describe, expect, it } from 'vitest';
import { builtinFunctions, createController, StepError, type ControllerTable } from '../../runtime/index.js';

const counter: ControllerTable = {
  name: 'counter',
  signals: [{ name: 'n', role: 'cell' }],
  predicates: [{ index: 0, proposition: 'big', fn: 'gt', args: [{ kind: 'signal', name: 'n' }, { kind: 'literal', value: 2 }], text: 'gt n 2' }],
  updates: [
    { index: 0, proposition: 'inc', signal: 'n', term: { kind: 'call', fn: 'add', args: [{ kind: 'signal', name: 'n' }, { kind: 'literal', value: 1 }] }, isSelfUpdate: false, text: '[n <- add n 1]' },
    { index: 1, proposition: 'half', signal: 'n', term: { kind: 'call', fn: 'div', args: [{ kind: 'signal', name: 'n' }, { kind: 'literal', value: 0 }] }, isSelfUpdate: false, text: '[n <- div n 0]' },
  ],
  initialState: 0,
  states: [{ index: 0, decision: { kind: 'test', predicate: 0, whenTrue: { kind: 'leaf', updates: [1], next: 0 }, whenFalse: { kind: 'leaf', updates: [0], next: 0 } } }],
};

describe('built-in functions', () => {
  it('compute arithmetic and comparisons and reject non-numbers', () => {
    expect(builtinFunctions.add(2, 3)).toBe(5);
    expect(builtinFunctions.sub('7', 2)).toBe(5);
    expect(builtinFunctions.lte(3, 3)).toBe(true);
    expect(builtinFunctions.eq('a', 'a')).toBe(true);
    expect(() => builtinFunctions.mul('x', 2)).toThrow(/not a number/);
  });

  it('drive a spec without user code, and a division by zero fails the step atomically', async () => {
    const c = createController<{ n: number }, object>({ table: counter, impl: {}, initialSignals: { n: 0 }, options: { telemetry: false } });
    for (let i = 0; i < 3; i++) await c.step();
    expect(c.signals.n).toBe(3);
    const error = (await c.step().catch((e: unknown) => e)) as StepError;
    expect(error).toBeInstanceOf(StepError);
    expect(error.call).toMatchObject({ kind: 'function', name: 'div' });
    expect(c.signals.n).toBe(3);
    expect(c.stepCount).toBe(3);
  });
});

describe('OpenTelemetry (auto)', () => {
  const names: string[] = [];
  const tracer = {
    startSpan: (name: string) => {
      names.push(name);
      return { setAttribute: () => undefined, setStatus: () => undefined, recordException: () => undefined, end: () => undefined };
    },
  } as unknown as Tracer;
  const provider = { getTracer: () => tracer } as unknown as TracerProvider;
  trace.setGlobalTracerProvider(provider);
  afterAll(() => trace.disable());

  it('uses @opentelemetry/api when present, once it has loaded', async () => {
    const c = createController<{ n: number }, object>({ table: counter, impl: {}, initialSignals: { n: 0 } });
    // The optional API is imported asynchronously; let that settle before stepping.
    await new Promise((r) => setTimeout(r, 50));
    await c.step();
    expect(names).toEqual(['tslc.controller.step', 'tslc.predicate', 'tslc.function']);
  });
});
