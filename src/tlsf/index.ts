/**
 * TLSF → GameSpec, combined exactly as syfco does:
 *   ∧INITIALLY → (∧PRESET ∧ ((G(∧REQUIRE) ∧ ∧ASSUME) → (G(∧ASSERT) ∧ ∧GUARANTEE)))
 * so REQUIRE parts become `G r` assumptions and ASSERT parts `G s` guarantees. Under
 * `SEMANTICS: Mealy,Strict` / `Moore,Strict` syfco instead adds `(∧ASSERT) W ¬(∧REQUIRE)` to
 * PRESET (the invariants must hold until the requirements are first violated) and drops the
 * G(∧ASSERT) guarantee; we do the same.
 */
import { error, type SourceSpan, UserError } from '../diagnostics/diagnostic.js';
import type { GameSpec, SpecPart } from '../game/spec.js';
import { type Formula, and, G, not, TRUE, W } from '../ltl/formula.js';
import type { Expr, TlsfDocumentAst, TlsfSemantics } from './ast.js';
import { Evaluator } from './eval.js';
import type { Lexer } from './lexer.js';
import { parseTlsfAst } from './parser.js';
import { describeInputs, describeOutputs, recoverTsltoolsGroups } from './tsltools.js';

export type { TlsfDocumentAst, TlsfSemantics } from './ast.js';

export interface TlsfOptions {
  /** Overrides for GLOBAL PARAMETERS (`--param n=3`). */
  readonly params?: Readonly<Record<string, number>>;
  /** Recover tsltools' signal groups (default true). */
  readonly recoverSignals?: boolean;
  /**
   * Called every few thousand evaluation steps while parameters, definitions and big operators
   * are expanded; throw from it to stop (the caller's deadline: `check --timeout`).
   */
  readonly poll?: () => void;
}

/** Everything the file says, evaluated: for `tslc` commands that show INFO or the raw sections. */
export interface TlsfDocument {
  readonly title?: string;
  readonly description?: string;
  readonly semantics: TlsfSemantics;
  readonly target: 'mealy' | 'moore';
  readonly tags: readonly string[];
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
  readonly initially: readonly SpecPart[];
  readonly preset: readonly SpecPart[];
  readonly require: readonly SpecPart[];
  readonly assume: readonly SpecPart[];
  readonly assert: readonly SpecPart[];
  readonly guarantee: readonly SpecPart[];
}

export function parseTlsf(file: string, text: string, options: TlsfOptions = {}): TlsfDocument {
  const { ast, lexer } = parseTlsfAst(file, text);
  const ev = new Evaluator(ast, lexer, { overrides: options.params, poll: options.poll });
  const parts = (exprs: readonly Expr[]): SpecPart[] =>
    exprs.map((e) => ({ formula: ev.formula(e), span: spanOf(lexer, e), text: text.slice(e.start, e.end) }));
  // Signals typed by an enum never carry an unused bit pattern: a requirement on inputs, an
  // invariant on outputs (as syfco adds them).
  const enumParts = (io: 'input' | 'output'): SpecPart[] =>
    ev.enumConstraints
      .filter((c) => c.io === io)
      .map((c) => ({ formula: c.formula, span: lexer.span(c.decl.start, c.decl.name.length), text: `${c.decl.enumType?.name ?? ''} ${c.decl.name}` }));
  return {
    title: ast.title,
    description: ast.description,
    semantics: ast.semantics,
    target: ast.target,
    tags: ast.tags,
    inputs: ev.inputs,
    outputs: ev.outputs,
    initially: parts(ast.initially),
    preset: parts(ast.preset),
    require: [...parts(ast.require), ...enumParts('input')],
    assume: parts(ast.assume),
    assert: [...parts(ast.assert), ...enumParts('output')],
    guarantee: parts(ast.guarantee),
  };
}

export function loadTlsfGame(file: string, text: string, options: TlsfOptions = {}): GameSpec {
  const doc = parseTlsf(file, text, options);
  return gameFromTlsf(doc, file, options.recoverSignals ?? true);
}

export function gameFromTlsf(doc: TlsfDocument, file: string, recoverSignals = true): GameSpec {
  const strict = doc.semantics === 'mealy-strict' || doc.semantics === 'moore-strict';
  const always = (p: SpecPart): SpecPart => ({ ...p, formula: G(p.formula) });
  const preset = [...doc.preset];
  let guarantees: SpecPart[] = [...doc.guarantee];
  if (strict) {
    const invariants = and(...doc.assert.map((p) => p.formula));
    const requirements = and(...doc.require.map((p) => p.formula));
    if (invariants !== TRUE) {
      preset.push({ formula: W(invariants, not(requirements)), span: doc.assert[0]?.span });
    }
  } else {
    guarantees = [...doc.assert.map(always), ...guarantees];
  }
  let assumptions: SpecPart[] = [...doc.require.map(always), ...doc.assume];
  let signals: GameSpec['signals'] = [];
  const unconditional = doc.initially.length === 0 && preset.length === 0 && assumptions.length === 0;
  if (recoverSignals && unconditional) {
    const recovered = recoverTsltoolsGroups(doc.outputs, guarantees);
    if (recovered) {
      signals = recovered.signals;
      assumptions = recovered.assumptions;
      guarantees = recovered.guarantees;
    }
  }
  const tsltoolsShape = signals.length > 0;
  return {
    name: doc.title ?? stem(file),
    file,
    semantics: doc.target,
    inputs: tsltoolsShape ? describeInputs(doc.inputs) : doc.inputs.map((name) => ({ name })),
    outputs: tsltoolsShape ? describeOutputs(doc.outputs) : doc.outputs.map((name) => ({ name })),
    signals,
    initially: doc.initially,
    preset,
    assumptions,
    guarantees,
  };
}

/** The `//STATUS : realizable` comment SYNTCOMP files carry (anything else: undefined). */
export function readTlsfStatus(text: string): 'realizable' | 'unrealizable' | undefined {
  const m = /^[ \t]*\/\/[ \t]*STATUS[ \t]*:[ \t]*(\S+)[ \t]*$/m.exec(text);
  if (!m) return undefined;
  const v = m[1].toLowerCase();
  return v === 'realizable' || v === 'unrealizable' ? v : undefined;
}

/** `--param n=3 --param m=2` → `{ n: 3, m: 2 }`; a malformed assignment is a user error. */
export function parseParamAssignments(assignments: readonly string[]): Record<string, number> {
  // Null prototype: the names are the user's (`--param __proto__=1` is just an unknown parameter).
  const out: Record<string, number> = Object.create(null) as Record<string, number>;
  for (const a of assignments) {
    const m = /^\s*([A-Za-z_@][A-Za-z0-9_@']*)\s*=\s*(-?[0-9]+)\s*$/.exec(a);
    if (!m) throw new UserError(error(`--param expects NAME=INTEGER, got '${a}'`, undefined, 'usage'));
    out[m[1]] = Number(m[2]);
  }
  return out;
}

export function conjunction(parts: readonly SpecPart[]): Formula {
  return and(...parts.map((p) => p.formula));
}

function spanOf(lexer: Lexer, e: Expr): SourceSpan {
  const firstLineEnd = lexer.text.slice(e.start, e.end).search(/[\r\n]/);
  return lexer.span(e.start, firstLineEnd < 0 ? e.end - e.start : firstLineEnd);
}

function stem(file: string): string {
  const base = file.split(/[\\/]/).pop() ?? file;
  return base.replace(/\.tlsf$/i, '');
}
