/**
 * Reading what a synthesizer printed: a `REALIZABLE` / `UNREALIZABLE` line, and after
 * `REALIZABLE` (in synthesis mode) an HOA Mealy machine. Anything else is a diagnostic that quotes
 * the offending text, because "garbage output" is only actionable when the user can see it.
 */
import { type Diagnostic, UserError } from '../diagnostics/diagnostic.js';
import { type HoaAutomaton, parseHoa } from '../automata/hoa.js';

export type ParsedToolOutput =
  | { readonly verdict: 'unrealizable' }
  | { readonly verdict: 'realizable'; readonly hoa?: HoaAutomaton };

function excerpt(text: string, max = 120): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > max ? `${oneLine.slice(0, max)}…` : oneLine;
}

function outputError(tool: string, message: string): UserError {
  const d: Diagnostic = { severity: 'error', message: `${tool}: ${message}`, code: 'external-output' };
  return new UserError(d);
}

/**
 * Parse a tool's stdout. `wantMachine`: a REALIZABLE answer must be followed by an HOA machine.
 * Throws `UserError` (code `external-output` or `hoa`) for anything malformed.
 */
export function parseToolOutput(tool: string, stdout: string, wantMachine: boolean): ParsedToolOutput {
  const lines = stdout.split('\n');
  let i = 0;
  while (i < lines.length && lines[i].trim() === '') i++;
  if (i >= lines.length) throw outputError(tool, 'printed nothing (expected REALIZABLE or UNREALIZABLE)');
  const first = lines[i].trim();
  if (first === 'UNREALIZABLE') return { verdict: 'unrealizable' };
  if (first !== 'REALIZABLE')
    throw outputError(tool, `printed something that is neither REALIZABLE nor UNREALIZABLE: "${excerpt(first)}"`);
  const rest = lines.slice(i + 1).join('\n');
  if (!wantMachine) return { verdict: 'realizable' };
  if (rest.trim() === '') throw outputError(tool, 'answered REALIZABLE but printed no controller (expected an HOA Mealy machine)');
  if (!/^\s*HOA:/.test(rest)) throw outputError(tool, `answered REALIZABLE but what follows is not HOA: "${excerpt(rest)}"`);
  try {
    return { verdict: 'realizable', hoa: parseHoa(rest, { file: `<${tool} output>`, lineOffset: i + 1 }) };
  } catch (err) {
    if (err instanceof UserError) {
      const d = err.diagnostics[0];
      throw new UserError({ ...d, message: `${tool} printed a malformed HOA controller: ${d.message}` });
    }
    throw err;
  }
}
