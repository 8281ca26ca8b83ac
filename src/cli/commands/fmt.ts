/**
 * `tslc fmt <file>`: print the file in canonical form (see src/tsl/format.ts). `--write` rewrites
 * the file, `--check` only reports whether it is already formatted (exit 1 if not).
 */
import { writeFileSync } from 'node:fs';
import { readTslFile, writeOut } from '../tsl-support.js';
import { formatTsl } from '../../tsl/format.js';
import { parseTsl } from '../../tsl/parse.js';
import { ExitCode } from '../exit-codes.js';
import { refuseStdin } from '../io.js';

export async function run(args: Record<string, unknown>): Promise<number> {
  if (args.write) refuseStdin(String(args.file), '--write rewrites a file in place');
  const { file, text } = readTslFile(args);
  const style = args.style === 'call' ? 'call' : 'curried';
  const formatted = formatTsl(parseTsl(file, text), { style, source: text });
  if (args.check) {
    if (formatted === text) return ExitCode.ok;
    process.stderr.write(`${file}: not formatted (run tslc fmt --write ${file})\n`);
    return ExitCode.failure;
  }
  if (args.write) {
    if (formatted !== text) writeFileSync(file, formatted);
    return ExitCode.ok;
  }
  writeOut(formatted.replace(/\n$/, ''));
  return ExitCode.ok;
}
