/**
 * The monotonic clock every time limit and duration in src/ reads: milliseconds since the
 * process started, for deadlines (`nowMs() + timeoutMs`) and elapsed times. One clock for all,
 * since deadlines pass from module to module (front end, translation, solver).
 *
 * Not `performance.now()`: in Node the `performance` global loads perf_hooks and ten more built-in
 * modules on first use, about 1 ms of every `tslc check` (more once the check has switched TurboFan
 * off, when built-ins compile without their code cache). `process.uptime()` reads the same
 * monotonic clock without loading anything, from nearly the same origin (Node's start rather than
 * its environment's: they differ by a millisecond or two), so a deadline a caller computed from
 * `performance.now()` still means about what it meant. Where there is no `process` (a browser
 * bundle of the library), `performance.now()` serves.
 */
const hasUptime = typeof process === 'object' && typeof process?.uptime === 'function';

/** Milliseconds on a monotonic clock, counted from about the process's start. */
// `process.uptime` is looked up at each call, so a test can move the clock (vi.spyOn).
export const nowMs: () => number = hasUptime ? () => process.uptime() * 1e3 : () => performance.now();
