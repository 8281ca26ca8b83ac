/**
 * An LTL formula given as a JSON object in a rules file (`{"op": "G", "arg": {…}}`): its shape,
 * and its nesting, checked before any monitor sees it.
 *
 * Spot text goes through the LTL reader, which refuses more than MAX_LTL_DEPTH operators inside
 * each other; an object skipped that, and the monitors (which recurse over formulas) crashed on a
 * deep one, or on one with a missing operand. Here the tree is walked without recursion, and a
 * problem is reported at the place in the file's text where the offending node starts (found by a
 * small scanner that follows the node's path through the JSON text, also without recursion).
 */
import { MAX_LTL_DEPTH } from '../../runtime/ltl/parse.js';

export type JsonPath = readonly (string | number)[];

export interface NodeProblem {
  /** Where the offending node is, from the formula's root. */
  readonly path: JsonPath;
  readonly problem: string;
}

const UNARY = new Set(['!', 'X', 'F', 'G']);
const BINARY = new Set(['->', '<->', 'xor', 'U', 'W', 'R', 'M']);
const NARY = new Set(['&', '|']);

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * The first problem of `value` as an LtlNode (depth first, left to right), or undefined when it is
 * a well-formed formula with at most `limit` operators inside each other.
 */
export function ruleNodeProblem(value: unknown, limit = MAX_LTL_DEPTH): NodeProblem | undefined {
  // Paths as parent links, spelled out only for the problem (copying them per node is quadratic).
  type Link = { readonly parent: Link | undefined; readonly step: readonly (string | number)[] } | undefined;
  const spell = (link: Link): JsonPath => {
    const steps: (readonly (string | number)[])[] = [];
    for (let l = link; l; l = l.parent) steps.push(l.step);
    return steps.reverse().flat();
  };
  // (node, its path, operators above it)
  const stack: [unknown, Link, number][] = [[value, undefined, 0]];
  while (stack.length > 0) {
    const [node, link, above] = stack.pop()!;
    const problem = (text: string): NodeProblem => ({ path: spell(link), problem: text });
    if (!isObject(node)) return problem('expected a formula object with an "op"');
    const op = node.op;
    if (typeof op !== 'string') return problem('a formula object needs an "op"');
    if (op === 'true' || op === 'false') continue;
    if (op === 'ap') {
      if (typeof node.name !== 'string' || node.name === '') return problem('an "ap" needs a non-empty "name"');
      continue;
    }
    const children: [unknown, string | number, string | number | undefined][] = [];
    if (UNARY.has(op)) children.push([node.arg, 'arg', undefined]);
    else if (BINARY.has(op)) children.push([node.left, 'left', undefined], [node.right, 'right', undefined]);
    else if (NARY.has(op)) {
      if (!Array.isArray(node.args) || node.args.length === 0) return problem(`"${op}" needs "args": a non-empty list of formulas`);
      node.args.forEach((a, i) => children.push([a, 'args', i]));
    } else return problem(`unknown operator "${op}" (expected one of true, false, ap, !, X, F, G, &, |, ->, <->, xor, U, W, R, M)`);
    if (above + 1 > limit) return problem(`formula nested too deeply (more than ${limit} operators inside each other); split it into several formulas`);
    for (let i = children.length - 1; i >= 0; i--) {
      const [child, key, index] = children[i];
      if (child === undefined) return problem(`"${op}" needs "${key}"`);
      stack.push([child, { parent: link, step: index === undefined ? [key] : [key, index] }, above + 1]);
    }
  }
  return undefined;
}

/**
 * The offset in `text` (valid JSON) where the value at `path` starts, or undefined if there is no
 * such value. One pass, no recursion: containers are tracked on a stack.
 */
export function jsonValueOffset(text: string, path: JsonPath): number | undefined {
  // Per open container: its kind, the key (object) or index (array) of the value being read, and
  // whether the path so far matches down to this container.
  const stack: { kind: '{' | '['; key: string | number | undefined; matches: boolean }[] = [];
  let i = skipSpace(text, 0);
  // Is the value starting at `i` the one at `path`?
  const here = (): boolean => {
    const depth = stack.length;
    if (depth !== path.length) return false;
    if (depth === 0) return true;
    const top = stack[depth - 1];
    return top.matches && top.key === path[depth - 1];
  };
  for (;;) {
    if (i >= text.length) return undefined;
    // At the start of a value.
    if (here()) return i;
    const c = text[i];
    const parentMatches = stack.length === 0 || (stack[stack.length - 1].matches && stack[stack.length - 1].key === path[stack.length - 1]);
    if (c === '{' || c === '[') {
      const open = { kind: c as '{' | '[', key: undefined as string | number | undefined, matches: parentMatches && stack.length < path.length };
      stack.push(open);
      i = skipSpace(text, i + 1);
      if (c === '[') {
        if (text[i] === ']') i = close(i);
        else open.key = 0;
      } else if (text[i] === '}') i = close(i);
      else i = readKey(i, open);
    } else {
      // A scalar: skip it, then what follows.
      i = c === '"' ? skipString(text, i) : skipScalar(text, i);
      i = after(skipSpace(text, i));
    }
    if (i < 0) return undefined;
  }

  function readKey(at: number, container: { key: string | number | undefined }): number {
    const end = skipString(text, at);
    container.key = JSON.parse(text.slice(at, end)) as string;
    const colon = skipSpace(text, end);
    return skipSpace(text, colon + 1);
  }
  /** After a closing bracket at `at`: pop, then what follows the container. */
  function close(at: number): number {
    stack.pop();
    return after(skipSpace(text, at + 1));
  }
  /**
   * After a complete value, at `at`: a comma (then the next key or index: returns the offset of
   * that value) or closing brackets, as many as there are in a row (a loop: thousands may follow).
   */
  function after(at: number): number {
    for (;;) {
      if (stack.length === 0) return -1;
      const top = stack[stack.length - 1];
      if (text[at] === ',') {
        const next = skipSpace(text, at + 1);
        if (top.kind === '[') {
          top.key = (top.key as number) + 1;
          return next;
        }
        return readKey(next, top);
      }
      stack.pop();
      at = skipSpace(text, at + 1);
    }
  }
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  return i;
}

function skipString(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === '\\') j++;
    else if (text[j] === '"') return j + 1;
  }
  return text.length;
}

function skipScalar(text: string, i: number): number {
  while (i < text.length && !/[\s,\]}]/.test(text[i])) i++;
  return i;
}
