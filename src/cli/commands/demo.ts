/**
 * `tslc demo` (what `npm start` runs): compile and check the adventure specs, then play a short
 * choose-your-own-adventure game on the simulated model (or `TSLC_MODEL`). The agent lives in
 * examples/cyoa/ and the specs in specs/, which a checkout of the repository has and the npm
 * package does not ship: this command checks its flags, then runs the checkout's demo script
 * (examples/cyoa/main.ts, compiled) as a child process with the terminal handed over — or says
 * plainly that the demo runs from a checkout. Product code never imports the examples.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { maxTokensFromEnv } from '../../../runtime/llm/max-tokens.js';
import { UserError } from '../../diagnostics/diagnostic.js';

const TASKS = ['adventure', 'forest', 'choices', 'all'] as const;

function positiveInt(value: unknown, flag: string, min: number): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < min) throw new UserError({ severity: 'error', message: `${flag} expects an integer ≥ ${min}`, code: 'usage' });
  return n;
}

/** `TSLC_MAX_TOKENS`, a bad value being a usage error like a bad flag. */
function envMaxTokens(): ReturnType<typeof maxTokensFromEnv> {
  try {
    return maxTokensFromEnv(process.env);
  } catch (err) {
    throw new UserError({ severity: 'error', message: (err as Error).message, code: 'usage' });
  }
}

/** The directory of tslc's own package.json above this module (the checkout, or the installed package). */
function packageRoot(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'package.json');
    try {
      if (existsSync(candidate) && (JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string }).name === 'tslc') return dir;
    } catch {
      // Not ours; keep looking upwards.
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** The compiled demo script of a checkout, or a clear error saying where the demo runs. */
function demoScript(): string {
  const root = packageRoot();
  const script = root && join(root, 'dist/examples/cyoa/main.js');
  if (root && script && existsSync(script) && existsSync(join(root, 'specs/adventure.tsl'))) return script;
  const checkout = root !== undefined && existsSync(join(root, 'examples/cyoa/main.ts'));
  throw new UserError({
    severity: 'error',
    message: checkout
      ? 'the demo is not built yet'
      : 'tslc demo runs from a checkout of the tslc repository: it plays the adventure agent of examples/ on the specs in specs/, which the package does not ship',
    code: 'demo',
    hint: checkout ? 'run `npm run build` (or `npm ci`) first' : 'clone the repository, then `npm ci && npm start` there',
  });
}

export async function run(args: Record<string, unknown>): Promise<number> {
  const task = String(args.task ?? 'forest');
  if (!(TASKS as readonly string[]).includes(task))
    throw new UserError({ severity: 'error', message: `unknown task '${task}'; expected one of ${TASKS.join(', ')}`, code: 'usage' });
  const options = {
    task: task as (typeof TASKS)[number],
    steps: positiveInt(args.steps ?? 8, '--steps', 1),
    seed: positiveInt(args.seed ?? 1, '--seed', 0),
    repair: positiveInt(args.repair ?? 2, '--repair', 0),
    interactive: Boolean(args.interactive),
    skipCompile: args.compile === false,
    model: typeof args.model === 'string' && args.model !== '' ? args.model : process.env.TSLC_MODEL?.trim() || undefined,
    maxTokens: envMaxTokens(),
  };
  const script = demoScript();
  // The child has the terminal (an interactive game reads it); its exit code is the demo's.
  const child = spawn(process.execPath, [script, JSON.stringify(options)], { stdio: 'inherit' });
  return new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0)));
  });
}
