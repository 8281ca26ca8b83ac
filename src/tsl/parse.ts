/**
 * Parsing `.tsl` text into the AST, turning peggy's failures into one located diagnostic with a
 * message a user can act on (what was found, what could come instead, which bracket is open).
 */
import { type Diagnostic, UserError } from '../diagnostics/diagnostic.js';
import type { TslAst } from './ast.js';
import { MAX_FORMULA_DEPTH } from './depth.js';
import { parse as peggyParse, SyntaxError as PeggySyntaxError } from './generated/parser.js';

export function parseTsl(file: string, text: string): TslAst {
  checkNesting(file, text);
  try {
    const raw = peggyParse(text, { grammarSource: file }) as Omit<TslAst, 'file'>;
    return { file, ...raw };
  } catch (err) {
    if (err instanceof PeggySyntaxError) throw new UserError(syntaxDiagnostic(file, text, err));
    // The nesting scan below keeps brackets within what the parser can take; should the stack
    // still run out (a caller deep in its own stack), it is a user error at the deepest bracket.
    if (err instanceof RangeError) {
      const { line, col } = lineColOf(text, nesting(text).deepest);
      throw new UserError({ severity: 'error', message: 'formula nested too deeply; split it into several formulas', span: { file, line, col, length: 1 }, code: 'too-deep' });
    }
    throw err;
  }
}

/**
 * Brackets (`(`, `[`) and block comments nest by recursion in the parser: each bracket costs a
 * few dozen stack frames, and a few hundred exhaust the stack. No spec needs more than a few
 * dozen (the SYNTCOMP TSL benchmarks nest 22 deep), so more than MAX_BRACKET_DEPTH is refused
 * before parsing, at the bracket that crosses the limit.
 */
export const MAX_BRACKET_DEPTH = 256;

function checkNesting(file: string, text: string): void {
  const { crossing, what } = nesting(text, MAX_BRACKET_DEPTH);
  if (crossing === undefined) return;
  const { line, col } = lineColOf(text, crossing);
  const message = {
    comment: `comments nested too deeply (more than ${MAX_BRACKET_DEPTH} /* inside each other)`,
    bracket: `formula nested too deeply (more than ${MAX_BRACKET_DEPTH} brackets inside each other); split it into several formulas`,
    prefix: `formula nested too deeply (more than ${MAX_FORMULA_DEPTH} operators inside each other); split it into several formulas`,
  }[what ?? 'bracket'];
  throw new UserError({ severity: 'error', message, span: { file, line, col, length: what === 'comment' ? 2 : 1 }, code: 'too-deep' });
}

const PREFIX_WORDS = new Set(['X', 'F', 'G']);

/** `[A-Za-z_]` */
const identStart = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
/** `[A-Za-z0-9_'@.]`: the characters of names, qualified names and numbers (NaN at the start: false). */
const identChar = (c: number): boolean => identStart(c) || (c >= 48 && c <= 57) || c === 39 || c === 64 || c === 46;

/**
 * One pass over the text as the grammar reads it (line comments, nested block comments, string
 * literals): the first bracket or comment opening deeper than `limit`, or prefix operator (`!`,
 * `X`, `F`, `G`: the parser recurses on those too) more than MAX_FORMULA_DEPTH in a row, which
 * the checker would refuse anyway; and the first opening at the deepest level reached.
 */
function nesting(text: string, limit = Infinity): { crossing?: number; what?: 'comment' | 'bracket' | 'prefix'; deepest: number } {
  let depth = 0;
  let comments = 0;
  let max = 0;
  let deepest = 0;
  let prefixes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (comments > 0) {
      if (c === '/' && text[i + 1] === '*') {
        if (++comments > limit) return { crossing: i, what: 'comment', deepest };
        i++;
      } else if (c === '*' && text[i + 1] === '/') {
        comments--;
        i++;
      }
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\n') continue;
    if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      comments = 1;
      i++;
      continue;
    }
    if (c === '!' || (identStart(text.charCodeAt(i)) && !identChar(text.charCodeAt(i - 1)))) {
      let end = i + 1;
      if (c !== '!') while (end < text.length && identChar(text.charCodeAt(end))) end++;
      if (c === '!' || PREFIX_WORDS.has(text.slice(i, end))) {
        if (++prefixes > MAX_FORMULA_DEPTH) return { crossing: i, what: 'prefix', deepest };
      } else prefixes = 0;
      i = end - 1;
      continue;
    }
    prefixes = 0;
    if (c === '"') {
      i++;
      while (i < text.length && text[i] !== '"' && text[i] !== '\n') i++;
    } else if (c === '(' || c === '[') {
      if (++depth > limit) return { crossing: i, what: 'bracket', deepest };
      if (depth > max) {
        max = depth;
        deepest = i;
      }
    } else if (c === ')' || c === ']') depth = Math.max(0, depth - 1);
  }
  return { deepest };
}

/** The first opening at the deepest bracket level: where to point when a later pass finds a spec too deep. */
export function deepestPoint(text: string): { line: number; col: number } {
  return lineColOf(text, nesting(text).deepest);
}

function lineColOf(text: string, offset: number): { line: number; col: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, col: offset - (before.lastIndexOf('\n') + 1) + 1 };
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
