/**
 * The TLSF document: INFO, GLOBAL (PARAMETERS, DEFINITIONS) and MAIN sections, read as syfco's
 * parser reads them (Reader/Parser/*.hs). Expressions are parsed by expr-parser.ts, without
 * recursion. Sections may repeat (their contents accumulate, as in syfco).
 */
import { error, UserError } from '../diagnostics/diagnostic.js';
import type { Binding, EnumDecl, Expr, SignalDecl, TlsfDocumentAst, TlsfSemantics } from './ast.js';
import { parseExpression, RESERVED, type TokenCursor } from './expr-parser.js';
import { Lexer, type Token } from './lexer.js';

type SectionName = 'initially' | 'preset' | 'require' | 'assume' | 'assert' | 'guarantee';
/** A Map, not an object: section names come from the user (`constructor` must not match). */
const SECTION_ALIASES: ReadonlyMap<string, SectionName> = new Map([
  ['INITIALLY', 'initially'],
  ['PRESET', 'preset'],
  ['REQUIRE', 'require'],
  ['REQUIREMENTS', 'require'],
  ['ASSUME', 'assume'],
  ['ASSUMPTIONS', 'assume'],
  ['ASSERT', 'assert'],
  ['INVARIANTS', 'assert'],
  ['GUARANTEE', 'guarantee'],
  ['GUARANTEES', 'guarantee'],
]);

export function parseTlsfAst(file: string, text: string): { ast: TlsfDocumentAst; lexer: Lexer } {
  const lexer = new Lexer(file, text);
  const parser = new Parser(lexer);
  return { ast: parser.document(), lexer };
}

class Parser implements TokenCursor {
  private readonly tokens: readonly Token[];
  private pos = 0;
  constructor(readonly lexer: Lexer) {
    this.tokens = lexer.all();
  }

  // ---- token helpers -------------------------------------------------------------------------
  peek(ahead = 0): Token {
    return this.tokens[Math.min(this.pos + ahead, this.tokens.length - 1)];
  }
  next(): Token {
    const t = this.peek();
    if (this.pos < this.tokens.length - 1) this.pos++;
    return t;
  }
  private is(text: string, ahead = 0): boolean {
    const t = this.peek(ahead);
    return (t.kind === 'punct' || t.kind === 'ident') && t.text === text;
  }
  private endOfPrevious(): number {
    return this.tokens[this.pos - 1]?.end ?? 0;
  }
  private describe(t: Token): string {
    if (t.kind === 'eof') return 'end of file';
    if (t.kind === 'string') return `string "${t.text}"`;
    return `'${t.text}'`;
  }
  private fail(message: string, t: Token = this.peek()): never {
    throw new UserError(error(message, this.lexer.span(t.offset, Math.max(1, t.end - t.offset)), 'parse'));
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
    const hasGlobal = this.is('GLOBAL');
    const global = hasGlobal ? this.global() : { parameters: [], definitions: [], enums: [] };
    if (!this.is('MAIN')) this.fail(`expected ${hasGlobal ? '' : "'GLOBAL' or "}'MAIN', found ${this.describe(this.peek())}`);
    const main = this.main();
    if (this.peek().kind !== 'eof') this.fail(`unexpected ${this.describe(this.peek())} after the MAIN section`);
    return { ...info, ...global, ...main };
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
        case 'SEMANTICS':
          semantics = this.semantics();
          break;
        case 'TARGET':
          target = this.mealyMoore('TARGET');
          break;
        case 'TAGS':
          // syfco reads comma-separated identifiers; strings are accepted too.
          if (this.peek().kind === 'string' || this.peek().kind === 'ident') {
            tags.push(this.next().text);
            while (this.is(',')) {
              this.next();
              const t = this.peek();
              if (t.kind !== 'string' && t.kind !== 'ident') this.fail(`expected a tag, found ${this.describe(t)}`);
              tags.push(this.next().text);
            }
          }
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

  /**
   * `Mealy`, `Moore`, optionally with `Strict` or `Finite`, in either order (`Strict,Mealy` too,
   * as syfco allows). Finite-trace semantics (SYNTCOMP's `tlsf-fin` track) is refused: reading
   * such a file as infinite-trace LTL would give its formulas another meaning.
   */
  private semantics(): TlsfSemantics {
    const words = ['Mealy', 'Moore', 'Strict', 'Finite'];
    const first = this.peek();
    const read = (expected: string): string => {
      const t = this.peek();
      if (!(t.kind === 'ident' && words.includes(t.text))) this.fail(`expected ${expected}, found ${this.describe(t)}`);
      return this.next().text;
    };
    const given = [read('Mealy or Moore for SEMANTICS')];
    if (this.is(',')) {
      this.next();
      given.push(read(given[0] === 'Mealy' || given[0] === 'Moore' ? "'Strict' after ','" : "Mealy or Moore after ','"));
    }
    if (given.includes('Finite')) {
      throw new UserError(
        error(
          `finite-trace semantics (SEMANTICS: ${given.join(',')}) is not supported: tslc reads TLSF with infinite-trace semantics only (Mealy, Moore, Mealy,Strict, Moore,Strict)`,
          this.lexer.span(first.offset, this.endOfPrevious() - first.offset),
          'finite-semantics',
        ),
      );
    }
    const kinds = given.filter((w) => w === 'Mealy' || w === 'Moore');
    if (kinds.length !== 1 || given.length - kinds.length > 1) {
      this.fail(`SEMANTICS must be Mealy or Moore, optionally with Strict (found ${given.join(',')})`, first);
    }
    const strict = given.includes('Strict');
    return kinds[0] === 'Mealy' ? (strict ? 'mealy-strict' : 'mealy') : strict ? 'moore-strict' : 'moore';
  }

  private mealyMoore(field: string): 'mealy' | 'moore' {
    const t = this.peek();
    if (t.kind === 'ident' && (t.text === 'Mealy' || t.text === 'Moore')) {
      this.next();
      return t.text === 'Mealy' ? 'mealy' : 'moore';
    }
    return this.fail(`expected Mealy or Moore for ${field}, found ${this.describe(t)}`);
  }

  private global(): { parameters: Binding[]; definitions: Binding[]; enums: EnumDecl[] } {
    this.next();
    this.expect('{', "after 'GLOBAL'");
    const parameters: Binding[] = [];
    const definitions: Binding[] = [];
    const enums: EnumDecl[] = [];
    while (!this.is('}')) {
      const t = this.peek();
      if (this.is('PARAMETERS')) {
        this.next();
        parameters.push(...this.bindings('PARAMETERS'));
      } else if (this.is('DEFINITIONS')) {
        this.next();
        definitions.push(...this.bindings('DEFINITIONS', enums));
      } else this.fail(`expected 'PARAMETERS', 'DEFINITIONS' or '}' in GLOBAL, found ${this.describe(t)}`);
    }
    this.next();
    return { parameters, definitions, enums };
  }

  private bindings(section: string, enums?: EnumDecl[]): Binding[] {
    this.expect('{', `after '${section}'`);
    const out: Binding[] = [];
    while (!this.is('}')) {
      if (this.is(';')) {
        this.next();
        continue;
      }
      if (this.is('enum')) {
        if (!enums) this.fail('an enum is defined in DEFINITIONS, not in PARAMETERS');
        enums.push(this.enumeration());
        if (this.is(';')) this.next();
        else if (!this.is('}')) this.fail(`expected ';' after the enum, found ${this.describe(this.peek())}`);
        continue;
      }
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

  /** `enum name = value: code[, code…] value: code …` (codes over 0, 1 and *; see EnumDecl). */
  private enumeration(): EnumDecl {
    const start = this.next().offset;
    const name = this.identifier('the name of the enum').text;
    this.expect('=', `after 'enum ${name}'`);
    const values: Array<EnumDecl['values'][number]> = [];
    let width: number | undefined;
    do {
      const v = this.identifier(`a value name of enum '${name}'`);
      this.expect(':', `after the value '${v.text}'`);
      const codes = [this.code(v.text, width)];
      width ??= codes[0].length;
      while (this.is(',')) {
        this.next();
        codes.push(this.code(v.text, width));
      }
      values.push({ name: v.text, start: v.offset, codes });
    } while (this.peek().kind === 'ident');
    return { name, values, start, end: this.endOfPrevious() };
  }

  /**
   * One code, read from the source characters (syfco reads `0`, `1`, `*` one character at a
   * time, so `01*1` is one code although it lexes as several tokens).
   */
  private code(value: string, width: number | undefined): string {
    const t = this.peek();
    const text = this.lexer.text;
    let end = t.offset;
    while (end < text.length && (text[end] === '0' || text[end] === '1' || text[end] === '*')) end++;
    if (end === t.offset) this.fail(`expected a code of 0, 1 and * for '${value}', found ${this.describe(t)}`);
    while (this.peek().kind !== 'eof' && this.peek().end <= end) this.next();
    if (this.peek().offset < end) this.fail(`malformed code for '${value}'`, this.peek());
    const code = text.slice(t.offset, end);
    if (width !== undefined && code.length !== width) {
      throw new UserError(error(`the code '${code}' of '${value}' has ${code.length} digits, but the enum's codes have ${width}`, this.lexer.span(t.offset, code.length), 'parse'));
    }
    return code;
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
      const section = SECTION_ALIASES.get(t.text);
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
      let nameTok = this.identifier(`a signal name in ${section}`);
      let enumType: SignalDecl['enumType'];
      if (this.peek().kind === 'ident') {
        // `color c;`: a signal typed by an enum.
        enumType = { name: nameTok.text, start: nameTok.offset };
        nameTok = this.identifier(`a signal name in ${section}`);
      }
      let width: Expr | undefined;
      if (!enumType && this.is('[')) {
        this.next();
        width = this.expr();
        this.expect(']', 'to close the bus width');
      }
      out.push({ name: nameTok.text, width, enumType, start: nameTok.offset, end: this.endOfPrevious() });
      if (!this.is(';') && !this.is('}')) this.fail(`expected ';' after the signal '${nameTok.text}', found ${this.describe(this.peek())}`);
    }
    this.next();
    return out;
  }

  // ---- expressions ---------------------------------------------------------------------------
  expr(): Expr {
    return parseExpression(this);
  }
}
