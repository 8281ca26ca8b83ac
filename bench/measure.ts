/**
 * Measuring tools for the benchmark sections: one command per process, timed around the spawn
 * (wall) and, where `/usr/bin/time` is installed, its CPU seconds (user + system of the process
 * and its children), which a loaded machine disturbs much less than wall time.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mulberry32 } from '../runtime/random.js';

export interface Timed {
  readonly stdout: string;
  readonly stderr: string;
  /** Exit code; null when killed (time limit). */
  readonly code: number | null;
  readonly wall: number;
  /** User + system CPU seconds, when `/usr/bin/time` could measure them. */
  readonly cpu?: number;
  /** Killed at the time limit. */
  readonly killed: boolean;
}

const GNU_TIME = '/usr/bin/time';

/**
 * Variables that make every Node process slower to start, before any script runs, and that no
 * command timed here needs. NODE_EXTRA_CA_CERTS makes Node read that certificate file and build
 * its whole root store at start-up (Node 20 does it eagerly): on a machine whose proxy set-up
 * points it at the system's bundle (144 certificates, 220 KB), `node -e 0` took 93–96 ms with
 * it and 36–38 ms without. None of tslc check, `node -e 0` or ltlsynt opens a connection,
 * and ltlsynt, a native program, never pays it: left in, it charges tslc for the machine's
 * set-up rather than for its work. So the timed commands run without it, unless a section is
 * given `--inherit-env`, and every report says which variables were removed and what they cost
 * in the same run (`environmentNote`).
 */
export const START_UP_VARIABLES: readonly string[] = ['NODE_EXTRA_CA_CERTS'];

/** The bench option that keeps START_UP_VARIABLES in the timed commands' environment. */
export const INHERIT_ENV_OPTION = {
  name: 'inherit-env',
  kind: 'flag',
  describe: 'time commands in this environment as it is (default: without NODE_EXTRA_CA_CERTS, which slows every Node start)',
} as const;

/** The environment the timed commands get: this process's, minus what `useTimedEnvironment` removed. */
let timedEnv: NodeJS.ProcessEnv = process.env;
let removedVariables: readonly string[] = [];

/**
 * Chooses the timed commands' environment from a section's arguments (see START_UP_VARIABLES).
 * Returns the names of the variables removed (set here, and not kept by `--inherit-env`).
 */
export function useTimedEnvironment(args: readonly string[]): readonly string[] {
  const inherit = args.includes(`--${INHERIT_ENV_OPTION.name}`);
  removedVariables = inherit ? [] : START_UP_VARIABLES.filter((name) => process.env[name] !== undefined);
  timedEnv = envWithout(removedVariables);
  return removedVariables;
}

/** The environment the timed commands run in (for a section that spawns one itself). */
export function timedEnvironment(): NodeJS.ProcessEnv {
  return timedEnv;
}

/**
 * A report line on the environment: which start-up variables were removed (or kept) and what
 * `node -e 0` took with and without them in this run, so a reader can put the numbers back.
 */
export async function environmentNote(runs = 15): Promise<string> {
  const present = START_UP_VARIABLES.filter((name) => process.env[name] !== undefined);
  if (present.length === 0) return `- Environment: none of ${START_UP_VARIABLES.map((n) => `\`${n}\``).join(', ')} is set here; the timed commands inherit it as it is.`;
  const names = present.map((n) => `\`${n}\``).join(', ');
  const without = await nodeStartup(runs, envWithout(present));
  const withThem = await nodeStartup(runs, process.env);
  const cost = `\`node -e 0\` took a median ${(withThem * 1000).toFixed(0)} ms with it and ${(without * 1000).toFixed(0)} ms without (${runs} spawns each, in this run)`;
  return removedVariables.length > 0
    ? `- Environment: ${names} is set on this machine and was removed from every timed command (tslc, ltlsynt and \`node -e 0\` alike; \`--inherit-env\` keeps it): it makes Node read a certificate file at every start, before any script runs, and nothing timed here opens a connection. ${cost}.`
    : `- Environment: ${names} is set on this machine and was kept (\`--inherit-env\`): every Node start, tslc's and \`node -e 0\`'s, pays for it. ${cost}.`;
}

function envWithout(names: readonly string[]): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of names) delete env[name];
  return env;
}
let scratch: string | undefined;
let serial = 0;

/**
 * Runs `command args…` in a process group of its own; after `limitS` seconds the whole group is
 * killed (so a tool's children go too). Wall time is measured here, around the spawn.
 */
export async function runTimed(command: string, args: readonly string[], limitS: number, options: { cpu?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<Timed> {
  const useTime = options.cpu !== false && existsSync(GNU_TIME);
  scratch ??= mkdtempSync(join(tmpdir(), 'tslc-bench-'));
  const timeFile = join(scratch, `time-${process.pid}-${serial++}`);
  const argv = useTime ? ['-f', '%U %S', '-o', timeFile, command, ...args] : [...args];
  const started = performance.now();
  const child = spawn(useTime ? GNU_TIME : command, argv, { stdio: ['ignore', 'pipe', 'pipe'], detached: true, env: options.env ?? timedEnv });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  let killed = false;
  const guard = setTimeout(() => {
    killed = true;
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }, limitS * 1000);
  const code = await new Promise<number | null>((done) => {
    child.on('close', (c) => done(c));
    child.on('error', () => done(null));
  });
  clearTimeout(guard);
  const wall = (performance.now() - started) / 1000;
  let cpu: number | undefined;
  if (useTime && existsSync(timeFile)) {
    // GNU time prints "Command exited with non-zero status N" before the format line.
    const last = readFileSync(timeFile, 'utf8').trim().split('\n').pop() ?? '';
    const [user, system] = last.split(' ').map(Number);
    if (Number.isFinite(user) && Number.isFinite(system)) cpu = user + system;
    rmSync(timeFile, { force: true });
  }
  return { stdout, stderr, code, wall, cpu: killed ? undefined : cpu, killed };
}

/** Median wall seconds of `node -e 0`, spawned with piped output like a tslc run. */
export async function nodeStartup(runs = 15, env?: NodeJS.ProcessEnv): Promise<number> {
  const walls: number[] = [];
  for (let i = 0; i < runs; i++) walls.push((await runTimed(process.execPath, ['-e', '0'], 30, { cpu: false, env })).wall);
  return median(walls);
}

/** Runs `task(i)` for i = 0 … count−1, at most `jobs` at a time, each i once. */
export async function forEachWithJobs(count: number, jobs: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: jobs }, worker));
}

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** `--name value` from the section's arguments. */
export function option(args: readonly string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

/** A small seeded generator (mulberry32), so `--sample N --seed S` picks the same specs every time. */
export function seededRandom(seed: number): () => number {
  return mulberry32(seed);
}

/** The checkout's root: above dist/bench/ when compiled, above bench/ when run from sources (tests). */
const benchDir = dirname(fileURLToPath(import.meta.url));
const checkoutRoot = basename(dirname(benchDir)) === 'dist' ? join(benchDir, '../..') : join(benchDir, '..');

/**
 * A path as the result files show it: relative to the checkout (`../shared/corpus`), so a table
 * says where its inputs were without naming this machine's folders.
 */
export function shownPath(path: string): string {
  return isAbsolute(path) ? relative(checkoutRoot, path) || '.' : path;
}

/** The command line that produced a table, with absolute paths shown relative to the checkout. */
export function shownCommand(args: readonly string[]): string {
  return `npm run bench -- ${args.map((a) => (isAbsolute(a) ? shownPath(a) : a)).join(' ')}`.trim();
}
