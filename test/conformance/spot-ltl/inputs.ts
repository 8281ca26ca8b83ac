/**
 * Seeded inputs for the Spot-syntax conformance test: hand-picked lexical corner cases, random
 * formulas printed in many spellings, parenthesisations (minimal, full, extra, none at all) and
 * spacings (none, tabs, line breaks, comments), random token soup, and mutations of valid text.
 * Nothing here decides what an input means: the test compares our reading with Spot's.
 */
import type { LtlNode } from '../../../runtime/ltl/syntax.js';
import { rng } from '../../monitor/helpers.js';

export interface Input {
  readonly family: string;
  readonly input: string;
}

/** Corner cases of Spot's scanner and grammar, each a reason the parser once or could go wrong. */
export const EDGE_CASES: readonly string[] = [
  // letter splitting and atoms that look like operators
  'GFa', 'FGa', 'XXa', 'GF1', 'F0', 'X1a', 'G1 & F0', 'Fire', 'FIRE', 'Fa.b_1', 'F.a', 'F_a', 'Ftrue', 'Ftruea',
  'FALSE', 'False', 'fAlSe', 'TRUE', 'True', 'TRue', 'Truex', 'trueish', 'Falsehood', 'FALSEa', 'falsex', 'xora', 'xor1',
  'Xor', 'Ua', 'U1', 'Ma', 'M', 'U', 'W', 'R', 'V', 'X', 'F', 'G', 'xor', 'first_match', 'first_matchx',
  '.', '..a', '_', 'a.b.', '.a & b', 'a1', '1a', '10', '01', '2', 'a2b', 'aUb', 'aU b', 'a Ub', 'a Wb & c', 'a Rc', 'a Vc',
  'a Mb', 'a Xb', 'a Fb', 'a Gb', 'a UFXb', 'a U FXb', '(a)Ub', '(a)U(b)', 'a U(b)', 'aU(b)', '"a"Ub', '"a"U"b"',
  'a Ua', 'a Ufb', 'a Uxor b', 'b xorc', 'b xor c', 'a xor1', '1Ua', '1 Ua', 'a bFc', 'a trueF', 'a true',
  // constants and trivial identities
  'true', 'false', '1', '0', '!1', '!0', 'a & a', '!!a', 'FFa', 'GGa', 'FGFa', 'X1', 'X0', 'F1', 'G0', 'a | 1',
  '1 U a', 'a U 1', '0 U a', 'a U a', 'a W 0', '1 W a', '0 R a', '1 R a', 'a M 1', '0 M a', 'a xor a', 'a <-> a',
  'a -> a', '1 -> a', 'a -> 0', '0 -> a', 'a xor 1', '1 xor 0', '0 <-> a', 'a & !a', 'a | !a', '(a & b) & (b & a)',
  // precedence and associativity
  'a -> b U c', 'a & b U c', 'a | b & c', 'a xor b & c', 'a | b xor c', 'a -> b -> c', 'a <-> b -> c', 'a -> b <-> c',
  'a <-> b <-> c', 'a U b U c', 'a U b W c', 'a R b M c', 'a W b R c', 'F a U b', '! a U b', 'G a -> F b', 'X a & b',
  'a xor b xor c', 'a & b | c & d', 'a | b -> c & d', '!a & b', '!(a & b)', 'X a U X b', 'a U X b & c',
  'a -> b | c xor d & e U f', 'a U b & c -> d xor e | f', 'F a | G b U c & d', 'a M b M c M d', 'a & b & c & d',
  'a | b | c', '(a | b) | c', 'a | (b | c)', '(a & b) | (c & d)', 'a -> (b -> c)', '(a -> b) -> c',
  // alternative spellings
  '[](a => <>b)', '~a /\\ b \\/ c', 'a && b || c', 'a <=> b', 'a ^ b', 'a V b', 'a + b * c', 'a * b + c', 'a --> b',
  'a <--> b', '() a', '()a', '( ) a', '¬a ∧ b → ◇c', 'a ⊕ b', '○a', '◯a', '□◇a', '⬜a', '◻a', '⋄a', '♢a', 'a ∨ b ∩ c',
  'a ∪ b', 'a ↔ b', 'a ⇔ b', 'a ⇒ b', 'a ⟹ b', 'a ⟶ b', 'a=0', 'a=1', 'a =0', 'a= 0', 'a=0=1', '!a=0', '"x"=0', '(a)=0',
  'a\u0305', 'a \u0304', 'a=0 & b=1', 'a=0Ub=1', 'p=0UFXp=1', '1=0',
  // repetitions
  'X[3] a', 'X [ 2 ] a', 'X[2 ]a', 'X[0]a', 'X[1]', 'X[254] a', 'X[255] a', 'X[99999999999] a', 'X[2]X[3]a',
  'F[1..2] a', 'F[4..2] a', 'F[2] a', 'G[1..] a', 'F[1..$]a', 'G[0:inf] a', 'F[1,2]a', 'F[1to2]a', 'F[007..1]a',
  'F[1..1]a', 'F[0..0]a', 'G[3..3](a&b)', 'F[0..2](a|b)', 'G[0..2](a&b)', 'F[1..2]"a"', 'F\n[1..2]a', 'F[ 1 .. 2 ] a',
  'G[]a', 'X[]a', 'F[]a', 'X[!]a', 'F[1..2!]a', 'X[..2]a', 'F[..2]a', 'F[1...2]a', 'F[1..2 a', 'X[a]b', 'G[2..1] a U b',
  // quoting
  '"a b" & "F"', '"F0"', '""', '"a\\"b"', '"x\\\\y"', '"a\nb"', '"a \n b"', '"  "', '" a"', '"a "', '"\t"', '"a\\ b"',
  '"/*" a', '"/**x"', '"a/*b*/c"', '"abc', '"a\\', '"a\\\nb"', '"\\\\"', '"G" U "F"', '"true"', '"1"',
  // awkward quoted names, for the printers (each must print as text Spot reads back as the name)
  '"TRUE"', '"False" | "xor"', '"first_match"', '"\\ \\ "', '"\\\t"', '"\\/*"', '"\\/**"', '"a\\\r"', '"xor" U "M"', '"F" & "X1"',
  '"a b" -> "c\\"d"', '" lead" & "trail "', '"a\\\\b"', '"U" W "V"', '"constructor" R "__proto__"', 'a U"b"', '"a"b', '"a"Mb', '(a)Xb',
  'F [] a', 'G [ 1 .. 2 ] a', 'X[1]X[1]a', 'a U b=0', '"."', '"1a"', '"a-b"', '"é" & "日本"', '"a\tb"',
  // comments and spacing
  '/* c */ a', '/* a /* b */ c */ x', '/* x', 'a /* x **/', 'a /* //* */', 'a /* /* */', '/**/ a', '/***/ a', '/* */ a',
  'a/**/&b', 'a /*/ b */ & c', 'a\t&b', 'a\n&\nb', 'a\r\n& b', '  a  ', '\n', '', ' ', 'a\u00a0& b', 'a\f& b',
  // errors
  'a &', 'a b', '(a | b', 'a)', '& a', 'G -> a', 'a U', '()', '(', ')', 'a & & b', '!', 'a ! b', 'a ->', '-> a',
  'a - b', 'a = b', 'a # b', '\\', 'a--->b', '{a}', '{a;b}[]->c', 'a;b', 'a:b', '## a', 'first_match(a)', '[]->a',
  'a |-> b', 'a[*]', 'a[+]', 'a[=2]', 'a[->]', 'Ⓧa', 'a**b', '∧', '⊕', '[] a', '[]', '<>', '<> a', '[a]',
];

type Spelling = Readonly<Record<string, readonly string[]>>;
const ASCII: Spelling = {
  '!': ['!', '!', '!', '~'],
  '&': ['&', '&', '&&', '/\\', '*'],
  '|': ['|', '|', '||', '\\/', '+'],
  '->': ['->', '->', '=>', '-->'],
  '<->': ['<->', '<->', '<=>', '<-->'],
  xor: ['xor', 'xor', '^'],
  X: ['X', 'X', 'X', '()', 'X[1]'],
  F: ['F', 'F', 'F', '<>', 'F[0..]'],
  G: ['G', 'G', 'G', '[]', 'G[0:$]'],
  U: ['U'],
  W: ['W'],
  R: ['R', 'R', 'V'],
  M: ['M'],
  true: ['true', '1', 'TRUE', 'True'],
  false: ['false', '0', 'FALSE', 'fAlSe'],
};
const UNICODE: Spelling = {
  ...ASCII,
  '!': ['¬'],
  '&': ['∧', '∩'],
  '|': ['∨', '∪'],
  '->': ['→', '⟶', '⇒', '⟹'],
  '<->': ['↔', '⇔'],
  xor: ['⊕'],
  X: ['○', '◯'],
  F: ['◇', '⋄', '♢'],
  G: ['□', '⬜', '◻'],
};

const BARE_ATOMS = [
  'a', 'b', 'c', 'd', 'a', 'b', 'c', 'p0', 'p1', 'req_1', 'x.y', '.a', '_u', 'Ma', 'Ua', 'Wb', 'Rc', 'Va', 'trueish',
  'xor1', 'F1', 'G0', 'X1a', 'TRUEX', 'Fire', 'FIRE', 'Ga', 'aUb', 'constructor', '__proto__', 'toString', 'valueOf',
  'hasOwnProperty',
];
const QUOTED_ATOMS = ['a b', 'F', 'U', 'true', 'x"y', 'p\\q', ' lead', 'G F', '1', 'xor', 'constructor'];

function quote(name: string): string {
  return `"${name.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)];
}

/** A random tree; atoms are names (printed bare or quoted later), a few constants. */
function randomTree(r: () => number, depth: number): LtlNode {
  if (depth <= 0 || r() < 0.18) {
    const x = r();
    if (x < 0.04) return { op: 'true' };
    if (x < 0.08) return { op: 'false' };
    if (x < 0.2) return { op: 'ap', name: `\u0000${pick(r, QUOTED_ATOMS)}` }; // marked: must be quoted
    return { op: 'ap', name: pick(r, BARE_ATOMS) };
  }
  const op = pick(r, ['!', 'X', 'F', 'G', '&', '|', '&', '|', '->', '<->', 'xor', 'U', 'W', 'R', 'M', 'U'] as const);
  const sub = () => randomTree(r, depth - 1);
  switch (op) {
    case '!':
    case 'X':
    case 'F':
    case 'G':
      return { op, arg: sub() };
    case '&':
    case '|':
      return { op, args: r() < 0.3 ? [sub(), sub(), sub()] : [sub(), sub()] };
    default:
      return { op, left: sub(), right: sub() };
  }
}

function level(n: LtlNode): number {
  switch (n.op) {
    case '->':
    case '<->':
      return 1;
    case '|':
      return 2;
    case 'xor':
      return 3;
    case '&':
      return 4;
    case 'U':
    case 'W':
    case 'R':
    case 'M':
      return 5;
    default:
      return 6;
  }
}

type Parens = 'min' | 'full' | 'extra' | 'none';
interface Style {
  readonly parens: Parens;
  readonly spelling: Spelling;
  readonly gap: () => string;
}

/** Print `n` as tokens in `style`; `tight` asks for parentheses when the operand binds looser. */
function render(r: () => number, n: LtlNode, style: Style): string[] {
  const out: string[] = [];
  const word = (key: string) => pick(r, style.spelling[key]);
  const emit = (m: LtlNode, minLevel: number) => {
    const wrap =
      style.parens === 'full'
        ? level(m) < 6 || (m.op !== 'ap' && m.op !== 'true' && m.op !== 'false' && r() < 0.5)
        : style.parens === 'extra'
          ? level(m) < minLevel || r() < 0.25
          : style.parens === 'min'
            ? level(m) < minLevel
            : false;
    if (wrap) out.push('(');
    switch (m.op) {
      case 'true':
      case 'false':
        out.push(word(m.op));
        break;
      case 'ap': {
        const forced = m.name.startsWith('\u0000');
        const name = forced ? m.name.slice(1) : m.name;
        out.push(forced || r() < 0.15 ? quote(name) : name);
        if (r() < 0.05) out.push('=1');
        break;
      }
      case '!':
        if (m.arg.op === 'ap' && !m.arg.name.startsWith('\u0000') && r() < 0.2) {
          out.push(m.arg.name, '=0');
          break;
        }
        out.push(word('!'));
        emit(m.arg, 6);
        break;
      case 'X':
      case 'F':
      case 'G':
        if (r() < 0.05) out.push(pick(r, ['X[2]', 'F[1..3]', 'G[0..2]', 'F[2..]', 'X[0]']));
        out.push(word(m.op));
        emit(m.arg, 6);
        break;
      case '&':
      case '|':
        m.args.forEach((a, k) => {
          if (k > 0) out.push(word(m.op));
          emit(a, level(m) + 1);
        });
        break;
      default: {
        const l = level(m);
        const rightAssoc = m.op !== 'xor';
        emit(m.left, rightAssoc ? l + 1 : l);
        out.push(word(m.op));
        emit(m.right, rightAssoc ? l : l + 1);
      }
    }
    if (wrap) out.push(')');
  };
  emit(n, 0);
  return out;
}

function join(tokens: readonly string[], gap: () => string): string {
  let s = '';
  tokens.forEach((t, k) => {
    s += (k === 0 ? '' : gap()) + t;
  });
  return s;
}

const GAPS = {
  one: () => ' ',
  none: () => '',
  mixed: (r: () => number) => () => pick(r, [' ', ' ', ' ', '', '', '  ', '\t', '\n', ' /* c */ ', '/*x*/', ' /**/ ', '\r\n']),
};

/** Random formulas printed in random styles, token soup, and mutations: `count` of each family. */
export function generatedInputs(seed: number, perFamily: number): Input[] {
  const r = rng(seed);
  const out: Input[] = [];
  const parenModes: Parens[] = ['min', 'full', 'extra', 'none'];
  for (const parens of parenModes) {
    for (let k = 0; k < perFamily; k++) {
      const tree = randomTree(r, 1 + Math.floor(r() * 5));
      const spacing = pick(r, ['one', 'one', 'none', 'mixed'] as const);
      const gap = spacing === 'mixed' ? GAPS.mixed(r) : GAPS[spacing];
      const style: Style = { parens, spelling: r() < 0.15 ? UNICODE : ASCII, gap };
      out.push({ family: `tree-${parens}-${spacing}`, input: join(render(r, tree, style), gap) });
    }
  }
  const vocab = [
    'a', 'b', 'c', 'Fa', 'GFb', 'aUb', 'p0', '"q r"', '1', '0', 'true', 'FALSE', '!', '~', '&', '&&', '|', '||', '->', '<->',
    '=>', 'xor', '^', 'U', 'W', 'R', 'V', 'M', 'X', 'F', 'G', '[]', '<>', '(', ')', '(', ')', '()', '=0', '*', '+', 'X[2]',
  ];
  for (let k = 0; k < perFamily; k++) {
    const len = 1 + Math.floor(r() * 10);
    const toks = Array.from({ length: len }, () => pick(r, vocab));
    out.push({ family: 'soup', input: join(toks, pick(r, [GAPS.one, GAPS.none, GAPS.mixed(r)])) });
  }
  // Character soup over the letters and symbols Spot's scanner treats specially.
  const chars = [...'FGXUMRVWxortufalsTEAb_.012[]()=*+/\\" !~&|-><^$,:\n\t', ' ', ' '];
  for (let k = 0; k < perFamily; k++) {
    const len = 1 + Math.floor(r() * 9);
    out.push({ family: 'chars', input: Array.from({ length: len }, () => pick(r, chars)).join('') });
  }
  const valid = out.filter((i) => i.family.startsWith('tree-')).map((i) => i.input);
  const alphabet = ['(', ')', '!', '&', '|', '-', '>', '<', 'U', 'X', 'G', 'F', '"', 'a', ' ', '0', '1', '[', ']', '=', '/', '*', 'x'];
  for (let k = 0; k < perFamily; k++) {
    let s = pick(r, valid);
    for (let e = 0; e < 1 + Math.floor(r() * 3); e++) {
      const at = Math.floor(r() * (s.length + 1));
      const x = r();
      if (x < 0.4) s = s.slice(0, at) + pick(r, alphabet) + s.slice(at);
      else if (x < 0.8) s = s.slice(0, at) + s.slice(at + 1);
      else if (at + 1 < s.length) s = s.slice(0, at) + s[at + 1] + s[at] + s.slice(at + 2);
    }
    out.push({ family: 'mutation', input: s });
  }
  return out;
}
