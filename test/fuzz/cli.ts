/**
 * The real CLI as a child process, for a smaller share of the inputs: `node
 * --max-old-space-size=… bin/tslc.js …` with a hard timeout, and its resident memory polled (on
 * Linux) so that unbounded growth is caught before it hurts the machine. Oracle: exit 0–3, no
 * "internal error", no stack trace, no signal, within time and memory; an exit-2 run prints a
 * diagnostic (`error: `) on stderr.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Result } from './oracle.js';

export const ROOT = join(import.meta.dirname, '../..');
export const BIN = join(ROOT, 'bin/tslc.js');
export const CLI_BUILT = existsSync(join(ROOT, 'dist/src/cli/main.js'));

export interface CliLimits {
  readonly timeoutMs: number;
  readonly heapMb: number;
  /** Resident memory past which the child is killed and the input reported. */
  readonly rssMb: number;
}

export interface CliRun {
  readonly argv: readonly string[];
  /** Written to the child's stdin (then closed); otherwise stdin is empty. */
  readonly stdin?: Buffer | string;
  /** `--json` was given: errors come as `{"errors": […]}` on stdout, not on stderr. */
  readonly json?: boolean;
  /**
   * The input is one text (a spec file, a formula): an error about it must be located,
   * `file:line:col: error: …`, with the source line and a caret under the column.
   */
  readonly located?: boolean;
}

/** Why exit-2 output is not a located diagnostic with a caret, or undefined. */
export function caretProblem(stderr: string): string | undefined {
  const lines = stderr.split('\n');
  const at = lines.findIndex((l) => /(^|: )error: /.test(l));
  if (at < 0) return 'no error line';
  const m = /^(.+?):(\d+):(\d+): error: /.exec(lines[at]);
  if (!m) return `error not located (file:line:col): ${lines[at].slice(0, 200)}`;
  const caret = lines[at + 2];
  if (lines[at + 1] === undefined || !lines[at + 1].startsWith('  ') || caret === undefined || !/^ {2} *\^+$/.test(caret)) return `no source line and caret under: ${lines[at].slice(0, 200)}`;
  const col = Number(m[3]);
  if (caret.indexOf('^') !== col + 1) return `caret at column ${caret.indexOf('^') - 1}, error says ${col}: ${lines[at].slice(0, 200)}`;
  return undefined;
}

/** Why `--json` exit-2 output is not `{"errors": [{message, …}]}`, or undefined. */
function jsonErrorProblem(stdout: string): string | undefined {
  try {
    const v = JSON.parse(stdout) as { errors?: { message?: unknown }[] };
    if (!Array.isArray(v.errors) || v.errors.length === 0) return 'exit 2 with --json but no "errors" array on stdout';
    if (v.errors.some((e) => typeof e.message !== 'string' || e.message === '')) return 'a JSON error without a message';
    return undefined;
  } catch {
    return `exit 2 with --json but stdout is not JSON: ${stdout.slice(0, 200)}`;
  }
}

function rssMb(pid: number): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

export function runCli(run: CliRun, limits: CliLimits): Promise<Result & { code: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [`--max-old-space-size=${limits.heapMb}`, BIN, ...run.argv], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    let stdoutBytes = 0;
    let stdout = '';
    let killedFor: string | undefined;
    let peak = 0;
    child.stdout.on('data', (b: Buffer) => {
      stdoutBytes += b.length;
      if (stdout.length < 64_000) stdout += b.toString('utf8');
    });
    child.stderr.on('data', (b: Buffer) => {
      if (stderr.length < 64_000) stderr += b.toString('utf8');
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(run.stdin ?? '');
    const kill = (why: string) => {
      killedFor ??= why;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => kill(`still running after ${limits.timeoutMs} ms`), limits.timeoutMs);
    const watch = setInterval(() => {
      const rss = child.pid !== undefined ? rssMb(child.pid) : undefined;
      if (rss !== undefined) peak = Math.max(peak, rss);
      if (rss !== undefined && rss > limits.rssMb) kill(`resident memory ${Math.round(rss)} MB > ${limits.rssMb} MB`);
    }, 100);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      clearInterval(watch);
      const base = { code, stderr, stdout };
      const tail = `\n--- stderr ---\n${stderr.slice(0, 1500)}`;
      if (killedFor) return resolve({ ...base, outcome: 'hang', detail: `tslc ${run.argv[0]}: ${killedFor} (peak ${Math.round(peak)} MB)${tail}` });
      if (signal || code === null) return resolve({ ...base, outcome: 'internal', detail: `tslc ${run.argv[0]}: killed by ${signal ?? 'unknown'}${tail}` });
      if (/heap out of memory|Allocation failed/.test(stderr)) return resolve({ ...base, outcome: 'hang', detail: `tslc ${run.argv[0]}: out of memory (exit ${code})${tail}` });
      if (code === 70 || /internal error|\n\s+at \S+ \(|RangeError|TypeError:/.test(stderr))
        return resolve({ ...base, outcome: 'internal', detail: `tslc ${run.argv[0]}: exit ${code}${tail}` });
      if (code === 2) {
        if (run.json) {
          const problem = jsonErrorProblem(stdout);
          if (problem) return resolve({ ...base, outcome: 'internal', detail: `tslc ${run.argv[0]}: ${problem}${tail}` });
          return resolve({ ...base, outcome: 'error' });
        }
        if (!/error: /.test(stderr)) return resolve({ ...base, outcome: 'internal', detail: `tslc ${run.argv[0]}: exit 2 without a diagnostic${tail}` });
        const problem = run.located ? caretProblem(stderr) : undefined;
        if (problem) return resolve({ ...base, outcome: 'internal', detail: `tslc ${run.argv[0]}: ${problem}${tail}` });
        return resolve({ ...base, outcome: 'error' });
      }
      if (code === 3) return resolve({ ...base, outcome: 'timeout' });
      if (code === 0 || code === 1) return resolve({ ...base, outcome: 'ok', detail: `stdout ${stdoutBytes} bytes` });
      return resolve({ ...base, outcome: 'internal', detail: `tslc ${run.argv[0]}: unexpected exit ${code}${tail}` });
    });
  });
}

/** Runs `jobs` with at most `parallel` children at a time, in order of completion. */
export async function runPool<T>(jobs: readonly (() => Promise<T>)[], parallel: number): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, jobs.length) }, worker));
  return results;
}
