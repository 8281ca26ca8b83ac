/**
 * `tslc ltl <file>`: the LTL abstraction of a `.tsl` file as one Spot-syntax formula, then the
 * `--ins=… --outs=…` arguments ltlsynt needs (`ltlsynt -f "$(…| head -1)" $(… | tail -1)`).
 */
import { specFormula } from '../../game/spec.js';
import { toSpot } from '../../ltl/print.js';
import { printWarnings, importOptions, readTslFile, writeOut } from '../tsl-support.js';
import { loadTslGame } from '../../tsl/index.js';
import { diagnosticsToJson } from '../io.js';
import { ExitCode } from '../exit-codes.js';

export async function run(args: Record<string, unknown>): Promise<number> {
  const { file, text } = readTslFile(args);
  const names = args.names === 'tsltools' ? 'tsltools' : 'readable';
  const { game, diagnostics } = loadTslGame(file, text, { names, ...importOptions(args) });
  const formula = toSpot(specFormula(game));
  const ins = game.inputs.map((p) => p.name);
  const outs = game.outputs.map((p) => p.name);
  if (args.json) {
    writeOut(JSON.stringify({ formula, ins, outs, warnings: diagnosticsToJson(diagnostics) }, null, 2));
    return ExitCode.ok;
  }
  printWarnings(diagnostics);
  writeOut(`${formula}\n--ins=${ins.join(',')} --outs=${outs.join(',')}`);
  return ExitCode.ok;
}
