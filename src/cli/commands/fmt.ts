/**
 * `tslc fmt <files…>`: print a file in canonical form (see src/tsl/format.ts). `--write` rewrites
 * the files, `--check` only reports which are not formatted yet (exit 1 if any). Several files
 * need `--write` or `--check`; a file that does not parse is reported (exit 2) and the others
 * are still formatted or checked.
 */
import { writeFileSync } from 'node:fs';
import { type Diagnostic, UserError } from '../../diagnostics/diagnostic.js';
import { writeOut } from '../tsl-support.js';
import { formatTsl } from '../../tsl/format.js';
import { parseTsl } from '../../tsl/parse.js';
import { ExitCode } from '../exit-codes.js';
import { readUserFile, refuseStdin } from '../io.js';

export async function run(args: Record<string, unknown>): Promise<number> {
  const files = (Array.isArray(args.files) ? args.files : [args.files]).filter((f) => f !== undefined).map(String);
  if (files.length === 0) throw new UserError({ severity: 'error', message: 'name a .tsl file', code: 'usage' });
  if (files.length > 1 && !args.write && !args.check)
    throw new UserError({ severity: 'error', message: 'several files need --write or --check (without them, fmt prints one file)', code: 'usage' });
  if (args.write) for (const file of files) refuseStdin(file, '--write rewrites a file in place');
  const style = args.style === 'call' ? 'call' : 'curried';
  const errors: Diagnostic[] = [];
  let unformatted = 0;
  for (const file of files) {
    let text: string;
    let formatted: string;
    try {
      text = readUserFile(file);
      formatted = formatTsl(parseTsl(file, text), { style, source: text });
    } catch (err) {
      if (!(err instanceof UserError)) throw err;
      errors.push(...err.diagnostics);
      continue;
    }
    if (args.check) {
      if (formatted === text) continue;
      unformatted++;
      process.stderr.write(`${file}: not formatted (run tslc fmt --write${style === 'call' ? ' --style call' : ''} ${file})\n`);
    } else if (args.write) {
      if (formatted !== text) writeFileSync(file, formatted);
    } else writeOut(formatted.replace(/\n$/, ''));
  }
  if (errors.length > 0) throw new UserError(errors);
  return unformatted > 0 ? ExitCode.failure : ExitCode.ok;
}
