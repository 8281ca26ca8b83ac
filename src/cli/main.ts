/**
 * src/cli — the `tslc` command line. Owns argument parsing, exit codes and turning errors into
 * diagnostics. Each command lives in `commands/<name>.ts` and is imported only when invoked, so
 * `tslc check` never loads ts-morph, execa or LLM providers.
 */
import yargs from 'yargs';
import { UserError } from '../diagnostics/diagnostic.js';
import { ExitCode } from './exit-codes.js';
import { diagnosticsToJson, renderDiagnostics } from './io.js';
import { commands } from './commands/index.js';


export async function main(argv: readonly string[]): Promise<void> {
  let wantsJson = argv.includes('--json');
  const parser = yargs([...argv])
    .scriptName('tslc')
    .usage(
      'tslc — Temporal Stream Logic toolchain: check realizability, synthesize controllers, emit TypeScript.\n\nUsage: $0 <command> [options]',
    )
    .strict()
    .demandCommand(1, 'Name a command; `tslc --help` lists them.')
    .recommendCommands()
    .help()
    .alias('h', 'help')
    .version(false)
    .wrap(Math.min(110, process.stdout.columns ?? 100))
    .epilogue(
      'Exit codes: 0 ok · 1 unrealizable / stale / violation · 2 input error · 3 unknown (timeout) · 70 internal error.',
    )
    .fail((msg, err) => {
      if (err) throw err;
      throw new UserError({ severity: 'error', message: msg, code: 'usage' });
    });
  for (const spec of commands) {
    parser.command(spec.command, spec.describe, spec.builder, async (args) => {
      wantsJson = Boolean(args.json);
      const impl = await spec.load();
      process.exitCode = await impl.run(args as Record<string, unknown>);
    });
  }
  try {
    await parser.parseAsync();
  } catch (err) {
    process.exitCode = reportError(err, wantsJson);
  }
}

function reportError(err: unknown, json: boolean): number {
  if (err instanceof UserError) {
    if (json) process.stdout.write(JSON.stringify({ errors: diagnosticsToJson(err.diagnostics) }) + '\n');
    else process.stderr.write(renderDiagnostics(err.diagnostics) + '\n');
    return ExitCode.inputError;
  }
  const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
  process.stderr.write(`tslc: internal error (please report this with the input that caused it):\n${message}\n`);
  return ExitCode.internal;
}
