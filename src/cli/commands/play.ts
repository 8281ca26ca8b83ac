/**
 * `tslc play <spec…>`: play the game in the terminal. Unrealizable: you are the controller against
 * the environment's winning strategy on the core. Realizable: you are the environment against the
 * synthesized controller. Reads answers line by line (works with a pipe too).
 */
import { createInterface } from 'node:readline/promises';
import { UserError } from '../../diagnostics/diagnostic.js';
import { explainUnrealizable } from '../../explain/explain.js';
import { playAsController, playAsEnvironment, type PlayIO } from '../../explain/play.js';
import { loadSpecs } from '../../report/build.js';
import { theoryOption } from '../../frontend/load.js';
import { synthesize } from '../../synthesis/index.js';
import { ExitCode } from '../exit-codes.js';
import { importRootArg, refuseStdin } from '../io.js';

export async function run(args: Record<string, unknown>): Promise<number> {
  const files = (Array.isArray(args.files) ? args.files : [args.files]).filter((f): f is string => typeof f === 'string');
  if (files.length === 0) throw new UserError({ severity: 'error', message: 'name at least one spec file', code: 'usage' });
  for (const f of files) refuseStdin(f, 'tslc play reads your moves from standard input; save the spec to a file');
  const seconds = Number(args.timeout ?? 60);
  const steps = Number(args.steps ?? 50);
  const spec = await loadSpecs(files, { importRoot: importRootArg(args), theory: theoryOption(args.theory) });
  const result = synthesize(spec, { timeoutMs: seconds * 1000 });
  if (result.verdict === 'unknown') {
    process.stdout.write(`${spec.name}: unknown (${result.reason}); nothing to play\n`);
    return ExitCode.unknown;
  }
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: Boolean(process.stdin.isTTY) });
  const lines = rl[Symbol.asyncIterator]();
  const io: PlayIO = {
    ask: async (prompt) => {
      process.stdout.write(prompt);
      const next = await lines.next();
      if (!process.stdin.isTTY && !next.done) process.stdout.write(`${next.value}\n`);
      return next.done ? undefined : next.value;
    },
    print: (text) => process.stdout.write(text + '\n'),
  };
  try {
    if (result.verdict === 'realizable') {
      await playAsEnvironment(spec, result.controller, io, steps);
      return ExitCode.ok;
    }
    const explained = explainUnrealizable(spec, { knownUnrealizable: true, budgetMs: seconds * 1000 });
    const cs = explained.verdict === 'unrealizable' && explained.counterstrategy ? explained.counterstrategy : result.counterstrategy;
    const game = explained.verdict === 'unrealizable' && explained.counterstrategy ? explained.core.coreSpec : spec;
    await playAsController(game, cs, io, steps);
    return ExitCode.failure;
  } finally {
    rl.close();
  }
}
