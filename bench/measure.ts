/**
 * Measuring tools for the benchmark sections: one command per process, timed around the spawn
 * (wall) and, where `/usr/bin/time` is installed, its CPU seconds (user + system of the process
 * and its children), which a loaded machine disturbs much less than wall time.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
let scratch: string | undefined;
let serial = 0;

/**
 * Runs `command args…` in a process group of its own; after `limitS` seconds the whole group is
 * killed (so a tool's children go too). Wall time is measured here, around the spawn.
 */
export async function runTimed(command: string, args: readonly string[], limitS: number, options: { cpu?: boolean } = {}): Promise<Timed> {
  const useTime = options.cpu !== false && existsSync(GNU_TIME);
  scratch ??= mkdtempSync(join(tmpdir(), 'tslc-bench-'));
  const timeFile = join(scratch, `time-${process.pid}-${serial++}`);
  const argv = useTime ? ['-f', '%U %S', '-o', timeFile, command, ...args] : [...args];
  const started = performance.now();
  const child = spawn(useTime ? GNU_TIME : command, argv, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
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
export async function nodeStartup(runs = 15): Promise<number> {
  const walls: number[] = [];
  for (let i = 0; i < runs; i++) walls.push((await runTimed(process.execPath, ['-e', '0'], 30, { cpu: false })).wall);
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
