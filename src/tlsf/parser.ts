/**
 * Recursive-descent parser for TLSF 1.1 (the format syfco reads). Operator precedence follows
 * syfco's expression table, tightest first: numeric prefix (`SIZE MIN MAX SIZEOF SUM[] PROD[]`),
 * `*`, `/ %`, `+ -`, big set ops, `SETMINUS`, `CAP`, `CUP`, comparisons, `IN`, LTL prefix
 * (`! X F G X[n] F[a:b] G[a:b] &&[…] ||[…]`), `&&`, `||`, `-> <->` (right), `W` (right),
 * `U` (right), `R` (left), `:` (guards). So in TLSF `a -> b U c` is `(a -> b) U c`.
 */
import { error, UserError } from '../diagnostics/diagnostic.js';
import type { Binding, BinaryOp, Expr, IndexedOp, PrefixOp, SignalDecl, TlsfDocumentAst, TlsfSemantics } from './ast.js';
import { Lexer, type Token } from './lexer.js';

interface BinaryLevel {
  readonly kind: 'binary';
  readonly ops: Readonly<Record<string, BinaryOp>>;
  readonly right: boolean;
}
interface PrefixLevel {
  readonly kind: 'prefix';
  readonly family: 'num' | 'set' | 'ltl';
}
type Level = BinaryLevel | PrefixLevel;

const bin = (ops: Record<string, BinaryOp>, right = false): BinaryLevel => ({ kind: 'binary', ops, right });

/** Loosest first. */
const LEVELS: readonly Level[] = [
  bin({ ':': ':' }),
  bin({ R: 'R' }),
  bin({ U: 'U' }, true),
  bin({ W: 'W' }, true),
  bin({ '->': '->', IMPLIES: '->', '<->': '<->', EQUIV: '<->' }, true),
  bin({ '||': '||', OR: '||' }),
  bin({ '&&': '&&', AND: '&&' }),
  { kind: 'prefix', family: 'ltl' },
  bin({ '<-': 'IN', IN: 'IN', ELEM: 'IN' }),
  bin({
    '==': '==', EQ: '==', '/=': '!=', '!=': '!=', NEQ: '!=',
    '>': '>', GE: '>', '>=': '>=', GEQ: '>=', '<': '<', LE: '<', '<=': '<=', LEQ: '<=',
  }),
  bin({ '(+)': 'CUP', CUP: 'CUP' }),
  bin({ '(*)': 'CAP', CAP: 'CAP' }),
  bin({ '(-)': 'SETMINUS', '(\\)': 'SETMINUS', SETMINUS: 'SETMINUS' }, true),
  { kind: 'prefix', family: 'set' },
  bin({ '+': '+', PLUS: '+', '-': '-', MINUS: '-' }),
  bin({ '/': '/', DIV: '/', '%': '%', MOD: '%' }, true),
  bin({ '*': '*', MUL: '*' }),
  { kind: 'prefix', family: 'num' },
];

/** The level of each binary operator's spelling (every spelling belongs to one level). */
const BINARY_LEVEL_OF: ReadonlyMap<string, number> = new Map(
  LEVELS.flatMap((lvl, k) => (lvl.kind === 'binary' ? Object.keys(lvl.ops).map((text) => [text, k] as const) : [])),
);
/** For each level k, the first prefix level ≥ k (undefined past the last one: a term). */
const NEXT_PREFIX_LEVEL: readonly (number | undefined)[] = LEVELS.map((_, k) => {
  for (let j = k; j < LEVELS.length; j++) if (LEVELS[j].kind === 'prefix') return j;
  return undefined;
});

const PAST_TIME = new Set(['Y', 'H', 'O', 'S', 'T']);
/**
 * Per prefix level, every word that can start one of its prefix forms: any other token goes
 * straight to the next level. Most tokens are plain names, and trying each form in turn for every
 * one of them was most of the parser's time.
 */
const PREFIX_STARTS: Readonly<Record<'num' | 'set' | 'ltl', ReadonlySet<string>>> = {
  ltl: new Set(['!', 'NOT', 'X', 'F', 'G', 'Y', 'H', 'O', '&&', 'AND', 'FORALL', '||', 'OR', 'EXISTS']),
  set: new Set(['(+)', 'CUP', '(*)', 'CAP']),
  num: new Set(['SIZEOF', 'SIZE', 'MIN', 'MAX', '+', 'SUM', '*', 'PROD']),
};
/** Words that can never name a signal, parameter or definition. */
export const RESERVED = new Set([
  'NOT', 'AND', 'OR', 'IMPLIES', 'EQUIV', 'true', 'false', 'PLUS', 'MINUS', 'MUL', 'DIV', 'MOD', 'SIZE', 'MIN',
  'MAX', '_', 'SETMINUS', 'CAP', 'CUP', 'otherwise', 'W', 'U', 'R', 'X', 'G', 'F', 'SUM', 'PROD', 'IN', 'SIZEOF',
  'Y', 'H', 'O', 'S', 'T', 'EQ', 'NEQ', 'LE', 'GE', 'LEQ', 'GEQ', 'ELEM', 'FORALL', 'EXISTS',
]);

const SECTION_ALIASES: Readonly<Record<string, 'initially' | 'preset' | 'require' | 'assume' | 'assert' | 'guarantee'>> = {
  INITIALLY: 'initially',
  PRESET: 'preset',
  REQUIRE: 'require',
  REQUIREMENTS: 'require',
  ASSUME: 'assume',
  ASSUMPTIONS: 'assume',
  ASSERT: 'assert',
  INVARIANTS: 'assert',
  GUARANTEE: 'guarantee',
  GUARANTEES: 'guarantee',
};

export function parseTlsfAst(file: string, text: string): { ast: TlsfDocumentAst; lexer: Lexer } {
  const lexer = new Lexer(file, text);
  const parser = new Parser(lexer);
  return { ast: parser.document(), lexer };
}

class Parser {
  private readonly tokens: readonly Token[];
  private pos = 0;
  constructor(private readonly lexer: Lexer) {
    this.tokens = lexer.all();
  }

  // ---- token helpers -------------------------------------------------------------------------
  private peek(ahead = 0): Token {
    return this.tokens[Math.min(this.pos + ahead, this.tokens.length - 1)];
  }
  private next(): Token {
    const t = this.peek();
    if (this.pos < this.tokens.length - 1) this.pos++;
    return t;
  }
  private is(text: string, ahead = 0): boolean {
    const t = this.peek(ahead);
    return (t.kind === 'punct' || t.kind === 'ident') && t.text === text;
  }
  private endOfPrevious(): number {
    const prev = this.tokens[this.pos - 1];
    return prev ? prev.offset + Math.max(1, prev.kind === 'string' ? prev.text.length + 2 : prev.text.length) : 0;
  }
  private describe(t: Token): string {
    if (t.kind === 'eof') return 'end of file';
    if (t.kind === 'string') return `string "${t.text}"`;
    return `'${t.text}'`;
  }
  private fail(message: string, t: Token = this.peek()): never {
    const length = t.kind === 'eof' ? 1 : t.kind === 'string' ? t.text.length + 2 : t.text.length;
    throw new UserError(error(message, this.lexer.span(t.offset, length), 'parse'));
  }
  private expect(text: string, context: string): Token {
    if (!this.is(text)) this.fail(`expected '${text}' ${context}, found ${this.describe(this.peek())}`);
    return this.next();
  }
  private identifier(context: string): Token {
    const t = this.peek();
    if (t.kind !== 'ident') this.fail(`expected ${context}, found ${this.describe(t)}`);
    if (RESERVED.has(t.text)) this.fail(`'${t.text}' is a reserved word and cannot be used as ${context}`);
    return this.next();
  }

  // ---- document ------------------------------------------------------------------------------
  document(): TlsfDocumentAst {
    if (!this.is('INFO')) this.fail(`expected 'INFO' at the start of a TLSF file, found ${this.describe(this.peek())}`);
    const info = this.info();
    let parameters: Binding[] = [];
    let definitions: Binding[] = [];
    if (this.is('GLOBAL')) ({ parameters, definitions } = this.global());
    if (!this.is('MAIN')) {
      this.fail(`expected ${parameters.length + definitions.length === 0 ? "'GLOBAL' or " : ''}'MAIN', found ${this.describe(this.peek())}`);
    }
    const main = this.main();
    if (this.peek().kind !== 'eof') this.fail(`unexpected ${this.describe(this.peek())} after the MAIN section`);
    return { ...info, parameters, definitions, ...main };
  }

  private info(): Pick<TlsfDocumentAst, 'title' | 'description' | 'semantics' | 'target' | 'tags'> {
    const infoTok = this.next();
    this.expect('{', "after 'INFO'");
    let title: string | undefined;
    let description: string | undefined;
    let semantics: TlsfSemantics | undefined;
    let target: 'mealy' | 'moore' | undefined;
    const tags: string[] = [];
    while (!this.is('}')) {
      const key = this.peek();
      if (key.kind !== 'ident') this.fail(`expected an INFO field (TITLE, DESCRIPTION, SEMANTICS, TARGET, TAGS) or '}', found ${this.describe(key)}`);
      this.next();
      this.expect(':', `after '${key.text}'`);
      switch (key.text) {
        case 'TITLE':
          title = this.string('the title');
          break;
        case 'DESCRIPTION':
          description = this.string('the description');
          break;
        case 'SEMANTICS': {
          const kind = this.mealyMoore('SEMANTICS');
          let strict = false;
          if (this.is(',')) {
            this.next();
            const s = this.peek();
            if (!(s.kind === 'ident' && s.text === 'Strict')) this.fail(`expected 'Strict' after ',', found ${this.describe(s)}`);
            this.next();
            strict = true;
          }
          semantics = strict ? (`${kind}-strict` as const) : kind;
          break;
        }
        case 'TARGET':
          target = this.mealyMoore('TARGET');
          break;
        case 'TAGS':
          do {
            if (this.is(',')) this.next();
            const t = this.peek();
            if (t.kind !== 'string' && t.kind !== 'ident') this.fail(`expected a tag, found ${this.describe(t)}`);
            tags.push(this.next().text);
          } while (this.is(','));
          break;
        default:
          this.fail(`unknown INFO field '${key.text}' (expected TITLE, DESCRIPTION, SEMANTICS, TARGET or TAGS)`, key);
      }
    }
    this.next();
    if (semantics === undefined) this.fail("the INFO section has no SEMANTICS field (Mealy, Moore, 'Mealy,Strict' or 'Moore,Strict')", infoTok);
    if (target === undefined) this.fail('the INFO section has no TARGET field (Mealy or Moore)', infoTok);
    return { title, description, semantics, target, tags };
  }

  private string(what: string): string {
    const t = this.peek();
    if (t.kind !== 'string') this.fail(`expected ${what} as a double-quoted string, found ${this.describe(t)}`);
    return this.next().text;
  }

  private mealyMoore(field: string): 'mealy' | 'moore' {
    const t = this.peek();
    if (t.kind === 'ident' && (t.text === 'Mealy' || t.text === 'Moore')) {
      this.next();
      return t.text === 'Mealy' ? 'mealy' : 'moore';
    }
    return this.fail(`expected Mealy or Moore for ${field}, found ${this.describe(t)}`);
  }

  private global(): { parameters: Binding[]; definitions: Binding[] } {
    this.next();
    this.expect('{', "after 'GLOBAL'");
    const parameters: Binding[] = [];
    const definitions: Binding[] = [];
    while (!this.is('}')) {
      const t = this.peek();
      if (this.is('PARAMETERS')) {
        this.next();
        parameters.push(...this.bindings('PARAMETERS'));
      } else if (this.is('DEFINITIONS')) {
        this.next();
        definitions.push(...this.bindings('DEFINITIONS'));
      } else this.fail(`expected 'PARAMETERS', 'DEFINITIONS' or '}' in GLOBAL, found ${this.describe(t)}`);
    }
    this.next();
    return { parameters, definitions };
  }

  private bindings(section: string): Binding[] {
    this.expect('{', `after '${section}'`);
    const out: Binding[] = [];
    while (!this.is('}')) {
      if (this.is(';')) {
        this.next();
        continue;
      }
      if (this.is('enum')) this.fail('enum definitions are not supported by tslc (use buses and plain signals)');
      const nameTok = this.identifier(`a name in ${section}`);
      const params: string[] = [];
      if (this.is('(')) {
        this.next();
        while (!this.is(')')) {
          params.push(this.identifier('a parameter name').text);
          if (!this.is(',')) break;
          this.next();
        }
        this.expect(')', 'to close the parameter list');
      }
      this.expect('=', `after '${nameTok.text}' in ${section}`);
      const alternatives: Expr[] = [this.expr()];
      while (!this.is(';') && !this.is('}') && this.peek().kind !== 'eof') alternatives.push(this.expr());
      if (this.is(';')) this.next();
      else if (!this.is('}')) this.fail(`expected ';' after the definition of '${nameTok.text}', found ${this.describe(this.peek())}`);
      out.push({ name: nameTok.text, params, alternatives, start: nameTok.offset, end: this.endOfPrevious() });
    }
    this.next();
    return out;
  }

  private main(): Pick<TlsfDocumentAst, 'inputs' | 'outputs' | 'initially' | 'preset' | 'require' | 'assume' | 'assert' | 'guarantee'> {
    this.next();
    this.expect('{', "after 'MAIN'");
    const inputs: SignalDecl[] = [];
    const outputs: SignalDecl[] = [];
    const parts = { initially: [] as Expr[], preset: [] as Expr[], require: [] as Expr[], assume: [] as Expr[], assert: [] as Expr[], guarantee: [] as Expr[] };
    while (!this.is('}')) {
      const t = this.peek();
      if (t.kind !== 'ident') this.fail(`expected a MAIN section (INPUTS, OUTPUTS, ASSUME, GUARANTEE, …) or '}', found ${this.describe(t)}`);
      if (t.text === 'INPUTS' || t.text === 'OUTPUTS') {
        this.next();
        (t.text === 'INPUTS' ? inputs : outputs).push(...this.signals(t.text));
        continue;
      }
      const section = SECTION_ALIASES[t.text];
      if (!section) {
        this.fail(`unknown MAIN section '${t.text}' (expected INPUTS, OUTPUTS, INITIALLY, PRESET, REQUIRE, ASSUME, ASSERT or GUARANTEE)`);
      }
      this.next();
      this.expect('{', `after '${t.text}'`);
      while (!this.is('}')) {
        if (this.is(';')) {
          this.next();
          continue;
        }
        if (this.peek().kind === 'eof') this.fail(`missing '}' to close ${t.text}`);
        parts[section].push(this.expr());
        if (!this.is(';') && !this.is('}')) this.fail(`expected ';' after a formula in ${t.text}, found ${this.describe(this.peek())}`);
      }
      this.next();
    }
    this.next();
    return { inputs, outputs, ...parts };
  }

  private signals(section: string): SignalDecl[] {
    this.expect('{', `after '${section}'`);
    const out: SignalDecl[] = [];
    while (!this.is('}')) {
      if (this.is(';')) {
        this.next();
        continue;
      }
      const nameTok = this.identifier(`a signal name in ${section}`);
      if (this.peek().kind === 'ident') this.fail(`typed (enum) signals are not supported by tslc; expected ';' after '${nameTok.text}'`);
      let width: Expr | undefined;
      if (this.is('[')) {
        this.next();
        width = this.expr();
        this.expect(']', 'to close the bus width');
      }
      out.push({ name: nameTok.text, width, start: nameTok.offset, end: this.endOfPrevious() });
      if (!this.is(';') && !this.is('}')) this.fail(`expected ';' after the signal '${nameTok.text}', found ${this.describe(this.peek())}`);
    }
    this.next();
    return out;
  }

  // ---- expressions ---------------------------------------------------------------------------
  expr(): Expr {
    return this.level(0);
  }

  /**
   * An expression whose operators bind at least as tightly as level k, by precedence climbing:
   * the operand is parsed once at the first prefix level from k on, then binary operators of
   * levels ≥ k are folded in (descending through every level for every name was most of the
   * parser's time). Right-associative levels parse their right side at their own level.
   */
  private level(k: number): Expr {
    const p = NEXT_PREFIX_LEVEL[k];
    let left = p === undefined ? this.term() : this.prefix(p, (LEVELS[p] as PrefixLevel).family);
    for (;;) {
      const t = this.peek();
      if (t.kind === 'ident' && (t.text === 'S' || t.text === 'T')) {
        this.fail(`past-time operator '${t.text}' is not supported (TLSF 1.1 is future-time LTL)`);
      }
      if (t.kind !== 'punct' && t.kind !== 'ident') return left;
      const at = BINARY_LEVEL_OF.get(t.text);
      if (at === undefined || at < k) return left;
      const lvl = LEVELS[at] as BinaryLevel;
      this.next();
      const right = lvl.right ? this.level(at) : this.level(at + 1);
      left = { kind: 'binary', op: lvl.ops[t.text], left, right, start: left.start, end: right.end };
    }
  }

  private prefix(k: number, family: 'num' | 'set' | 'ltl'): Expr {
    const t = this.peek();
    if (!((t.kind === 'punct' || t.kind === 'ident') && PREFIX_STARTS[family].has(t.text))) return this.level(k + 1);
    const start = t.offset;
    if (family === 'ltl') {
      if (this.is('!') || this.is('NOT')) {
        this.next();
        return this.wrapPrefix('!', this.prefix(k, family), start);
      }
      if (t.kind === 'ident' && (t.text === 'X' || t.text === 'F' || t.text === 'G')) {
        this.next();
        if (this.is('[')) return this.indexed(t.text, k, family, start);
        return this.wrapPrefix(t.text, this.prefix(k, family), start);
      }
      if (t.kind === 'ident' && (t.text === 'Y' || t.text === 'H' || t.text === 'O')) {
        this.fail(`past-time operator '${t.text}' is not supported (TLSF 1.1 is future-time LTL)`);
      }
      for (const [word, op] of [['&&', '&&'], ['AND', '&&'], ['FORALL', '&&'], ['||', '||'], ['OR', '||'], ['EXISTS', '||']] as const) {
        if (this.is(word) && this.is('[', 1)) {
          this.next();
          return this.indexed(op, k, family, start);
        }
      }
    } else if (family === 'set') {
      for (const [word, op] of [['(+)', 'CUP'], ['CUP', 'CUP'], ['(*)', 'CAP'], ['CAP', 'CAP']] as const) {
        if (this.is(word) && this.is('[', 1)) {
          this.next();
          return this.indexed(op, k, family, start);
        }
      }
    } else {
      for (const word of ['SIZEOF', 'SIZE', 'MIN', 'MAX'] as const) {
        if (this.is(word)) {
          this.next();
          return this.wrapPrefix(word, this.prefix(k, family), start);
        }
      }
      for (const [word, op] of [['+', 'SUM'], ['SUM', 'SUM'], ['*', 'PROD'], ['PROD', 'PROD']] as const) {
        if (this.is(word) && this.is('[', 1)) {
          this.next();
          return this.indexed(op, k, family, start);
        }
      }
    }
    return this.level(k + 1);
  }

  private wrapPrefix(op: PrefixOp, arg: Expr, start: number): Expr {
    return { kind: 'prefix', op, arg, start, end: arg.end };
  }

  private indexed(op: IndexedOp, k: number, family: 'num' | 'set' | 'ltl', start: number): Expr {
    this.expect('[', `after '${op}'`);
    const params: Expr[] = [];
    if (!this.is(']')) {
      params.push(this.expr());
      while (this.is(',')) {
        this.next();
        params.push(this.expr());
      }
    }
    this.expect(']', `to close the '${op}[' bracket`);
    const arg = this.prefix(k, family);
    return { kind: 'indexed', op, params, arg, start, end: arg.end };
  }

  private term(): Expr {
    const t = this.peek();
    const start = t.offset;
    if (t.kind === 'number') {
      this.next();
      const value = Number(t.text);
      if (!Number.isSafeInteger(value)) this.fail(`number ${t.text} is too large`, t);
      return { kind: 'number', value, start, end: start + t.text.length };
    }
    if (t.kind === 'punct') {
      if (t.text === '(') {
        this.next();
        const inner = this.expr();
        this.expect(')', `to close the '(' at ${t.line}:${t.col}`);
        return { ...inner, start, end: this.endOfPrevious() };
      }
      if (t.text === '{') return this.set();
      if (t.text === '|') {
        this.next();
        const arg = this.expr();
        this.expect('|', 'to close the set size |…|');
        return { kind: 'size', arg, start, end: this.endOfPrevious() };
      }
    }
    if (t.kind === 'ident') {
      if (t.text === 'true' || t.text === 'false') {
        this.next();
        return { kind: 'bool', value: t.text === 'true', start, end: start + t.text.length };
      }
      if (t.text === 'otherwise') {
        this.next();
        return { kind: 'otherwise', start, end: start + t.text.length };
      }
      if (PAST_TIME.has(t.text)) this.fail(`past-time operator '${t.text}' is not supported (TLSF 1.1 is future-time LTL)`);
      if (RESERVED.has(t.text)) this.fail(`expected an operand, found the operator '${t.text}'`);
      this.next();
      const nameEnd = start + t.text.length;
      if (this.is('(')) {
        this.next();
        const args: Expr[] = [];
        if (!this.is(')')) {
          args.push(this.expr());
          while (this.is(',')) {
            this.next();
            args.push(this.expr());
          }
        }
        this.expect(')', `to close the arguments of '${t.text}'`);
        return { kind: 'call', name: t.text, nameEnd, args, start, end: this.endOfPrevious() };
      }
      if (this.is('[')) {
        this.next();
        const index = this.expr();
        this.expect(']', `to close the index of '${t.text}'`);
        return { kind: 'index', name: t.text, nameEnd, index, start, end: this.endOfPrevious() };
      }
      return { kind: 'id', name: t.text, start, end: nameEnd };
    }
    if (t.kind === 'eof') this.fail('unexpected end of file: expected an operand');
    return this.fail(`expected an operand, found ${this.describe(t)}`);
  }

  private set(): Expr {
    const open = this.next();
    const start = open.offset;
    if (this.is('}')) {
      this.next();
      return { kind: 'set', items: [], start, end: this.endOfPrevious() };
    }
    const first = this.expr();
    if (this.is('..')) {
      this.next();
      const last = this.expr();
      this.expect('}', 'to close the range');
      return { kind: 'range', first, last, start, end: this.endOfPrevious() };
    }
    const items = [first];
    while (this.is(',')) {
      this.next();
      items.push(this.expr());
      if (items.length === 2 && this.is('..')) {
        this.next();
        const last = this.expr();
        this.expect('}', 'to close the range');
        return { kind: 'range', first, second: items[1], last, start, end: this.endOfPrevious() };
      }
    }
    this.expect('}', `to close the set opened at ${open.line}:${open.col}`);
    return { kind: 'set', items, start, end: this.endOfPrevious() };
  }
}
