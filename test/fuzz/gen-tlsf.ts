/**
 * Generators of `.tlsf` text: mutations of the SYNTCOMP sources (test/fixtures/syntcomp), token
 * soups inside a valid skeleton, random specs with parameters, definitions and big operators, deep
 * nesting, huge parameters and numbers, and recursion bombs (definitions that never reach their
 * base case, or double at every level).
 */
import { type Alphabet, mutate, soup } from './mutate.js';
import type { Rand } from './rand.js';

export const TLSF_ALPHABET: Alphabet = {
  chars: '(){}[];,:<>=!&|+-*/%"._ \n\t\rXFGUWRaz0189\u0000é',
  tokens: [
    '(', ')', '{', '}', '[', ']', ';', ',', ':', '&&', '||', '!', '->', '<->', '^', 'X', 'F', 'G', 'U', 'W', 'R', 'true', 'false', '=', '==', '!=',
    '<', '<=', '>', '>=', '+', '-', '*', '/', '%', 'MIN', 'MAX', 'SIZEOF', 'SIZE', 'MOD', 'DIV', '&&[0 <= i < n]', '||[i <- {1, 2}]', '&&[i IN {}]',
    'n', 'i', 'r[0]', 'g[n]', 'r[n-1]', '0', '1', '2', '-1', '99999999999999999999', 'INPUTS', 'OUTPUTS', 'ASSUME', 'ASSERT', 'GUARANTEE',
    'GUARANTEES', 'INVARIANTS', 'ASSUMPTIONS', 'REQUIRE', 'PRESET', 'INITIALLY', 'MAIN', 'GLOBAL', 'INFO', 'PARAMETERS', 'DEFINITIONS',
    'SEMANTICS:', 'TARGET:', 'TITLE:', 'Mealy', 'Moore', 'Strict', 'Finite', 'enum', '__proto__', 'constructor', 'f(n)', 'f(n-1)', '"s"', '//', '/*', '*/',
  ],
};

const HEAD = 'INFO {\n  TITLE: "fuzz"\n  DESCRIPTION: "generated"\n  SEMANTICS: Mealy\n  TARGET: Mealy\n}\n';

function main(ins: string, outs: string, guarantees: string, extra = ''): string {
  return `MAIN {\n  INPUTS { ${ins} }\n  OUTPUTS { ${outs} }\n${extra}  GUARANTEES {\n    ${guarantees}\n  }\n}\n`;
}

/** A random TLSF formula over the bus `r[n]`, `g[n]` and the booleans `a`, `b`, with big operators. */
function tlsfFormula(r: Rand, depth: number, vars: readonly string[]): string {
  if (depth <= 0 || r.chance(0.25)) {
    const index = vars.length > 0 && r.chance(0.6) ? r.pick(vars) : String(r.int(3));
    return r.weighted<() => string>([
      [3, () => `${r.pick(['r', 'g'])}[${index}]`],
      [2, () => r.pick(['a', 'b'])],
      [1, () => r.pick(['true', 'false'])],
      [1, () => `${index} ${r.pick(['<', '==', '!=', '>='])} ${r.pick(['n', '1', `${index} + 1`])}`],
    ])();
  }
  const sub = (extraVar?: string) => tlsfFormula(r, depth - 1, extraVar ? [...vars, extraVar] : vars);
  return r.weighted<() => string>([
    [3, () => `${r.pick(['!', 'X', 'F', 'G'])} (${sub()})`],
    [5, () => `(${sub()}) ${r.pick(['&&', '||', '->', '<->', 'U', 'W', 'R'])} (${sub()})`],
    [2, () => {
      const v = `i${depth}`;
      return `${r.pick(['&&', '||'])}[${r.pick([`0 <= ${v} < n`, `1 <= ${v} <= n`, `${v} <- {0, 1}`, `${v} IN {0, 2}`, `0 <= ${v} < MIN(n, 3)`])}] (${sub(v)})`;
    }],
    [1, () => `f(${sub()}, ${r.pick(vars.length ? vars : ['0'])})`],
  ])();
}

/** A random spec with parameters, definitions and big operators (mostly well-formed). */
export function grammarTlsf(r: Rand): string {
  const n = r.pick([1, 2, 3, 4]);
  const defs = r.chance(0.5) ? `    f(x, k) = k > 0 : x && X x\n      otherwise : x;\n    s(k) = k + 1;\n` : '';
  const global = `GLOBAL {\n  PARAMETERS { n = ${n}; }\n  DEFINITIONS {\n${defs}    none(bus) = &&[0 <= t < SIZEOF bus] !bus[t];\n  }\n}\n`;
  const parts = Array.from({ length: 1 + r.int(3) }, () => `${tlsfFormula(r, 1 + r.int(4), [])};`);
  const sections = r.chance(0.5) ? `  ASSUMPTIONS { ${tlsfFormula(r, 2, [])}; }\n  INVARIANTS { ${tlsfFormula(r, 2, [])}; }\n` : '';
  return HEAD + global + main('r[n]; a;', 'g[n]; b;', parts.join('\n    '), sections);
}

/** Deep nesting and long chains in formulas, expressions and definitions. */
export function deepTlsf(r: Rand): string {
  const n = r.size([100, 510, 2000, 5100, 20_000, 48_000]);
  const kind = r.pick(['parens', 'not', 'X', 'F', 'G', 'U', 'and', 'implies', 'arith', 'index', 'defs', 'bigop', 'set', 'open'] as const);
  const g = (f: string) => HEAD + main('a;', 'b;', `${f};`);
  switch (kind) {
    case 'parens':
      return g(`${'('.repeat(n)}a -> b${')'.repeat(n)}`);
    case 'not':
      return g(`${'!'.repeat(n)}a`);
    case 'X':
    case 'F':
    case 'G':
      return g(`${kind} `.repeat(n) + 'b');
    case 'U':
      return g(Array.from({ length: n }, () => 'b').join(' U '));
    case 'and':
      return g(Array.from({ length: n }, (_, i) => (i % 2 ? 'a' : 'b')).join(' && '));
    case 'implies':
      return g(`${'a -> '.repeat(n)}b`);
    case 'arith':
      return HEAD + `GLOBAL { PARAMETERS { n = ${'(1 + '.repeat(Math.min(n, 20_000))}1${')'.repeat(Math.min(n, 20_000))}; } }\n` + main('r[2];', 'b;', 'G (r[0] -> b);');
    case 'index':
      return HEAD + main('r[3];', 'b;', `r[${'('.repeat(n)}0${')'.repeat(n)}];`);
    case 'defs': {
      const m = Math.min(n, 5000);
      const defs = Array.from({ length: m }, (_, i) => `d${i} = ${i === m - 1 ? 'a' : `d${i + 1}`};`).join(' ');
      return HEAD + `GLOBAL { DEFINITIONS { ${defs} } }\n` + main('a;', 'b;', 'G (d0 -> b);');
    }
    case 'bigop': {
      const m = Math.min(n, 300);
      const ops = Array.from({ length: m }, (_, i) => `&&[0 <= i${i} < 1] `).join('');
      return HEAD + main('a;', 'b;', `${ops}(a -> b);`);
    }
    case 'set':
      return HEAD + main('r[3];', 'b;', `&&[i <- {${Array.from({ length: Math.min(n, 20_000) }, (_, k) => k % 3).join(', ')}}] r[i];`);
    default:
      return g('('.repeat(n) + 'a');
  }
}

/** Huge parameters, buses, numbers, names and strings. */
export function hugeTlsf(r: Rand): string {
  const big = r.pick(['1000000', '2147483648', '9007199254740993', '99999999999999999999999999', '1e9', String(2 ** 40)]);
  switch (r.int(8)) {
    case 0:
      return HEAD + `GLOBAL { PARAMETERS { n = ${big}; } }\n` + main('r[n];', 'g[n];', '&&[0 <= i < n] G (r[i] -> F g[i]);');
    case 1:
      return HEAD + `GLOBAL { PARAMETERS { n = ${big}; } }\n` + main('a;', 'b;', '&&[0 <= i < n] &&[0 <= j < n] (a -> b);');
    case 2:
      return HEAD + main(`r[${big}];`, 'b;', 'G (r[0] -> b);');
    case 3:
      return HEAD + main('r[4];', 'b;', `G (r[${big}] -> b);`);
    case 4:
      return HEAD + main(`${'a'.repeat(r.pick([1000, 100_000]))};`, 'b;', 'G b;');
    case 5:
      return `INFO { TITLE: "${'t'.repeat(r.pick([1000, 1_000_000]))}" DESCRIPTION: "d" SEMANTICS: Mealy TARGET: Mealy }\n` + main('a;', 'b;', 'G b;');
    case 6:
      return HEAD + main('a;', 'b;', `${'/* x */'.repeat(r.pick([1000, 100_000]))} G b;`);
    default:
      return HEAD + `GLOBAL { PARAMETERS { n = ${big}; } }\n` + main('a;', 'b;', `${r.pick(['n * n * n * n', 'n / 0', 'n % 0', '(0 - n) / 0', 'n - n - n'])} > 0 -> b;`);
  }
}

/** Definitions that recurse without end, double at every level, or recurse mutually. */
export function bombTlsf(r: Rand): string {
  const defs = r.pick([
    'f(k) = f(k + 1);',
    'f(k) = f(k);',
    'f(k) = g(k); g(k) = f(k);',
    'f(k) = k <= 0 : a\n  otherwise : f(k - 1) && f(k - 1);',
    'f(k) = k <= 0 : a\n  otherwise : X f(k - 1) || f(k - 1);',
    'f(k) = k == 0 : a;',
    'f(k) = &&[0 <= i < k] f(i);',
    'd = d;',
    'd = e; e = d;',
    'f(k) = k <= 0 : a\n  otherwise : (&&[0 <= i < 2] f(k - 1));',
  ]);
  const use = defs.startsWith('d') ? 'G (d -> b)' : `G (f(${r.pick(['n', '3', '30', '60', '1000000'])}) -> b)`;
  return HEAD + `GLOBAL { PARAMETERS { n = ${r.pick([5, 20, 40, 100])}; } DEFINITIONS { ${defs} } }\n` + main('a;', 'b;', `${use};`);
}

export type TlsfGenerator = 'mutate' | 'soup' | 'grammar' | 'deep' | 'huge' | 'bomb';

export function tlsfInput(r: Rand, seeds: readonly string[]): { generator: TlsfGenerator; text: string } {
  const generator = r.weighted<TlsfGenerator>([
    [8, 'mutate'],
    [1, 'soup'],
    [3, 'grammar'],
    [1, 'deep'],
    [0.6, 'huge'],
    [0.6, 'bomb'],
  ]);
  switch (generator) {
    case 'mutate':
      return { generator, text: mutate(r.chance(0.2) ? grammarTlsf(r) : r.pick(seeds), r, TLSF_ALPHABET, seeds) };
    case 'soup':
      return { generator, text: HEAD + main('a; r[3];', 'b; g[2];', soup(r, TLSF_ALPHABET, r.logSize(200))) };
    case 'grammar':
      return { generator, text: grammarTlsf(r) };
    case 'deep':
      return { generator, text: deepTlsf(r) };
    case 'huge':
      return { generator, text: hugeTlsf(r) };
    default:
      return { generator, text: bombTlsf(r) };
  }
}
