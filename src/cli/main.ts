/**
 * src/cli — the `tslc` command line. Owns argument parsing, exit codes and turning errors into
 * diagnostics. Each command lives in `commands/<name>.ts` and is imported only when invoked, so
 * `tslc check` never loads ts-morph, execa or LLM providers. A plain `tslc check …` does not load
 * yargs either (60–110 ms): its options are a table that fast-args.ts parses; help, errors and
 * anything unusual take the yargs path, which owns every message.
 */
import { readFileSync } from 'node:fs';
import { UserError } from '../diagnostics/diagnostic.js';
import { ExitCode } from './exit-codes.js';
import { reportError } from './errors.js';
import { commands } from './commands/index.js';
import { parseFast } from './fast-args.js';
import { markStdinArguments } from './io.js';


export async function main(rawArgv: readonly string[]): Promise<void> {
  const argv = markStdinArguments(rawArgv);
  if (await runFast(argv)) return;
  let wantsJson = argv.includes('--json');
  const { default: yargs } = await import('yargs');
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
    .version('version', 'Show the tslc version', packageVersion())
    .wrap(Math.min(110, process.stdout.columns ?? 100))
    .epilogue(
      'Exit codes: 0 ok · 1 unrealizable / stale / violation · 2 input error · 3 unknown (timeout) · 70 internal error.',
    )
    .fail((msg, err) => {
      if (err) throw err;
      throw new UserError({ severity: 'error', message: usageMessage(msg, argv), code: 'usage' });
    });
  for (const spec of commands) {
    parser.command(spec.command, spec.describe, spec.builder, async (args) => {
      wantsJson = Boolean(args.json);
      const impl = await spec.load();
      process.exitCode = await impl.run(args as Record<string, unknown>);
    });
  }
  if (argv.length === 0) {
    // No command: show what there is to run (on stderr: stdout stays clean for pipes) and fail,
    // so a CI step that lost its arguments does not pass silently.
    process.stderr.write((await parser.getHelp()) + '\n');
    process.exitCode = ExitCode.inputError;
    return;
  }
  try {
    await parser.parseAsync();
  } catch (err) {
    process.exitCode = reportError(err, wantsJson);
  }
}

/**
 * Runs a command whose options are declared as data without yargs, when its arguments are plain;
 * false (nothing done) when yargs must parse them. Errors are reported as on the yargs path.
 */
async function runFast(argv: readonly string[]): Promise<boolean> {
  const spec = commands.find((c) => c.options !== undefined && commandName(c.command) === argv[0]);
  if (spec?.options === undefined || argv.some((a) => a === '--help' || a === '-h' || a === '--version')) return false;
  const args = parseFast(argv[0], argv.slice(1), spec.options);
  if (args === undefined) return false;
  try {
    const impl = await spec.load();
    process.exitCode = await impl.run(args);
  } catch (err) {
    process.exitCode = reportError(err, Boolean(args.json));
  }
  return true;
}

/** The version in tslc's package.json (found upwards from this module: dist/src/cli or src/cli). */
function packageVersion(): string {
  for (const up of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(up, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'tslc' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // Not at this depth; try the next.
    }
  }
  return 'unknown';
}

/** A yargs validation message as one line that says which command it is about and where help is. */
function usageMessage(msg: string, argv: readonly string[]): string {
  const first = argv.find((a) => !a.startsWith('-'));
  const known = first !== undefined && commands.some((c) => commandName(c.command) === first);
  let oneLine = msg.replace(/\s*\n\s*/g, ' ').trim();
  const unknown = /^Unknown arguments?: (.*)$/.exec(oneLine);
  if (unknown) {
    // yargs lists each unknown flag also in camelCase and without its `no-` prefix; name the
    // flags as the user typed them.
    const typed = argv.filter((a) => a.startsWith('-')).map((a) => a.split('=')[0]);
    const listed = unknown[1].split(', ');
    const named = typed.filter((t) => listed.some((n) => [`--${n}`, `--no-${n}`, `-${n}`].includes(t)));
    if (named.length > 0) oneLine = `unknown option${named.length > 1 ? 's' : ''} ${named.join(', ')}`;
  }
  if (!known && first !== undefined && argv[0] === first) {
    const hint = /^Did you mean (\S+)\?/.exec(oneLine);
    return `unknown command '${first}'${hint ? ` (did you mean '${hint[1]}'?)` : ''}; \`tslc --help\` lists the commands`;
  }
  if (oneLine.includes('--help')) return oneLine;
  return known ? `${oneLine} (see \`tslc ${first} --help\`)` : `${oneLine} (see \`tslc --help\`)`;
}

function commandName(command: string | readonly string[]): string {
  const first = typeof command === 'string' ? command : (command[0] ?? '');
  return first.split(' ')[0];
}
