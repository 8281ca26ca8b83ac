/**
 * `tslc tlsf <file>`: the LTL abstraction of a `.tsl` file as TLSF (what syfco and ltlsynt
 * read). `--names tsltools` uses tsl2tlsf's proposition names (`p0…`/`u0…`).
 */
import { writeFileSync } from 'node:fs';
import { writeTlsf } from '../../tlsf/write.js';
import { printWarnings, importOptions, readTslFile, writeOut } from '../tsl-support.js';
import { loadTslGame } from '../../tsl/index.js';
import { ExitCode } from '../exit-codes.js';

export async function run(args: Record<string, unknown>): Promise<number> {
  const { file, text } = readTslFile(args);
  const names = args.names === 'tsltools' ? 'tsltools' : 'readable';
  const { game, diagnostics } = loadTslGame(file, text, { names, ...importOptions(args) });
  printWarnings(diagnostics);
  const tlsf = writeTlsf(game, { title: game.name, description: `TSL specification ${file}, converted by tslc` });
  if (typeof args.output === 'string') writeFileSync(args.output, tlsf);
  else writeOut(tlsf.replace(/\n$/, ''));
  return ExitCode.ok;
}
