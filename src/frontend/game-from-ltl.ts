/**
 * The plain-LTL front end, for users coming from `ltlsynt -f … --ins … --outs …`: one Spot-syntax
 * formula plus the input/output split becomes a `GameSpec` with the formula as its one guarantee.
 */
import { atomOffsets, lineCol } from '../../runtime/ltl/parse.js';
import { error, type Diagnostic, UserError } from '../diagnostics/diagnostic.js';
import type { GameSpec } from '../game/spec.js';
import { atoms } from '../ltl/formula.js';
import { fromSyntax } from '../ltl/from-syntax.js';
import { parseSyntax } from '../ltl/parse.js';

export interface LtlGameOptions {
  readonly name?: string;
  readonly file?: string;
  readonly semantics?: 'mealy' | 'moore';
}

export function ltlGame(formulaText: string, ins: string[], outs: string[], options: LtlGameOptions = {}): GameSpec {
  const file = options.file ?? '<formula>';
  const formula = fromSyntax(parseSyntax(formulaText, file));
  const inputs = dedupe(ins);
  const outputs = dedupe(outs);
  const problems: Diagnostic[] = [];
  const outputSet = new Set(outputs);
  for (const name of inputs) {
    if (outputSet.has(name)) problems.push(error(`'${name}' is listed both in --ins and in --outs`, undefined, 'io-clash'));
  }
  const known = new Set([...inputs, ...outputs]);
  const offsets = atomOffsets(formulaText);
  for (const name of [...atoms(formula)].sort((a, b) => (offsets.get(a) ?? 0) - (offsets.get(b) ?? 0))) {
    if (known.has(name)) continue;
    const at = lineCol(formulaText, offsets.get(name) ?? 0);
    const hint = /^[FGX]/.test(name) || /^[FGX]/.test(formulaText.slice((offsets.get(name) ?? 1) - 1))
      ? ' (note: Spot reads `GFa` as `G F a`; quote an atom that starts with F, G or X: "Fire")'
      : '';
    problems.push(
      error(
        `atomic proposition '${name}' is neither an input (--ins) nor an output (--outs)${hint}`,
        { file, line: at.line, col: at.col, length: name.length },
        'unknown-ap',
      ),
    );
  }
  if (problems.length > 0) throw new UserError(problems);
  return {
    name: options.name ?? 'formula',
    file: options.file,
    semantics: options.semantics ?? 'mealy',
    inputs: inputs.map((name) => ({ name })),
    outputs: outputs.map((name) => ({ name })),
    signals: [],
    initially: [],
    preset: [],
    assumptions: [],
    guarantees: [{ formula, span: { file, line: 1, col: 1 }, text: formulaText.trim() }],
  };
}

function dedupe(names: readonly string[]): string[] {
  return [...new Set(names.map((n) => n.trim()).filter((n) => n.length > 0))];
}
