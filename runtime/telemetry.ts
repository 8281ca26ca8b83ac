/**
 * runtime/telemetry — optional OpenTelemetry spans for controller steps and user calls.
 *
 * `@opentelemetry/api` is an optional peer dependency: it is imported dynamically, by a name the
 * type checker does not resolve, and only the few members used here are described structurally,
 * so the runtime neither requires the package nor its types.
 */

export interface SpanLike {
  setAttribute(key: string, value: string | number | boolean): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  recordException(exception: Error): unknown;
  end(): void;
}

export interface TracerLike {
  startSpan(name: string, options?: { attributes?: Record<string, string | number | boolean> }, context?: unknown): SpanLike;
}

/** The slice of `@opentelemetry/api` the runtime uses. */
interface OtelApi {
  trace: {
    getTracer(name: string, version?: string): TracerLike;
    setSpan(context: unknown, span: SpanLike): unknown;
  };
  context: { active(): unknown };
}

/** Span plumbing for one controller; every method is a no-op when telemetry is off. */
export interface Telemetry {
  startStep(attributes: Record<string, string | number | boolean>): SpanLike | undefined;
  startCall(parent: SpanLike | undefined, name: string, attributes: Record<string, string | number | boolean>): SpanLike | undefined;
}

export const SPAN_STATUS_ERROR = 2;

const noTelemetry: Telemetry = {
  startStep: () => undefined,
  startCall: () => undefined,
};

let otelApi: Promise<OtelApi | undefined> | undefined;

function loadOtelApi(): Promise<OtelApi | undefined> {
  // A variable module name keeps TypeScript (and bundlers) from requiring the package.
  const moduleName = '@opentelemetry/api';
  otelApi ??= import(moduleName).then(
    (mod: unknown) => {
      const api = ((mod as { default?: unknown }).default ?? mod) as Partial<OtelApi>;
      return api.trace && api.context ? (api as OtelApi) : undefined;
    },
    () => undefined,
  );
  return otelApi;
}

/**
 * `'auto'`: use `@opentelemetry/api` when it can be imported (spans are no-ops unless the app
 * registered an SDK); a tracer: use it; `false`: nothing. Returns a holder that switches from
 * no-op to real spans once the dynamic import settles, so creating a controller stays synchronous.
 */
export function createTelemetry(setting: boolean | 'auto' | TracerLike | undefined): { current: Telemetry } {
  const holder = { current: noTelemetry };
  if (setting === false) return holder;
  if (typeof setting === 'object') {
    holder.current = fromTracer(setting, undefined);
    return holder;
  }
  void loadOtelApi().then((api) => {
    if (api) holder.current = fromTracer(api.trace.getTracer('tslc-runtime'), api);
  });
  return holder;
}

function fromTracer(tracer: TracerLike, api: OtelApi | undefined): Telemetry {
  return {
    startStep: (attributes) => tracer.startSpan('tslc.controller.step', { attributes }),
    startCall: (parent, name, attributes) => {
      const context = api && parent ? api.trace.setSpan(api.context.active(), parent) : undefined;
      return tracer.startSpan(name, { attributes }, context);
    },
  };
}
