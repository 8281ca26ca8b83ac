/**
 * Comparing our reading of a formula with Spot's, for the Spot-syntax conformance test.
 *
 * - `readSpotFull` reads what `ltlfilt -p` prints (every operand of a binary operator and every
 *   argument of a prefix operator in parentheses). It shares no code with runtime/ltl, so a
 *   lexing or precedence bug there cannot hide in the reference side.
 * - `spotNormal` applies to our tree exactly the rewrites Spot's formula constructors apply while
 *   parsing (spot/tl/formula.cc: `fnode::unop`, `binop`, `multop`), and puts the operands of the
 *   commutative operators (`&`, `|`, `xor`, `<->`) in one canonical order. Spot prints the formula
 *   it built, so `a & a`, `!!a`, `FFa`, `1 U a`… come back as `a`, `a`, `F(a)`, `(1) U (a)`; our
 *   parser keeps the text's structure. Comparing `key(spotNormal(ours))` with
 *   `key(spotNormal(spot))` therefore tests the *reading* (precedence, associativity, lexing) and
 *   nothing else. The rewrites are all equivalences, so two trees with the same key mean the same.
 * - `distinguishingWord` looks for a lasso word on which two readings differ, for messages.
 */
import type { LtlNode } from '../../../runtime/ltl/syntax.js';
import { evalLasso, type Letter, rng } from '../../monitor/helpers.js';

/** Read `ltlfilt -p` output. Throws on anything else (so a format surprise is loud). */
export function readSpotFull(text: string): LtlNode {
  const toks: { t: string; quoted?: boolean }[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === ' ' || c === '\n') {
      i++;
    } else if (c === '(' || c === ')' || c === '!') {
      toks.push({ t: c });
      i++;
    } else if (c === '"') {
      let s = '';
      i++;
      while (text[i] !== '"') {
        if (i >= text.length) throw new Error(`unterminated quote in Spot output: ${text}`);
        if (text[i] === '\\') i++;
        s += text[i++];
      }
      i++;
      toks.push({ t: s, quoted: true });
    } else {
      let j = i;
      while (j < text.length && !' \n()!"'.includes(text[j])) j++;
      toks.push({ t: text.slice(i, j) });
      i = j;
    }
  }
  let pos = 0;
  const BIN = new Map<string, '&' | '|' | 'xor' | '->' | '<->' | 'U' | 'R' | 'W' | 'M'>([
    ['&', '&'],
    ['|', '|'],
    ['xor', 'xor'],
    ['->', '->'],
    ['<->', '<->'],
    ['U', 'U'],
    ['R', 'R'],
    ['W', 'W'],
    ['M', 'M'],
  ]);
  const operand = (): LtlNode => {
    const tk = toks[pos++];
    if (tk === undefined) throw new Error(`Spot output ended early: ${text}`);
    if (tk.quoted) return { op: 'ap', name: tk.t };
    if (tk.t === '(') {
      const e = expr();
      if (toks[pos++]?.t !== ')') throw new Error(`expected ')' in Spot output: ${text}`);
      return e;
    }
    if (tk.t === '!') return { op: '!', arg: operand() };
    if (tk.t === 'X' || tk.t === 'F' || tk.t === 'G') return { op: tk.t, arg: operand() };
    if (tk.t === '1') return { op: 'true' };
    if (tk.t === '0') return { op: 'false' };
    if (tk.t === ')') throw new Error(`unexpected ')' in Spot output: ${text}`);
    // Any other word is an atom, even `xor`: Spot 2.12.1 prints atoms `xor` and `first_match`
    // bare (text its own parser then rejects), and a binary operator cannot start an operand.
    return { op: 'ap', name: tk.t };
  };
  const expr = (): LtlNode => {
    const first = operand();
    const next = toks[pos];
    const op = next && !next.quoted ? BIN.get(next.t) : undefined;
    if (op === undefined) return first;
    const args = [first];
    while (toks[pos] && !toks[pos].quoted && toks[pos].t === next.t) {
      pos++;
      args.push(operand());
    }
    if (op === '&' || op === '|') return { op, args };
    if (args.length !== 2) throw new Error(`chained '${op}' without parentheses in Spot output: ${text}`);
    return { op, left: args[0], right: args[1] };
  };
  const f = expr();
  if (pos !== toks.length) throw new Error(`trailing text in Spot output: ${text}`);
  return f;
}

const T: LtlNode = { op: 'true' };
const FF: LtlNode = { op: 'false' };

/** A canonical string for a normalised tree (operands of commutative operators already sorted). */
export function key(n: LtlNode): string {
  switch (n.op) {
    case 'true':
      return '1';
    case 'false':
      return '0';
    case 'ap':
      return JSON.stringify(n.name);
    case '!':
    case 'X':
    case 'F':
    case 'G':
      return `${n.op}(${key(n.arg)})`;
    case '&':
    case '|':
      return `(${n.args.map(key).join(` ${n.op} `)})`;
    default:
      return `(${key(n.left)} ${n.op} ${key(n.right)})`;
  }
}

/** Spot's construction-time rewrites, bottom-up, with canonical operand order. */
export function spotNormal(root: LtlNode): LtlNode {
  const memo = new Map<LtlNode, LtlNode>();
  const isT = (n: LtlNode) => n.op === 'true';
  const isF = (n: LtlNode) => n.op === 'false';
  const same = (a: LtlNode, b: LtlNode) => key(a) === key(b);
  const not = (f: LtlNode): LtlNode => (isT(f) ? FF : isF(f) ? T : f.op === '!' ? f.arg : { op: '!', arg: f });
  const multop = (op: '&' | '|', kids: readonly LtlNode[]): LtlNode => {
    const neutral = op === '&' ? 'true' : 'false';
    const absorbing = op === '&' ? 'false' : 'true';
    const flat = kids.flatMap((k) => (k.op === op ? k.args : [k]));
    if (flat.some((k) => k.op === absorbing)) return { op: absorbing };
    const byKey = new Map<string, LtlNode>();
    for (const k of flat) if (k.op !== neutral) byKey.set(key(k), k);
    const args = [...byKey.keys()].sort().map((k) => byKey.get(k)!);
    if (args.length === 0) return { op: neutral };
    if (args.length === 1) return args[0];
    return { op, args };
  };
  const sorted = (a: LtlNode, b: LtlNode): [LtlNode, LtlNode] => (key(a) <= key(b) ? [a, b] : [b, a]);
  const binop = (op: '->' | '<->' | 'xor' | 'U' | 'W' | 'R' | 'M', a: LtlNode, b: LtlNode): LtlNode => {
    switch (op) {
      case 'xor': {
        if (isT(a) || isT(b)) return not(isT(a) ? b : a);
        if (isF(a) || isF(b)) return isF(a) ? b : a;
        if (same(a, b)) return FF;
        const [l, r] = sorted(a, b);
        return { op, left: l, right: r };
      }
      case '<->': {
        if (isF(a) || isF(b)) return not(isF(a) ? b : a);
        if (isT(a) || isT(b)) return isT(a) ? b : a;
        if (same(a, b)) return T;
        const [l, r] = sorted(a, b);
        return { op, left: l, right: r };
      }
      case '->':
        if (isT(a)) return b;
        if (isF(a)) return T;
        if (isT(b)) return T;
        if (isF(b)) return not(a);
        if (same(a, b)) return T;
        return { op, left: a, right: b };
      case 'U':
        if (isT(b) || isF(b) || isF(a) || same(a, b)) return b;
        return { op, left: a, right: b };
      case 'W':
        if (isT(b) || isF(a) || same(a, b)) return b;
        if (isT(a)) return T;
        return { op, left: a, right: b };
      case 'R':
        if (isT(b) || isF(b) || isT(a) || same(a, b)) return b;
        return { op, left: a, right: b };
      case 'M':
        if (isF(b) || isT(a) || same(a, b)) return b;
        if (isF(a)) return FF;
        return { op, left: a, right: b };
    }
  };
  const go = (n: LtlNode): LtlNode => {
    const hit = memo.get(n);
    if (hit) return hit;
    let out: LtlNode;
    switch (n.op) {
      case 'true':
      case 'false':
      case 'ap':
        out = n;
        break;
      case '!':
        out = not(go(n.arg));
        break;
      case 'X': {
        const a = go(n.arg);
        out = isT(a) ? a : { op: 'X', arg: a }; // X(1) = 1, but not X(0) = 0 (finite semantics)
        break;
      }
      case 'F':
      case 'G': {
        const a = go(n.arg);
        out = isT(a) || isF(a) || a.op === n.op ? a : { op: n.op, arg: a };
        break;
      }
      case '&':
      case '|':
        out = multop(n.op, n.args.map(go));
        break;
      default:
        out = binop(n.op, go(n.left), go(n.right));
    }
    memo.set(n, out);
    return out;
  };
  return go(root);
}

function atomsOf(n: LtlNode, out: Set<string>): Set<string> {
  switch (n.op) {
    case 'true':
    case 'false':
      return out;
    case 'ap':
      out.add(n.name);
      return out;
    case '!':
    case 'X':
    case 'F':
    case 'G':
      return atomsOf(n.arg, out);
    case '&':
    case '|':
      for (const a of n.args) atomsOf(a, out);
      return out;
    default:
      atomsOf(n.left, out);
      return atomsOf(n.right, out);
  }
}

/** A lasso word (shown as `prefix (loop)^ω`) on which `a` and `b` differ, if a random search finds one. */
export function distinguishingWord(a: LtlNode, b: LtlNode, tries = 400): string | null {
  const aps = [...atomsOf(b, atomsOf(a, new Set()))].sort();
  const r = rng(0x5eed);
  const letter = (): Letter => new Set(aps.filter(() => r() < 0.5));
  for (let t = 0; t < tries; t++) {
    const prefix = Array.from({ length: Math.floor(r() * 3) }, letter);
    const loop = Array.from({ length: 1 + Math.floor(r() * 3) }, letter);
    if (evalLasso(a, prefix, loop) !== evalLasso(b, prefix, loop)) {
      const show = (l: Letter) => `{${[...l].join(',')}}`;
      return `${prefix.map(show).join(' ')} (${loop.map(show).join(' ')})^ω`.trim();
    }
  }
  return null;
}
