/**
 * Setting a V8 flag at run time without loading `node:v8`.
 *
 * `setFlagsFromString` has one public door, `node:v8`, and in Node 20 that module loads
 * `internal/heap_utils` and with it Node's whole stream stack (26 built-in modules): 1–2 ms of
 * every `tslc check`, which switches TurboFan off before it solves (isolated.ts). The same
 * function sits in the `v8` binding that `node:v8` wraps, still reachable in Node 20 as
 * `process.binding('v8')`, which costs 0.2 ms. That door is deprecated (DEP0111, printed once per
 * process): the warning is held back for this one synchronous call, since it would be about
 * tslc's internals, not the user's code. Wherever the binding is gone or has no such function (a
 * later Node), `node:v8` does the same job.
 */

type SetFlags = (flags: string) => void;

let setFlags: SetFlags | undefined;

/** `v8.setFlagsFromString(flags)`, preferably through the binding (see the module comment). */
export function setV8Flags(flags: string): void {
  setFlags ??= bindingSetFlags() ?? process.getBuiltinModule('node:v8').setFlagsFromString;
  setFlags(flags);
}

function bindingSetFlags(): SetFlags | undefined {
  const legacy = process as unknown as { binding?: (name: string) => unknown };
  if (typeof legacy.binding !== 'function') return undefined;
  const quiet = process.noDeprecation;
  process.noDeprecation = true;
  try {
    const binding = legacy.binding('v8') as { setFlagsFromString?: unknown } | undefined;
    const set = binding?.setFlagsFromString;
    return typeof set === 'function' ? (flags) => (set as SetFlags).call(binding, flags) : undefined;
  } catch {
    return undefined;
  } finally {
    process.noDeprecation = quiet;
  }
}
