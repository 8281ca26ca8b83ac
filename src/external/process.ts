/**
 * Running an external synthesizer as a child process: its own process group, so a timeout or a
 * cancellation kills the whole tree (ltlsynt may start syfco; wrapper scripts start the real tool),
 * never only the wrapper. Outcomes are data; nothing here throws for a misbehaving tool.
 */
import { execa } from 'execa';
import { nowMs } from '../diagnostics/clock.js';

export type ProcessOutcome =
  | { readonly kind: 'exited'; readonly exitCode: number; readonly stdout: string; readonly stderr: string; readonly timeMs: number }
  /** Killed by a signal we did not send (crash, OOM killer). */
  | { readonly kind: 'signalled'; readonly signal: string; readonly stdout: string; readonly stderr: string; readonly timeMs: number }
  | { readonly kind: 'timeout'; readonly timeMs: number }
  | { readonly kind: 'cancelled'; readonly timeMs: number }
  /** Could not start: missing file, not executable, … */
  | { readonly kind: 'spawn-error'; readonly code: string; readonly message: string; readonly timeMs: number };

export interface RunProcessOptions {
  readonly timeoutMs: number;
  /** Aborting kills the process tree (e.g. `auto` mode once another back end has answered). */
  readonly signal?: AbortSignal;
  /** Grace period between SIGTERM and SIGKILL. */
  readonly killGraceMs?: number;
}

/** Process groups still running, killed if tslc itself exits first. */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const pid of liveGroups) killGroup(pid, 'SIGKILL');
  });
}

export async function runProcess(file: string, args: readonly string[], options: RunProcessOptions): Promise<ProcessOutcome> {
  const started = nowMs();
  const elapsed = () => Math.round(nowMs() - started);
  if (options.signal?.aborted) return { kind: 'cancelled', timeMs: 0 };
  installExitHook();
  const child = execa(file, [...args], {
    detached: true,
    reject: false,
    stdin: 'ignore',
    stripFinalNewline: false,
    maxBuffer: 512 * 1024 * 1024,
    // We kill the group ourselves; execa's own cleanup only knows the direct child.
    cleanup: false,
  });
  const pid = child.pid;
  let stoppedBy: 'timeout' | 'cancelled' | undefined;
  const timers: NodeJS.Timeout[] = [];
  const stop = (why: 'timeout' | 'cancelled') => {
    if (stoppedBy || pid === undefined) return;
    stoppedBy = why;
    killGroup(pid, 'SIGTERM');
    timers.push(setTimeout(() => killGroup(pid, 'SIGKILL'), options.killGraceMs ?? 300));
  };
  if (pid !== undefined) liveGroups.add(pid);
  timers.push(setTimeout(() => stop('timeout'), options.timeoutMs));
  const onAbort = () => stop('cancelled');
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const result = await child;
  for (const t of timers) clearTimeout(t);
  options.signal?.removeEventListener('abort', onAbort);
  if (pid !== undefined) {
    // The leader has exited; anything it left behind in its group goes too.
    killGroup(pid, 'SIGKILL');
    liveGroups.delete(pid);
  }
  const timeMs = elapsed();
  if (stoppedBy) return { kind: stoppedBy, timeMs };
  const stdout = typeof result.stdout === 'string' ? result.stdout : '';
  const stderr = typeof result.stderr === 'string' ? result.stderr : '';
  if (result.exitCode === undefined && result.signal === undefined) {
    const code = (result as { code?: string }).code ?? 'ESPAWN';
    return { kind: 'spawn-error', code, message: result.originalMessage ?? result.shortMessage ?? String(result.message), timeMs };
  }
  if (result.signal !== undefined && result.exitCode === undefined)
    return { kind: 'signalled', signal: result.signal, stdout, stderr, timeMs };
  return { kind: 'exited', exitCode: result.exitCode ?? 0, stdout, stderr, timeMs };
}
