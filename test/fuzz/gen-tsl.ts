/**
 * Generators of `.tsl` text: token soups, mutations of the corpus and specs/, grammar-based
 * random specs, deep nesting of every operator and bracket kind, huge tokens, many formulas, and
 * imports of odd paths (the files they name are made by `makeImportFixtures`).
 */
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Alphabet, mutate, soup } from './mutate.js';
import type { Rand } from './rand.js';

export const TSL_ALPHABET: Alphabet = {
  chars: '()[]{};,<->=!&|+-*/"#.@\'_ \n\t\rXFGUWRaz09\u0000é∀\u{1F600}\uFEFF\\',
  tokens: [
    '(', ')', '[', ']', '{', '}', ';', ',', '<-', '->', '<->', '&&', '||', '!', 'X', 'F', 'G', 'U', 'W', 'R', 'true', 'false',
    '=', '==', '!=', '+', '-', '*', '/', '<', '<=', '>', '>=', '3', '-2', '2.5', '0', '99999999999999999999', 'p', 'x', 'f()', 'f x', 'p(x, y)',
    'room.light', 'a.', '.a', "x'", '@q', 'import "lib.tsl" as A', 'import', 'as', 'always', 'initially', 'assume', 'guarantee',
    '#UF', '#LIA', '#EUF', '#QF_UF', '/*', '*/', '//', 'A = x;', 'g x y = p x;', '[x <- f x]', '[x <- x + 1]', '__proto__', 'constructor',
    'toString', 'hasOwnProperty', 'valueOf', 'prototype', 'eq', 'add', 'int3()', 'real2.5()',
  ],
};

const PREDICATES = ['p', 'q', 'inCave', 'room.empty', 'Time.am5', '__proto__', 'constructor', 'toString', "p'", '@r', 'eq', 'lt'];
const FUNCTIONS = ['f', 'g', 'toCave', 'add', 'valueOf', 'hasOwnProperty', 'h.k'];
const CELLS = ['x', 'y', 'count', 's', 'prototype', 'out.v'];
const INPUTS = ['i', 'j', 'k'];

/** A term: a cell, input, number, constant or function application, maybe with arithmetic. */
function term(r: Rand, depth: number): string {
  if (depth <= 0 || r.chance(0.4)) {
    return r.weighted([
      [4, r.pick(CELLS)],
      [2, r.pick(INPUTS)],
      [2, String(r.pick([0, 1, 3, 42, -2, 2.5, 1e6]))],
      [1, `${r.pick(FUNCTIONS)}()`],
    ]);
  }
  return r.weighted<() => string>([
    [3, () => `${r.pick(FUNCTIONS)} ${atomTerm(r, depth - 1)}`],
    [2, () => `${r.pick(FUNCTIONS)}(${term(r, depth - 1)}, ${term(r, depth - 1)})`],
    [2, () => `${atomTerm(r, depth - 1)} ${r.pick(['+', '-', '*', '/'])} ${atomTerm(r, depth - 1)}`],
    [1, () => `(${term(r, depth - 1)})`],
  ])();
}

function atomTerm(r: Rand, depth: number): string {
  const t = term(r, depth);
  return /^[\w.@']+(\(\))?$/.test(t) ? t : `(${t})`;
}

/** A formula over predicates, updates, comparisons and every temporal operator. */
export function tslFormula(r: Rand, depth: number): string {
  if (depth <= 0 || r.chance(0.25)) {
    return r.weighted<() => string>([
      [4, () => `${r.pick(PREDICATES)} ${atomTerm(r, 1)}`],
      [2, () => `${r.pick(PREDICATES)}(${term(r, 1)})`],
      [2, () => r.pick(INPUTS)],
      [3, () => `[${r.pick(CELLS)} <- ${term(r, 2)}]`],
      [1, () => `[${r.pick(CELLS)} <- ${r.pick(CELLS)}]`],
      [2, () => `${atomTerm(r, 1)} ${r.pick(['=', '==', '<', '<=', '>', '>='])} ${atomTerm(r, 1)}`],
      [1, () => r.pick(['true', 'false'])],
    ])();
  }
  return r.weighted<() => string>([
    [3, () => `${r.pick(['!', 'X', 'F', 'G'])} ${wrap(tslFormula(r, depth - 1))}`],
    [6, () => `${wrap(tslFormula(r, depth - 1))} ${r.pick(['&&', '||', '->', '<->', 'U', 'W', 'R'])} ${wrap(tslFormula(r, depth - 1))}`],
    [1, () => `(${tslFormula(r, depth - 1)})`],
  ])();
}

const wrap = (s: string) => (/^[\w.@'!\s]+$/.test(s) ? s : `(${s})`);

/** A random spec that is mostly well-formed: header, definitions, sections. */
export function grammarSpec(r: Rand): string {
  const out: string[] = [];
  if (r.chance(0.2)) out.push(r.pick(['#UF', '#LIA', '#EUF', '#QF_UF']));
  const defs = r.int(4);
  for (let i = 0; i < defs; i++) {
    out.push(
      r.weighted<() => string>([
        [2, () => `d${i} = ${tslFormula(r, 2)};`],
        [2, () => `pred${i} a b = ${r.pick(PREDICATES)} a && ${r.pick(PREDICATES)} b;`],
        [1, () => `fun${i} a = ${r.pick(FUNCTIONS)} a;`],
        [1, () => `upd${i} a = [${r.pick(CELLS)} <- ${r.pick(FUNCTIONS)} a];`],
      ])(),
    );
  }
  const sections = 1 + r.int(4);
  for (let s = 0; s < sections; s++) {
    const head = `${r.pick(['', 'always ', 'initially '])}${r.pick(['assume', 'guarantee'])}`;
    const body: string[] = [];
    const n = 1 + r.int(4);
    for (let i = 0; i < n; i++) {
      let f = tslFormula(r, 1 + r.int(4));
      if (defs > 0 && r.chance(0.3)) f = `${f} && ${r.pick([`d0`, `pred0 x y`, `p (fun0 x)`, `upd0 x`])}`;
      body.push(`  ${f};`);
    }
    out.push(`${head} {\n${body.join('\n')}\n}`);
  }
  return out.join('\n');
}

/** Every operator and bracket kind nested `n` deep (or chained `n` long). */
export function deepTsl(r: Rand): string {
  const n = r.size([50, 300, 1000, 2000, 5000, 20_000, 60_000]);
  const kind = r.pick([
    'parens', 'not', 'X', 'F', 'G', 'mixed-unary', 'U', 'W', 'R', 'and', 'or', 'implies', 'iff', 'and-nested', 'update', 'call',
    'curried', 'arith', 'arith-nested', 'compare', 'comment', 'open-parens', 'open-brackets', 'definitions', 'doubling', 'sections',
  ] as const);
  const body = (f: string) => `guarantee {\n  ${f};\n}\n`;
  const chain = (op: string) => body(Array.from({ length: n }, (_, i) => `p x${i % 7}`).join(` ${op} `));
  switch (kind) {
    case 'parens':
      return body(`${'('.repeat(n)}p x${')'.repeat(n)}`);
    case 'not':
      return body(`${r.pick(['!', '! '])}`.repeat(n) + 'p x');
    case 'X':
    case 'F':
    case 'G':
      return body(`${kind} `.repeat(n) + 'p x');
    case 'mixed-unary':
      return body(Array.from({ length: n }, () => r.pick(['!', 'X ', 'F ', 'G ', '('])).join('') + 'p x');
    case 'U':
    case 'W':
    case 'R':
      return chain(kind);
    case 'and':
      return chain('&&');
    case 'or':
      return chain('||');
    case 'implies':
      return chain('->');
    case 'iff':
      return chain('<->');
    case 'and-nested':
      return body(Array.from({ length: n }, (_, k) => (k % 2 ? 'p x || (' : 'q y && (')).join('') + 'p x' + ')'.repeat(n));
    case 'update':
      return body(`[x <- ${'f ('.repeat(n)}x${')'.repeat(n)}]`);
    case 'call':
      return body(`p(${'f('.repeat(n)}x${')'.repeat(n)})`);
    case 'curried':
      return body(`p ${'(f '.repeat(n)}x${')'.repeat(n)}`);
    case 'arith':
      return body(`[x <- ${Array.from({ length: n }, () => 'x').join(` ${r.pick(['+', '-', '*', '/'])} `)}]`);
    case 'arith-nested':
      return body(`[x <- ${'(1 + '.repeat(n)}x${')'.repeat(n)}]`);
    case 'compare':
      return body(Array.from({ length: n }, () => 'x').join(' < '));
    case 'comment':
      return `${'/* '.repeat(n)}${r.chance(0.5) ? ' */'.repeat(n) : ''}\n${body('p x')}`;
    case 'open-parens':
      return body('('.repeat(n) + 'p x');
    case 'open-brackets':
      return body('[x <- '.repeat(n) + 'x');
    case 'definitions':
      return `${Array.from({ length: Math.min(n, 5000) }, (_, i) => `d${i} = ${i === Math.min(n, 5000) - 1 ? 'p x' : `d${i + 1}`};`).join('\n')}\n${body('d0')}`;
    case 'doubling': {
      const levels = Math.min(40, 5 + Math.floor(Math.log2(n)));
      const defs = Array.from({ length: levels }, (_, i) => (i === 0 ? 'f0 a = g a;' : `f${i} a = f${i - 1} (f${i - 1} a);`));
      return `${defs.join('\n')}\n${body(`p (f${levels - 1} x)`)}`;
    }
    default:
      return Array.from({ length: Math.min(n, 20_000) }, () => body('p x')).join('');
  }
}

/** Huge identifiers, numbers, strings and comments, and one enormous line. */
export function hugeTsl(r: Rand): string {
  const n = r.size([1000, 100_000, 1_000_000]);
  const kind = r.pick(['ident', 'number', 'decimal', 'string', 'comment', 'line-comment', 'unterminated-comment', 'line', 'cell', 'many-args', 'whitespace']);
  const body = (f: string) => `guarantee {\n  ${f};\n}\n`;
  switch (kind) {
    case 'ident':
      return body(`p ${'a'.repeat(n)}`);
    case 'number':
      return body(`[x <- ${'9'.repeat(n)}]`);
    case 'decimal':
      return body(`x < ${'1'.repeat(n / 2)}.${'5'.repeat(n / 2)}`);
    case 'string':
      return `import "${'a'.repeat(n)}.tsl" as A\n${body('p x')}`;
    case 'comment':
      return `/*${'x'.repeat(n)}*/\n${body('p x')}`;
    case 'line-comment':
      return `//${'x'.repeat(n)}\n${body('p x')}`;
    case 'unterminated-comment':
      return `${body('p x')}/*${'x'.repeat(n)}`;
    case 'line':
      return body(Array.from({ length: n / 10 }, (_, i) => `p x${i}`).join(' && '));
    case 'cell':
      return body(`[${'c'.repeat(n)} <- ${'f'.repeat(n)} x]`);
    case 'many-args':
      return body(`p ${Array.from({ length: n / 10 }, (_, i) => `x${i % 50}`).join(' ')}`);
    default:
      return `${' \n\t'.repeat(n / 3)}${body('p x')}`;
  }
}

/** Many formulas, sections, definitions or distinct predicates. */
export function manyTsl(r: Rand): string {
  // 20,000 formulas take seconds through every stage: a quarter of the size cap at most.
  const n = Math.min(r.size([100, 2000, 20_000]), r.cap / 4);
  switch (r.int(4)) {
    case 0:
      return `always guarantee {\n${Array.from({ length: n }, (_, i) => `  p x${i % 13} -> F q y;`).join('\n')}\n}\n`;
    case 1:
      return Array.from({ length: n }, (_, i) => `${i % 2 ? 'always assume' : 'guarantee'} { F p x${i}; }`).join('\n');
    case 2:
      return `${Array.from({ length: n }, (_, i) => `d${i} a = p${i} a;`).join('\n')}\nguarantee { ${Array.from({ length: Math.min(n, 500) }, (_, i) => `d${i} x`).join(' && ')}; }`;
    default:
      return `guarantee {\n${Array.from({ length: n }, (_, i) => `  [c${i} <- f${i} x] || p${i} x;`).join('\n')}\n}\n`;
  }
}

/** The odd files imports point at; made once per campaign in a temporary directory. */
export interface ImportFixtures {
  readonly dir: string;
  /** The path generated specs claim to live at (inside `dir`, not written). */
  readonly specFile: string;
  /** Paths worth importing, relative or absolute. */
  readonly paths: readonly string[];
}

export function makeImportFixtures(): ImportFixtures {
  const dir = mkdtempSync(join(tmpdir(), 'tslc-fuzz-imports-'));
  const write = (name: string, text: string | Buffer) => writeFileSync(join(dir, name), text);
  write('lib.tsl', 'd a = p a;\ne = q x;\nupd a = [x <- f a];\n');
  write('bad.tsl', 'd a = p a &&;\n');
  write('cyc_a.tsl', 'import "cyc_b.tsl" as B\nd = B.d;\n');
  write('cyc_b.tsl', 'import "cyc_a.tsl" as A\nd = A.d;\n');
  write('self.tsl', 'import "self.tsl" as S\nd = p x;\n');
  write('sections.tsl', 'd = p x;\nguarantee { F q y; }\n');
  write('big.tsl', `${'// padding\n'.repeat(100_000)}d = p x;\n`);
  write('bin.tsl', Buffer.from([0x64, 0x20, 0x3d, 0x00, 0xff, 0xfe, 0x3b]));
  write('bom.tsl', '\uFEFFd = p x;\n');
  write('deep.tsl', `d = ${'('.repeat(3000)}p x${')'.repeat(3000)};\n`);
  write('proto.tsl', '__proto__ = p x;\nconstructor a = q a;\ntoString = [x <- f x];\n');
  mkdirSync(join(dir, 'dir.tsl'));
  mkdirSync(join(dir, 'sub'));
  write('sub/nested.tsl', 'import "../lib.tsl" as L\nd = L.d x;\n');
  const links: [string, string][] = [
    ['passwd.tsl', '/etc/passwd'],
    ['zero.tsl', '/dev/zero'],
    ['stdin.tsl', '/dev/stdin'],
    ['environ.tsl', '/proc/self/environ'],
    ['dangling.tsl', join(dir, 'nowhere.tsl')],
    ['loop.tsl', join(dir, 'loop.tsl')],
    ['up.tsl', join(dir, 'lib.tsl')],
  ];
  for (const [name, target] of links) {
    try {
      symlinkSync(target, join(dir, name));
    } catch {
      // No symlinks here (some CI file systems): those paths are then just missing files.
    }
  }
  // A FIFO nobody writes to: reading it would block forever.
  spawnSync('mkfifo', [join(dir, 'fifo.tsl')]);
  const paths = [
    'lib.tsl', './lib.tsl', 'sub/../lib.tsl', 'bad.tsl', 'cyc_a.tsl', 'self.tsl', 'sections.tsl', 'big.tsl', 'bin.tsl', 'bom.tsl', 'deep.tsl',
    'proto.tsl', 'dir.tsl', 'sub/nested.tsl', 'passwd.tsl', 'zero.tsl', 'stdin.tsl', 'environ.tsl', 'dangling.tsl', 'loop.tsl', 'up.tsl',
    'fifo.tsl', 'missing.tsl', '/dev/zero', '/dev/stdin', '/dev/null', '/dev/random', '/etc/passwd', '/proc/self/environ', '/proc/self/fd/0',
    '/proc/self/mem', '/', '.', '..', '', ' ', 'sub', `${'../'.repeat(40)}etc/passwd`, '~/x.tsl', 'C:\\x.tsl', 'a\u0000b.tsl', `${'a'.repeat(5000)}.tsl`,
    `${'d/'.repeat(2000)}x.tsl`, 'lib.tsl/', 'LIB.TSL', 'lib.tsl.tsl', '%2e%2e/lib.tsl', 'file:///etc/passwd', 'http://example.com/x.tsl',
  ];
  return { dir, specFile: join(dir, 'input.tsl'), paths };
}

/** A spec importing one to three odd paths and using their definitions. */
export function importTsl(r: Rand, fixtures: ImportFixtures): string {
  const out: string[] = [];
  const n = 1 + r.int(3);
  for (let i = 0; i < n; i++) out.push(`import "${r.pick(fixtures.paths)}" as ${r.pick(['A', 'B', 'L', 'A', '__proto__', 'constructor'])}`);
  const uses = ['A.d x', 'A.e', 'L.d x', 'B.d', 'A.upd x', 'A.__proto__', '__proto__.d', 'constructor.toString', 'A.nope', 'p x'];
  out.push(`guarantee { ${Array.from({ length: 1 + r.int(3), }, () => r.pick(uses)).join(' && ')}; }`);
  return out.join('\n');
}

export type TslGenerator = 'soup' | 'mutate' | 'grammar' | 'deep' | 'huge' | 'many' | 'imports';

export function tslInput(r: Rand, seeds: readonly string[], fixtures: ImportFixtures): { generator: TslGenerator; text: string } {
  const generator = r.weighted<TslGenerator>([
    [2, 'soup'],
    [8, 'mutate'],
    [4, 'grammar'],
    [1, 'deep'],
    [0.5, 'huge'],
    [0.3, 'many'],
    [1, 'imports'],
  ]);
  switch (generator) {
    case 'soup':
      return { generator, text: soup(r, TSL_ALPHABET, r.logSize(300)) };
    case 'mutate': {
      const base = r.chance(0.2) ? grammarSpec(r) : r.pick(seeds);
      return { generator, text: mutate(base, r, TSL_ALPHABET, seeds) };
    }
    case 'grammar':
      return { generator, text: grammarSpec(r) };
    case 'deep':
      return { generator, text: deepTsl(r) };
    case 'huge':
      return { generator, text: hugeTsl(r) };
    case 'many':
      return { generator, text: manyTsl(r) };
    default:
      return { generator, text: importTsl(r, fixtures) };
  }
}
