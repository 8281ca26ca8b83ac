/**
 * Parsing `.tsl` text into the AST, turning peggy's failures into one located diagnostic with a
 * message a user can act on (what was found, what could come instead, which bracket is open).
 */
import { type Diagnostic, UserError } from '../diagnostics/diagnostic.js';
import type { TslAst } from './ast.js';
import { depthPoint } from './depth-point.js';
import { parse as peggyParse, SyntaxError as PeggySyntaxError } from './generated/parser.js';

export function parseTsl(file: string, text: string): TslAst {
  try {
    const raw = peggyParse(text, { grammarSource: file }) as Omit<TslAst, 'file'>;
    return { file, ...raw };
  } catch (err) {
    if (err instanceof PeggySyntaxError) throw new UserError(syntaxDiagnostic(file, text, err));
    // Pathological nesting (thousands of parentheses) exhausts the parser's stack: still a user error.
    if (err instanceof RangeError) throw new UserError({ severity: 'error', message: 'formula nested too deeply', span: { file, ...depthPoint(text) }, code: 'parse' });
    throw err;
  }
}

interface Expectation {
  readonly type: string;
  readonly text?: string;
  readonly description?: string;
}

/** Everything that can start an operand; if any is expected, say "a formula or term". */
const OPERAND_STARTS = new Set(['name', 'number', '"("', '"["', '"true"', '"false"', '"-"']);

function syntaxDiagnostic(file: string, text: string, err: PeggySyntaxError): Diagnostic {
  const { line, column, offset } = err.location.start;
  const expected = Array.isArray(err.expected) ? (err.expected as Expectation[]) : null;
  const span = { file, line, col: column, length: Math.max(1, err.location.end.offset - offset) };
  // Errors raised by grammar actions (`error(...)`) carry no expectations: their message is final.
  if (expected === null) return { severity: 'error', message: err.message, span, code: 'parse' };

  const wanted = describeExpected(expected);
  if (err.found === null) {
    const open = unclosedBrackets(text, text.length).pop();
    const message = open
      ? `unexpected end of file: "${open.char}" at ${open.line}:${open.col} is never closed`
      : `unexpected end of file; expected ${wanted}`;
    return { severity: 'error', message, span: { ...span, length: 1 }, code: 'parse' };
  }
  const found = err.found;
  const closing = found === ')' || found === ']' || found === '}';
  if (closing && !expected.some((e) => e.type === 'literal' && e.text === found)) {
    const openBrackets = unclosedBrackets(text, offset);
    const open = openBrackets[openBrackets.length - 1];
    const matching = { ')': '(', ']': '[', '}': '{' }[found];
    if (!openBrackets.some((b) => b.char === matching)) return { severity: 'error', message: `unmatched "${found}"`, span: { ...span, length: 1 }, code: 'parse' };
    if (open.char !== matching) {
      const message = `unexpected "${found}": "${open.char}" at ${open.line}:${open.col} is not closed`;
      return { severity: 'error', message, span: { ...span, length: 1 }, code: 'parse' };
    }
  }
  return { severity: 'error', message: `unexpected ${shown(found)}; expected ${wanted}`, span: { ...span, length: 1 }, code: 'parse' };
}

function shown(found: string): string {
  if (found === '\n' || found === '\r') return 'end of line';
  return JSON.stringify(found);
}

function describeExpected(expected: readonly Expectation[]): string {
  const keys = new Set(
    expected.map((e) => (e.type === 'literal' ? JSON.stringify(e.text) : e.type === 'end' ? 'end of file' : (e.description ?? e.type))),
  );
  const parts: string[] = [];
  if ([...keys].some((k) => OPERAND_STARTS.has(k) && k !== '"-"')) {
    parts.push('a formula or term');
    for (const k of OPERAND_STARTS) keys.delete(k);
    keys.delete('unary operator');
  }
  if (keys.delete('operator')) parts.push('an operator');
  parts.push(...[...keys].sort());
  if (parts.length <= 1) return parts[0] ?? 'something else';
  return `${parts.slice(0, -1).join(', ')} or ${parts[parts.length - 1]}`;
}

/** The brackets still open at `end`, outermost first (comments and strings skipped). */
function unclosedBrackets(text: string, end: number): { char: string; line: number; col: number }[] {
  const stack: { char: string; offset: number }[] = [];
  let i = 0;
  while (i < end) {
    const c = text[i];
    if (c === '/' && text[i + 1] === '/') {
      while (i < end && text[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      let depth = 1;
      i += 2;
      while (i < end && depth > 0) {
        if (text[i] === '/' && text[i + 1] === '*') (depth++, (i += 2));
        else if (text[i] === '*' && text[i + 1] === '/') (depth--, (i += 2));
        else i++;
      }
      continue;
    }
    if (c === '"') {
      i++;
      while (i < end && text[i] !== '"' && text[i] !== '\n') i++;
      i++;
      continue;
    }
    if (c === '(' || c === '[' || c === '{') stack.push({ char: c, offset: i });
    else if (c === ')' || c === ']' || c === '}') {
      const want = { ')': '(', ']': '[', '}': '{' }[c];
      if (stack.length > 0 && stack[stack.length - 1].char === want) stack.pop();
    }
    i++;
  }
  return stack.map(({ char, offset }) => {
    const before = text.slice(0, offset);
    return { char, line: before.split('\n').length, col: offset - before.lastIndexOf('\n') };
  });
}
