/**
 * `tslc agent validate <spec> <examples>`: checks the few-shot examples of an agent prompt against
 * an agent-behavior spec (paper 003), one verdict per example: accepted, or the first invalid step
 * and what would have been allowed. Exit 0 when every example is accepted, 1 when some is rejected,
 * 2 for bad input (a spec that does not parse, an unreadable file, a text without any marker).
 */
import { existsSync } from 'node:fs';
import { AgentSpecError, type AgentSpec, parseAgentSpec } from '../../../runtime/agent/spec.js';
import { CHAIN_OF_THOUGHT_SPEC_TEXT, CHAT_BOT_SPEC_TEXT, REACT_SPEC_TEXT, REFLEXION_SPEC_TEXT } from '../../../runtime/agent/specs.js';
import { type ExamplesReport, validateExamples } from '../../../runtime/agent/validate-examples.js';
import { type Diagnostic, UserError, error, formatDiagnostic } from '../../diagnostics/diagnostic.js';
import { isStdinPath } from '../../diagnostics/read-input.js';
import { ExitCode } from '../exit-codes.js';
import { readUserFile } from '../io.js';
import { writeStdout } from '../out.js';

/** The paper's specs by name, for a spec argument that is not a file. */
const BUILT_IN = new Map<string, string>([
  ['react', REACT_SPEC_TEXT],
  ['chain-of-thought', CHAIN_OF_THOUGHT_SPEC_TEXT],
  ['reflexion', REFLEXION_SPEC_TEXT],
  ['chat-bot', CHAT_BOT_SPEC_TEXT],
]);

function usage(message: string): never {
  throw new UserError(error(`${message} (see \`tslc agent --help\`)`, undefined, 'usage'));
}

/** A spec file, or one of the paper's specs by name (a file of that name wins). */
function loadSpec(arg: string): { spec: AgentSpec; file: string } {
  const builtIn = BUILT_IN.get(arg);
  const file = builtIn !== undefined && !existsSync(arg) ? `<${arg}>` : arg;
  const text = builtIn !== undefined && file !== arg ? builtIn : readUserFile(arg);
  try {
    return { spec: parseAgentSpec(text), file };
  } catch (e) {
    if (!(e instanceof AgentSpecError)) throw e;
    const message = e.line > 0 ? e.message.slice(`${e.line}:${e.col}: `.length) : e.message;
    const where = e.line > 0 ? { line: e.line, col: e.col } : namedPosition(text, message);
    throw new UserError(error(message, { file, ...where }, 'agent-spec'));
  }
}

/**
 * Checks after parsing (an unknown state) carry no position: point at the name they mention, as a
 * whole token, first after `(:behavior` (where state names are used); else at the start.
 */
function namedPosition(text: string, message: string): { line: number; col: number } {
  const name = /unknown state (\S+)/.exec(message)?.[1];
  if (name !== undefined) {
    const token = new RegExp(`(?<![^\\s()])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![^\\s()])`, 'g');
    const behavior = Math.max(0, text.indexOf(':behavior'));
    const hits = [...text.matchAll(token)].map((m) => m.index);
    const at = hits.find((i) => i >= behavior) ?? hits[0];
    if (at !== undefined) {
      const before = text.slice(0, at);
      return { line: before.split('\n').length, col: at - (before.lastIndexOf('\n') + 1) + 1 };
    }
  }
  return { line: 1, col: 1 };
}

function maxLoopsArg(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) usage(`--max-loops must be a whole number of loops (1 or more), not '${String(value)}'`);
  return n;
}

function render(spec: AgentSpec, report: ExamplesReport, file: string, text: string): string {
  const byName = new Map(spec.states.map((st) => [st.name, st]));
  const out: string[] = [];
  for (const e of report.examples) {
    if (e.accepted) {
      out.push(`${file}:${e.line}:${e.column}: example ${e.index} accepted (${e.steps.length} steps)`);
      continue;
    }
    const p = e.problem!;
    // Underline the wrong marker, or the text that broke the content constraint.
    const at = e.steps[p.step - 1];
    const length =
      p.kind === 'invalid-state' ? byName.get(p.found!)!.text.trim().length : p.kind === 'invalid-content' ? Math.max(1, at.text.split('\n')[0].length) : 1;
    const d: Diagnostic = error(`example ${e.index} rejected: ${p.message}`, { file, line: p.line, col: p.column, length }, p.kind);
    out.push(formatDiagnostic(d, text));
  }
  out.push(`${report.examples.length} example${report.examples.length === 1 ? '' : 's'}: ${report.accepted} accepted, ${report.rejected} rejected`);
  return out.join('\n') + '\n';
}

export async function run(args: Record<string, unknown>): Promise<number> {
  if (args.action !== 'validate') usage(`unknown agent action '${String(args.action)}'; the action is validate`);
  const specArg = String(args.spec);
  const examplesPath = String(args.examples);
  const maxLoops = maxLoopsArg(args['max-loops']);
  if (isStdinPath(specArg) && isStdinPath(examplesPath)) usage('standard input (-) can be given only once');
  const { spec, file: specFile } = loadSpec(specArg);
  const text = readUserFile(examplesPath);
  let report: ExamplesReport;
  try {
    report = validateExamples(spec, text, maxLoops === undefined ? {} : { maxLoops });
  } catch (e) {
    // A cap the spec cannot take (an LTL behavior has no loops).
    if (e instanceof AgentSpecError) throw new UserError(error(e.message, { file: specFile, line: 1, col: 1 }, 'agent-spec'));
    throw e;
  }
  if (report.examples.length === 0) {
    const markers = spec.states.map((s) => JSON.stringify(s.text.trim())).join(', ');
    throw new UserError(error(`no example: the text has none of the markers of ${spec.name} (${markers})`, { file: examplesPath, line: 1, col: 1 }, 'no-examples'));
  }
  if (args.json === true) writeStdout(JSON.stringify({ spec: spec.name, file: examplesPath, ...report }, null, 2) + '\n');
  else writeStdout(render(spec, report, examplesPath, text));
  return report.rejected === 0 ? ExitCode.ok : ExitCode.failure;
}
