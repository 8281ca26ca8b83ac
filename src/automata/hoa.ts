/**
 * HOA v1 (Hanoi Omega-Automata format) as data, and its reader.
 *
 * The reader keeps everything the file says (headers, aliases, acceptance, state names, state- or
 * edge-level labels and marks, universal branching) so nothing is lost before conversion;
 * `hoa-convert.ts` turns the data into a `MealyMachine` or a `Tgba` and rejects what those cannot
 * represent. Printing lives in `hoa-print.ts`, label algebra in `hoa-label.ts`.
 *
 * The tokenizer scans char codes and remembers only offsets: ltlsynt strategies reach several MB
 * with one huge label per edge, and line/column are computed only when an error is reported.
 */
import { type SourceSpan, UserError } from '../diagnostics/diagnostic.js';

/** A label expression over AP indices, `t`/`f` and `@alias` references. */
export type HoaLabel =
  | { readonly kind: 't' }
  | { readonly kind: 'f' }
  | { readonly kind: 'ap'; readonly index: number }
  | { readonly kind: 'alias'; readonly name: string }
  | { readonly kind: 'not'; readonly arg: HoaLabel }
  | { readonly kind: 'and' | 'or'; readonly args: readonly HoaLabel[] };

/** An acceptance condition: Boolean combination of `Inf(n)`, `Fin(n)` (optionally `!n`). */
export type HoaAcceptance =
  | { readonly kind: 't' }
  | { readonly kind: 'f' }
  | { readonly kind: 'Inf' | 'Fin'; readonly set: number; readonly complemented: boolean }
  | { readonly kind: 'and' | 'or'; readonly args: readonly HoaAcceptance[] };

/** Values a free-form header may carry. */
export type HoaValue =
  | { readonly kind: 'int'; readonly value: number }
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'identifier'; readonly value: string };

export interface HoaEdge {
  readonly label?: HoaLabel;
  /** More than one target = universal branching (alternating automata). */
  readonly targets: readonly number[];
  readonly marks?: readonly number[];
}

export interface HoaState {
  readonly id: number;
  readonly name?: string;
  /** State-level label: every outgoing edge carries it (edges then have no label). */
  readonly label?: HoaLabel;
  /** State-based acceptance marks. */
  readonly marks?: readonly number[];
  readonly edges: readonly HoaEdge[];
}

export interface HoaAutomaton {
  readonly version: string;
  readonly name?: string;
  readonly tool?: readonly string[];
  /** `States:` if given. */
  readonly stateCount?: number;
  /** One entry per `Start:` line; an entry with several states is a universal (conjunctive) start. */
  readonly start: readonly (readonly number[])[];
  readonly aps: readonly string[];
  /** In declaration order, names without the `@`. */
  readonly aliases: readonly { readonly name: string; readonly label: HoaLabel }[];
  readonly acceptanceSets: number;
  readonly acceptance: HoaAcceptance;
  readonly accName?: { readonly name: string; readonly params: readonly HoaValue[] };
  readonly properties: readonly string[];
  /** `controllable-AP:` indices (Spot's extension for Mealy machines / games). */
  readonly controllableAps?: readonly number[];
  /** Every other header, kept verbatim (`HEADERNAME` without the colon). */
  readonly otherHeaders: readonly { readonly name: string; readonly values: readonly HoaValue[] }[];
  /** States as declared in the body, in order. */
  readonly states: readonly HoaState[];
}

export interface HoaParseOptions {
  /** File name for diagnostics. */
  readonly file?: string;
  /** Lines that precede the automaton's text in the file being reported (e.g. a REALIZABLE line). */
  readonly lineOffset?: number;
}

// ---------------------------------------------------------------------------------------------
// Tokenizer

const enum T {
  Eof,
  Int,
  String,
  Ident,
  Header,
  AName,
  Punct,
  Body,
  End,
  Abort,
}

interface Token {
  type: T;
  /** Int value, or identifier / header / alias name / string contents / punctuation char. */
  text: string;
  num: number;
  start: number;
  end: number;
}

function isIdentStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}
function isIdentChar(c: number): boolean {
  return isIdentStart(c) || (c >= 48 && c <= 57) || c === 45;
}
function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** The largest AP index a label used, and where: checked once the AP count is known. */
class ApRefs {
  max = -1;
  at = 0;
  len = 1;
  note(index: number, at: number, len: number): void {
    if (index > this.max) {
      this.max = index;
      this.at = at;
      this.len = len;
    }
  }
  check(lx: Lexer, apCount: number): void {
    if (this.max >= apCount) lx.fail(`atomic proposition ${this.max} does not exist (AP: declares ${apCount})`, this.at, this.len);
  }
}

const TRUE_LABEL: HoaLabel = { kind: 't' };
const FALSE_LABEL: HoaLabel = { kind: 'f' };

class Lexer {
  /** Shared leaf nodes: labels are immutable, and big strategies repeat the same literals. */
  private readonly apNodes: HoaLabel[] = [];
  private readonly negNodes: HoaLabel[] = [];

  private pos = 0;
  /** One-token lookahead. */
  private peeked: Token | undefined;

  constructor(
    readonly text: string,
    readonly file: string,
    private readonly lineOffset: number,
  ) {}

  fail(message: string, at: number, length = 1): never {
    throw new UserError({ severity: 'error', message, span: this.span(at, length), code: 'hoa' });
  }

  span(at: number, length: number): SourceSpan {
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < at && i < this.text.length; i++) {
      if (this.text.charCodeAt(i) === 10) {
        line++;
        lineStart = i + 1;
      }
    }
    return { file: this.file, line: line + this.lineOffset, col: at - lineStart + 1, length: Math.max(1, length) };
  }

  peek(): Token {
    if (!this.peeked) this.peeked = this.scan();
    return this.peeked;
  }

  next(): Token {
    const t = this.peek();
    this.peeked = undefined;
    return t;
  }

  /** Offset just after the last consumed token (for splitting a multi-automaton stream). */
  get offset(): number {
    return this.peeked ? this.peeked.start : this.pos;
  }

  /**
   * A label expression, parsed straight from the characters (no token objects): ltlsynt labels
   * hold millions of literals. Precedence: ! binds tighter than &, which binds tighter than |.
   */
  label(refs: ApRefs, aliasNames: ReadonlySet<string>): HoaLabel {
    if (this.peeked) throw new Error('internal: label() called with a pending lookahead token');
    const args = [this.labelAnd(refs, aliasNames)];
    for (;;) {
      this.skipSpaceAndComments();
      if (this.text.charCodeAt(this.pos) !== 124 /* | */) break;
      this.pos++;
      args.push(this.labelAnd(refs, aliasNames));
    }
    return args.length === 1 ? args[0] : { kind: 'or', args };
  }

  private labelAnd(refs: ApRefs, aliasNames: ReadonlySet<string>): HoaLabel {
    const args = [this.labelAtom(refs, aliasNames)];
    for (;;) {
      this.skipSpaceAndComments();
      if (this.text.charCodeAt(this.pos) !== 38 /* & */) break;
      this.pos++;
      args.push(this.labelAtom(refs, aliasNames));
    }
    return args.length === 1 ? args[0] : { kind: 'and', args };
  }

  private labelAtom(refs: ApRefs, aliasNames: ReadonlySet<string>): HoaLabel {
    this.skipSpaceAndComments();
    const s = this.text;
    const start = this.pos;
    const c = s.charCodeAt(start);
    if (c === 33 /* ! */) {
      this.pos++;
      const arg = this.labelAtom(refs, aliasNames);
      if (arg.kind === 'ap') return (this.negNodes[arg.index] ??= { kind: 'not', arg });
      return { kind: 'not', arg };
    }
    if (c === 40 /* ( */) {
      this.pos++;
      const inner = this.label(refs, aliasNames);
      this.skipSpaceAndComments();
      if (s.charCodeAt(this.pos) !== 41) this.fail(`expected ')' to close the '(' of this label`, start);
      this.pos++;
      return inner;
    }
    if (c === 64 /* @ */) {
      const t = this.next();
      if (!aliasNames.has(t.text)) this.fail(`alias @${t.text} is used but not defined`, t.start, t.end - t.start);
      return { kind: 'alias', name: t.text };
    }
    if (isDigit(c)) {
      let p = start;
      let n = 0;
      while (isDigit(s.charCodeAt(p))) n = n * 10 + (s.charCodeAt(p++) - 48);
      if (p - start > 1 && c === 48) this.fail(`integer '${s.slice(start, p)}' has a leading zero`, start, p - start);
      if (isIdentChar(s.charCodeAt(p))) this.fail(`unexpected character '${s[p]}' in label`, p);
      this.pos = p;
      refs.note(n, start, p - start);
      return (this.apNodes[n] ??= { kind: 'ap', index: n });
    }
    if ((c === 116 || c === 102) /* t f */ && !isIdentChar(s.charCodeAt(start + 1))) {
      this.pos++;
      return c === 116 ? TRUE_LABEL : FALSE_LABEL;
    }
    const t = this.next();
    const found = t.type === T.Eof ? 'end of input' : `'${s.slice(t.start, t.end)}'`;
    this.fail(`expected a label (AP index, t, f, @alias, '!' or '('), found ${found}`, t.start, Math.max(1, t.end - t.start));
  }

  private skipSpaceAndComments(): void {
    const s = this.text;
    for (;;) {
      const c = s.charCodeAt(this.pos);
      if (c === 32 || c === 10 || c === 13 || c === 9 || c === 12 || c === 11) {
        this.pos++;
      } else if (c === 47 && s.charCodeAt(this.pos + 1) === 42) {
        // HOA comments nest: /* a /* b */ c */ is one comment.
        const open = this.pos;
        let depth = 1;
        this.pos += 2;
        while (depth > 0) {
          if (this.pos >= s.length) this.fail('unterminated comment', open, 2);
          if (s.charCodeAt(this.pos) === 47 && s.charCodeAt(this.pos + 1) === 42) {
            depth++;
            this.pos += 2;
          } else if (s.charCodeAt(this.pos) === 42 && s.charCodeAt(this.pos + 1) === 47) {
            depth--;
            this.pos += 2;
          } else this.pos++;
        }
      } else return;
    }
  }

  private scan(): Token {
    this.skipSpaceAndComments();
    const s = this.text;
    const start = this.pos;
    if (start >= s.length) return { type: T.Eof, text: '', num: 0, start, end: start };
    const c = s.charCodeAt(start);
    if (isDigit(c)) {
      let p = start + 1;
      while (isDigit(s.charCodeAt(p))) p++;
      const digits = s.slice(start, p);
      if (digits.length > 1 && digits[0] === '0') this.fail(`integer '${digits}' has a leading zero`, start, p - start);
      if (isIdentChar(s.charCodeAt(p))) this.fail(`unexpected character '${s[p]}' after integer`, p);
      this.pos = p;
      return { type: T.Int, text: digits, num: Number(digits), start, end: p };
    }
    if (isIdentStart(c)) {
      let p = start + 1;
      while (isIdentChar(s.charCodeAt(p))) p++;
      const name = s.slice(start, p);
      if (s.charCodeAt(p) === 58 /* : */) {
        this.pos = p + 1;
        return { type: T.Header, text: name, num: 0, start, end: p + 1 };
      }
      this.pos = p;
      return { type: T.Ident, text: name, num: 0, start, end: p };
    }
    if (c === 64 /* @ */) {
      let p = start + 1;
      while (isIdentChar(s.charCodeAt(p))) p++;
      if (p === start + 1) this.fail("'@' must be followed by an alias name", start);
      this.pos = p;
      return { type: T.AName, text: s.slice(start + 1, p), num: 0, start, end: p };
    }
    if (c === 34 /* " */) return this.scanString(start);
    if (c === 45 /* - */) {
      for (const [marker, type] of [
        ['--BODY--', T.Body],
        ['--END--', T.End],
        ['--ABORT--', T.Abort],
      ] as const) {
        if (s.startsWith(marker, start)) {
          this.pos = start + marker.length;
          return { type, text: marker, num: 0, start, end: this.pos };
        }
      }
      this.fail("unexpected '-' (expected --BODY--, --END-- or --ABORT--)", start);
    }
    if ('[](){}!&|'.includes(s[start])) {
      this.pos = start + 1;
      return { type: T.Punct, text: s[start], num: 0, start, end: this.pos };
    }
    this.fail(`unexpected character '${s[start]}'`, start);
  }

  private scanString(start: number): Token {
    const s = this.text;
    let p = start + 1;
    let out = '';
    let chunk = p;
    for (;;) {
      if (p >= s.length) this.fail('unterminated string', start);
      const c = s.charCodeAt(p);
      if (c === 34) break;
      if (c === 92 /* \ */) {
        out += s.slice(chunk, p);
        if (p + 1 >= s.length) this.fail('unterminated string', start);
        out += s[p + 1];
        p += 2;
        chunk = p;
      } else p++;
    }
    out += s.slice(chunk, p);
    this.pos = p + 1;
    return { type: T.String, text: out, num: 0, start, end: p + 1 };
  }
}

// ---------------------------------------------------------------------------------------------
// Parser

const MAX_IMPLICIT_APS = 20;

class Parser {
  constructor(private readonly lx: Lexer) {}

  private describe(t: Token): string {
    switch (t.type) {
      case T.Eof:
        return 'end of input';
      case T.String:
        return `string "${t.text}"`;
      case T.Header:
        return `'${t.text}:'`;
      case T.AName:
        return `'@${t.text}'`;
      default:
        return `'${t.text}'`;
    }
  }

  private expected(what: string, t: Token = this.lx.peek()): never {
    this.lx.fail(`expected ${what}, found ${this.describe(t)}`, t.start, Math.max(1, t.end - t.start));
  }

  private int(what: string): Token {
    const t = this.lx.next();
    if (t.type !== T.Int) this.expected(what, t);
    return t;
  }

  private punct(ch: string): Token {
    const t = this.lx.next();
    if (t.type !== T.Punct || t.text !== ch) this.expected(`'${ch}'`, t);
    return t;
  }

  private isPunct(ch: string): boolean {
    const t = this.lx.peek();
    return t.type === T.Punct && t.text === ch;
  }

  /** Parses one automaton; returns undefined at end of input (for streams). */
  parseAutomaton(): HoaAutomaton | undefined {
    const lx: Lexer = this.lx;
    const first = lx.peek();
    if (first.type === T.Eof) return undefined;
    if (first.type !== T.Header || first.text !== 'HOA') this.expected("'HOA: v1' at the start of the automaton", first);
    lx.next();
    const versionTok = lx.next();
    if (versionTok.type !== T.Ident) this.expected('a format version such as v1', versionTok);
    if (!/^v1/.test(versionTok.text))
      lx.fail(`unsupported HOA version '${versionTok.text}' (this reader supports v1)`, versionTok.start, versionTok.text.length);

    let name: string | undefined;
    let tool: string[] | undefined;
    let stateCount: number | undefined;
    const start: number[][] = [];
    let aps: string[] | undefined;
    let apCountTok: Token | undefined;
    const aliases: { name: string; label: HoaLabel }[] = [];
    const aliasNames = new Set<string>();
    let acceptanceSets: number | undefined;
    let acceptance: HoaAcceptance | undefined;
    let accName: { name: string; params: HoaValue[] } | undefined;
    const properties: string[] = [];
    let controllable: { indices: number[]; tok: Token[] } | undefined;
    const otherHeaders: { name: string; values: HoaValue[] }[] = [];
    const seenOnce = new Set<string>();
    // Label checks (AP ranges, alias definitions) need the AP count and aliases of the header;
    // aliases may be used before `AP:` appears, so range checks run after the header.
    const deferredApChecks = new ApRefs();

    for (;;) {
      const h = lx.next();
      if (h.type === T.Body) break;
      if (h.type !== T.Header) this.expected('a header (e.g. States:, AP:) or --BODY--', h);
      const once = (label: string) => {
        if (seenOnce.has(label)) lx.fail(`header '${label}:' appears twice`, h.start, h.end - h.start);
        seenOnce.add(label);
      };
      switch (h.text) {
        case 'States':
          once('States');
          stateCount = this.int('the number of states').num;
          break;
        case 'Start': {
          const conj = [this.int('a start state').num];
          while (this.isPunct('&')) {
            lx.next();
            conj.push(this.int('a start state after &').num);
          }
          start.push(conj);
          break;
        }
        case 'AP': {
          once('AP');
          apCountTok = this.int('the number of atomic propositions');
          aps = [];
          while (lx.peek().type === T.String) aps.push(lx.next().text);
          if (aps.length !== apCountTok.num)
            lx.fail(`AP: declares ${apCountTok.num} propositions but lists ${aps.length}`, apCountTok.start, apCountTok.text.length);
          const dup = aps.find((a, i) => aps!.indexOf(a) !== i);
          if (dup !== undefined) lx.fail(`atomic proposition "${dup}" is listed twice in AP:`, h.start, h.end - h.start);
          break;
        }
        case 'Alias': {
          const a = lx.next();
          if (a.type !== T.AName) this.expected('an alias name such as @a', a);
          if (aliasNames.has(a.text)) lx.fail(`alias @${a.text} is defined twice`, a.start, a.end - a.start);
          const label = this.labelExpr(deferredApChecks, aliasNames);
          aliasNames.add(a.text);
          aliases.push({ name: a.text, label });
          break;
        }
        case 'Acceptance':
          once('Acceptance');
          acceptanceSets = this.int('the number of acceptance sets').num;
          acceptance = this.accCond();
          break;
        case 'acc-name': {
          once('acc-name');
          const n = lx.next();
          if (n.type !== T.Ident) this.expected('an acceptance name', n);
          accName = { name: n.text, params: this.values() };
          break;
        }
        case 'tool':
        case 'name': {
          once(h.text);
          const values: string[] = [];
          while (lx.peek().type === T.String) values.push(lx.next().text);
          if (values.length === 0) this.expected(`a string after ${h.text}:`);
          if (h.text === 'name') name = values[0];
          else tool = values;
          break;
        }
        case 'properties':
          while (lx.peek().type === T.Ident) properties.push(lx.next().text);
          break;
        case 'controllable-AP': {
          const indices: number[] = [];
          const toks: Token[] = [];
          while (lx.peek().type === T.Int) {
            const t = lx.next();
            indices.push(t.num);
            toks.push(t);
          }
          controllable = { indices: [...(controllable?.indices ?? []), ...indices], tok: [...(controllable?.tok ?? []), ...toks] };
          break;
        }
        default:
          otherHeaders.push({ name: h.text, values: this.values() });
      }
    }

    if (acceptance === undefined || acceptanceSets === undefined)
      lx.fail("missing 'Acceptance:' header (required by HOA v1)", first.start, 4);
    const apList = aps ?? [];
    deferredApChecks.check(this.lx, apList.length);
    for (const t of controllable?.tok ?? []) this.checkApIndex(t, apList.length);
    this.checkAccSets(acceptance, acceptanceSets, first);
    for (const conj of start)
      for (const s of conj)
        if (stateCount !== undefined && s >= stateCount)
          lx.fail(`start state ${s} is out of range (States: ${stateCount})`, first.start, 4);

    const states = this.body(apList.length, aliasNames, acceptanceSets, stateCount);
    return {
      version: versionTok.text,
      name,
      tool,
      stateCount,
      start,
      aps: apList,
      aliases,
      acceptanceSets,
      acceptance,
      accName,
      properties,
      controllableAps: controllable?.indices,
      otherHeaders,
      states,
    };
  }

  private checkApIndex(t: Token, apCount: number): void {
    if (t.num >= apCount)
      this.lx.fail(`atomic proposition ${t.num} does not exist (AP: declares ${apCount})`, t.start, t.end - t.start);
  }

  private checkAccSets(cond: HoaAcceptance, sets: number, at: Token): void {
    if (cond.kind === 'Inf' || cond.kind === 'Fin') {
      if (cond.set >= sets) this.lx.fail(`acceptance set ${cond.set} is out of range (Acceptance: ${sets})`, at.start, 4);
    } else if (cond.kind === 'and' || cond.kind === 'or') for (const a of cond.args) this.checkAccSets(a, sets, at);
  }

  private values(): HoaValue[] {
    const out: HoaValue[] = [];
    for (;;) {
      const t = this.lx.peek();
      if (t.type === T.Int) out.push({ kind: 'int', value: t.num });
      else if (t.type === T.String) out.push({ kind: 'string', value: t.text });
      else if (t.type === T.Ident) out.push({ kind: 'identifier', value: t.text });
      else return out;
      this.lx.next();
    }
  }

  labelExpr(apRefs: ApRefs, aliasNames: ReadonlySet<string>): HoaLabel {
    return this.lx.label(apRefs, aliasNames);
  }

  private accCond(): HoaAcceptance {
    const args = [this.accAnd()];
    while (this.isPunct('|')) {
      this.lx.next();
      args.push(this.accAnd());
    }
    return args.length === 1 ? args[0] : { kind: 'or', args };
  }

  private accAnd(): HoaAcceptance {
    const args = [this.accAtom()];
    while (this.isPunct('&')) {
      this.lx.next();
      args.push(this.accAtom());
    }
    return args.length === 1 ? args[0] : { kind: 'and', args };
  }

  private accAtom(): HoaAcceptance {
    const t = this.lx.next();
    if (t.type === T.Punct && t.text === '(') {
      const inner = this.accCond();
      this.punct(')');
      return inner;
    }
    if (t.type === T.Ident) {
      if (t.text === 't') return { kind: 't' };
      if (t.text === 'f') return { kind: 'f' };
      if (t.text === 'Inf' || t.text === 'Fin') {
        this.punct('(');
        let complemented = false;
        if (this.isPunct('!')) {
          this.lx.next();
          complemented = true;
        }
        const set = this.int('an acceptance set number').num;
        this.punct(')');
        return { kind: t.text, set, complemented };
      }
    }
    return this.expected("an acceptance condition (Inf(n), Fin(n), t, f or '(')", t);
  }

  private markSet(sets: number): number[] {
    this.punct('{');
    const marks: number[] = [];
    while (this.lx.peek().type === T.Int) {
      const t = this.lx.next();
      if (t.num >= sets) this.lx.fail(`acceptance set ${t.num} is out of range (Acceptance: ${sets})`, t.start, t.end - t.start);
      marks.push(t.num);
    }
    this.punct('}');
    return [...new Set(marks)].sort((a, b) => a - b);
  }

  private stateRef(stateCount: number | undefined, what: string): Token {
    const t = this.int(what);
    if (stateCount !== undefined && t.num >= stateCount)
      this.lx.fail(`state ${t.num} is out of range (States: ${stateCount})`, t.start, t.end - t.start);
    return t;
  }

  private body(apCount: number, aliasNames: ReadonlySet<string>, sets: number, stateCount: number | undefined): HoaState[] {
    const lx: Lexer = this.lx;
    const states: HoaState[] = [];
    const declared = new Set<number>();
    const apRefs = new ApRefs();
    for (;;) {
      const t = lx.next();
      if (t.type === T.End) break;
      if (t.type === T.Abort) lx.fail('the producing tool aborted this automaton (--ABORT--)', t.start, t.end - t.start);
      if (t.type !== T.Header || t.text !== 'State') this.expected("'State:' or --END--", t);
      let stateLabel: HoaLabel | undefined;
      if (this.isPunct('[')) {
        lx.next();
        stateLabel = this.labelExpr(apRefs, aliasNames);
        this.punct(']');
      }
      const idTok = this.stateRef(stateCount, 'a state number');
      if (declared.has(idTok.num)) lx.fail(`state ${idTok.num} is declared twice`, idTok.start, idTok.end - idTok.start);
      declared.add(idTok.num);
      let name: string | undefined;
      if (lx.peek().type === T.String) name = lx.next().text;
      const marks = this.isPunct('{') ? this.markSet(sets) : undefined;

      const edges: HoaEdge[] = [];
      let labelled = 0;
      let firstEdge: Token | undefined;
      for (;;) {
        const p = lx.peek();
        const hasLabel = p.type === T.Punct && p.text === '[';
        if (!hasLabel && p.type !== T.Int) break;
        firstEdge ??= p;
        let label: HoaLabel | undefined;
        if (hasLabel) {
          if (stateLabel) lx.fail('an edge has a label although its state is labelled', p.start);
          lx.next();
          label = this.labelExpr(apRefs, aliasNames);
          this.punct(']');
          labelled++;
        }
        const targets = [this.stateRef(stateCount, 'a target state').num];
        while (this.isPunct('&')) {
          lx.next();
          targets.push(this.stateRef(stateCount, 'a target state after &').num);
        }
        const edgeMarks = this.isPunct('{') ? this.markSet(sets) : undefined;
        edges.push(label || edgeMarks ? { label, targets, marks: edgeMarks } : { targets });
      }
      if (labelled !== 0 && labelled !== edges.length)
        lx.fail(`state ${idTok.num} mixes labelled and unlabelled edges`, firstEdge!.start);
      if (labelled === 0 && !stateLabel && edges.length > 0) {
        // Implicit labels: the k-th edge is the k-th valuation (AP 0 = least significant bit).
        if (apCount > MAX_IMPLICIT_APS)
          lx.fail(`implicit labels over ${apCount} propositions are not supported`, firstEdge!.start);
        if (edges.length !== 2 ** apCount)
          lx.fail(
            `state ${idTok.num} has ${edges.length} unlabelled edges; implicit labels need exactly ${2 ** apCount} (one per valuation of ${apCount} propositions)`,
            firstEdge!.start,
          );
        for (let k = 0; k < edges.length; k++) edges[k] = { ...edges[k], label: valuationLabel(k, apCount) };
      }
      states.push({ id: idTok.num, name, label: stateLabel, marks, edges });
    }
    apRefs.check(lx, apCount);
    return states;
  }
}

/** The cube `k` of implicit labelling: AP j is true iff bit j of k is set. */
export function valuationLabel(k: number, apCount: number): HoaLabel {
  if (apCount === 0) return { kind: 't' };
  const lits: HoaLabel[] = [];
  for (let j = 0; j < apCount; j++) {
    const a: HoaLabel = { kind: 'ap', index: j };
    lits.push(k & (1 << j) ? a : { kind: 'not', arg: a });
  }
  return lits.length === 1 ? lits[0] : { kind: 'and', args: lits };
}

/** Parse exactly one automaton (trailing whitespace/comments allowed). */
export function parseHoa(text: string, options: HoaParseOptions = {}): HoaAutomaton {
  const lx: Lexer = new Lexer(text, options.file ?? '<hoa>', options.lineOffset ?? 0);
  const parser = new Parser(lx);
  const aut = parser.parseAutomaton();
  if (!aut) lx.fail("empty input: expected an automaton starting with 'HOA: v1'", 0);
  const rest = lx.peek();
  if (rest.type !== T.Eof) lx.fail("unexpected text after --END-- (use parseHoaStream for several automata)", rest.start);
  return aut;
}

/** Parse a stream of automata (HOA files may concatenate several). */
export function parseHoaStream(text: string, options: HoaParseOptions = {}): HoaAutomaton[] {
  const lx: Lexer = new Lexer(text, options.file ?? '<hoa>', options.lineOffset ?? 0);
  const parser = new Parser(lx);
  const out: HoaAutomaton[] = [];
  for (;;) {
    const aut = parser.parseAutomaton();
    if (!aut) return out;
    out.push(aut);
  }
}

/** Number of states: `States:` when given, otherwise one more than the largest state mentioned. */
export function hoaStateCount(aut: HoaAutomaton): number {
  let max = -1;
  for (const conj of aut.start) for (const s of conj) max = Math.max(max, s);
  for (const st of aut.states) {
    max = Math.max(max, st.id);
    for (const e of st.edges) for (const t of e.targets) max = Math.max(max, t);
  }
  return Math.max(aut.stateCount ?? 0, max + 1);
}
