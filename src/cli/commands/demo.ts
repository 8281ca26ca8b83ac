/**
 * `tslc demo` (what `npm start` runs): compile and check the adventure specs, then play a short
 * choose-your-own-adventure game on the simulated model (or `TSLC_MODEL`). The agent lives in
 * examples/cyoa/; it is imported only when this command runs, so other commands stay light.
 */
import { maxTokensFromEnv } from '../../../runtime/llm/max-tokens.js';
import { UserError } from '../../diagnostics/diagnostic.js';
import { ExitCode } from '../exit-codes.js';

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
  const { runDemo, DemoConfigError } = await import('../../../examples/cyoa/demo.js');
  try {
    return await runDemo(options, { input: process.stdin, output: process.stdout });
  } catch (err) {
    if (err instanceof DemoConfigError) {
      process.stderr.write(`tslc demo: error: ${err.message}\n`);
      return ExitCode.inputError;
    }
    throw err;
  }
}
