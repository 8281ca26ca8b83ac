/**
 * Checking a parsed TSL file: resolving imports, expanding definitions, desugaring arithmetic,
 * classifying every atom (predicate check / update) and inferring each name's role the way
 * tsltools' `tslsym` does — inputs are read and never updated, cells are read and updated,
 * outputs are only updated; predicates and functions get arities. All errors are collected and
 * thrown together as one `UserError`; warnings are returned.
 */
import { type Diagnostic, type SourceSpan, UserError } from '../diagnostics/diagnostic.js';
import type { Definition, Expr, Loc, TslAst } from './ast.js';
import { COST_CAP, ExpansionCosts, type Scope } from './expansion-cost.js';
import { type ImportAccess, importKey, readImport, resolvedImportRoot } from './import-file.js';
import { parseTsl } from './parse.js';
import { expandedDepthDiagnostic, FormulaDepths, sourceDepthDiagnostics } from './depth.js';
import { precedenceWarnings } from './precedence.js';
import {
  ARITH_FUNCTION,
  BUILTIN_FUNCTIONS,
  BUILTIN_PREDICATES,
  type BooleanTypes,
  type Check,
  COMPARE_PREDICATE,
  type CoreTerm,
  type Update,
} from './terms.js';

/** A formula after checking: atoms are checks and updates, operators unchanged. */
export type CoreFormula =
  | { readonly kind: 'bool'; readonly value: boolean }
  | { readonly kind: 'check'; readonly check: Check }
  | { readonly kind: 'update'; readonly update: Update }
  | { readonly kind: 'unary'; readonly op: '!' | 'X' | 'F' | 'G'; readonly arg: CoreFormula }
  | {
      readonly kind: 'binary';
      readonly op: '&&' | '||' | '->' | '<->' | 'U' | 'W' | 'R';
      readonly left: CoreFormula;
      readonly right: CoreFormula;
    };

export interface CheckedFormula {
  readonly formula: CoreFormula;
  readonly kind: 'assume' | 'guarantee';
  /** `always` formulas hold at every step (wrapped in G); the others at the first step. */
  readonly always: boolean;
  readonly span: SourceSpan;
  /** The formula's source text. */
  readonly text: string;
}

export interface SymbolInfo {
  readonly name: string;
  readonly arity: number;
  /** Arithmetic/comparison sugar (`add`, `eq`, …): implemented by the runtime, not the user. */
  readonly builtin?: boolean;
}

/** What `tslc symbols` prints: like tsltools' `tslsym`. */
export interface TslSymbols {
  readonly inputs: readonly string[];
  readonly cells: readonly string[];
  readonly outputs: readonly string[];
  readonly predicates: readonly SymbolInfo[];
  readonly functions: readonly SymbolInfo[];
}

export interface CheckedTsl {
  readonly file: string;
  readonly formulas: readonly CheckedFormula[];
  readonly symbols: TslSymbols;
  /** Every updated signal, in first-use order. */
  readonly updatedSignals: readonly string[];
  /** Which signals and functions are boolean-typed, as tsltools infers (for its naming). */
  readonly booleanSignals: BooleanTypes;
  readonly warnings: readonly Diagnostic[];
}

/**
 * How imports are read (see import-file.ts): `importRoot` confines them to a directory,
 * `maxImportBytes` caps each file, `readFile` replaces the file system.
 */
export interface CheckOptions extends ImportAccess {
  /** Called with each imported file's path and text (the CLI keeps them to show source lines). */
  readonly onImport?: (path: string, text: string) => void;
}

/**
 * Expanding the definitions of a whole file may neither produce more nodes than this nor take more
 * steps (guards against macro bombs). Checked before each formula is expanded (expansion-cost.ts).
 */
export const EXPANSION_LIMIT = 200_000;
/**
 * What `expand` itself may spend (steps plus substituted nodes): a backstop that only a recursive
 * definition, which is an error anyway, can bring within reach.
 */
const EXPANSION_BACKSTOP = 4 * EXPANSION_LIMIT;

interface Use {
  readonly arity: number;
  readonly loc: Loc;
  readonly file: string;
}

class Checker {
  readonly errors: Diagnostic[] = [];
  readonly warnings: Diagnostic[] = [];
  private budget = EXPANSION_BACKSTOP;
  private overBudget = false;
  /** What the formulas expanded so far have used of EXPANSION_LIMIT. */
  private nodesLeft = EXPANSION_LIMIT;
  private stepsLeft = EXPANSION_LIMIT;
  private readonly costs = new ExpansionCosts();
  /** Node counts of expanded subtrees (to charge a parameter's argument each time it is substituted). */
  private readonly sizes = new WeakMap<Expr, number>();
  /** name → uses, per symbol class. */
  readonly predicateUses = new Map<string, Use[]>();
  readonly functionUses = new Map<string, Use[]>();
  readonly signalReads = new Map<string, Use>();
  readonly signalUpdates = new Map<string, Use>();
  /** Type classes, only to tell boolean signals/functions apart (see BooleanTypes). */
  readonly types = new TypeClasses();

  /** Imported files already loaded, by identity (a file imported twice is read and parsed once). */
  private readonly loaded = new Map<string, { scope: Scope; hasSections: boolean }>();
  private readonly unparsable = new Set<string>();
  private readonly importRoot: string | undefined;

  constructor(private readonly access: CheckOptions) {
    if (access.importRoot === undefined) return;
    try {
      this.importRoot = resolvedImportRoot(access.importRoot, access);
    } catch (err) {
      throw new UserError({ severity: 'error', message: (err as Error).message, code: 'import-root' });
    }
  }

  error(message: string, file: string, loc: Loc | undefined, code: string, notes?: Diagnostic[]): void {
    this.errors.push({ severity: 'error', message, span: loc ? spanOf(file, loc) : undefined, code, notes });
  }

  // -- imports and scopes --------------------------------------------------------------------

  buildScope(ast: TslAst, loading: readonly string[]): Scope {
    const definitions = new Map<string, Definition>();
    for (const def of ast.definitions) {
      const earlier = definitions.get(def.name);
      if (earlier) {
        this.error(`"${def.name}" is defined twice`, ast.file, def.loc, 'duplicate-definition', [
          { severity: 'note', message: 'first defined here', span: spanOf(ast.file, earlier.loc) },
        ]);
        continue;
      }
      definitions.set(def.name, def);
    }
    const imports = new Map<string, Scope>();
    for (const imp of ast.imports) {
      const read = readImport(ast.file, imp.path, this.access, this.importRoot);
      if (!read.ok) {
        if (read.missing) this.error(`unknown import "${imp.path}": no such file`, ast.file, imp.pathLoc, 'unknown-import');
        else this.error(`cannot import "${imp.path}": ${read.reason}`, ast.file, imp.pathLoc, 'import');
        continue;
      }
      if (loading.includes(read.key)) {
        this.error(`import cycle: "${imp.path}" imports itself`, ast.file, imp.pathLoc, 'import-cycle');
        continue;
      }
      // A file that failed to parse is reported once, however often it is imported.
      if (this.unparsable.has(read.key)) continue;
      let entry = this.loaded.get(read.key);
      if (!entry) {
        this.access.onImport?.(read.path, read.text);
        let imported: TslAst;
        try {
          imported = parseTsl(read.path, read.text);
          // Its definitions are walked recursively once used: refuse here what is too deep for that.
          const tooDeep = sourceDepthDiagnostics(imported, read.text);
          if (tooDeep.length > 0) throw new UserError(tooDeep);
        } catch (err) {
          if (!(err instanceof UserError)) throw err;
          // The imported file is a .tsl file (nothing else is read): show where it is wrong, and where it was imported.
          const importedHere: Diagnostic = { severity: 'note', message: `imported here`, span: spanOf(ast.file, imp.pathLoc) };
          this.errors.push(...err.diagnostics.map((d) => ({ ...d, notes: [...(d.notes ?? []), importedHere] })));
          this.unparsable.add(read.key);
          continue;
        }
        entry = { scope: this.buildScope(imported, [...loading, read.key]), hasSections: imported.sections.length > 0 };
        this.loaded.set(read.key, entry);
      }
      if (entry.hasSections)
        this.warnings.push({
          severity: 'warning',
          message: `the assume/guarantee sections of "${imp.path}" are ignored: an import only provides definitions`,
          span: spanOf(ast.file, imp.loc),
          code: 'import-sections',
        });
      imports.set(imp.alias, entry.scope);
    }
    return { file: ast.file, definitions, imports };
  }

  /** Finds a definition by (possibly qualified) name; reports `Alias.x` when x is not in Alias. */
  lookup(scope: Scope, name: string, file: string, loc: Loc): { def: Definition; scope: Scope } | undefined {
    const local = scope.definitions.get(name);
    if (local) return { def: local, scope };
    const dot = name.indexOf('.');
    if (dot < 0) return undefined;
    const inner = scope.imports.get(name.slice(0, dot));
    if (!inner) return undefined;
    const found = this.lookup(inner, name.slice(dot + 1), file, loc);
    if (!found) this.error(`"${name.slice(dot + 1)}" is not defined in import "${name.slice(0, dot)}"`, file, loc, 'unknown-import');
    return found;
  }

  // -- definition expansion ------------------------------------------------------------------

  /**
   * Whether `formula`'s definitions can be expanded within what is left of EXPANSION_LIMIT: if
   * not, reports it at the costliest use (before any work is done) and returns false.
   */
  affordable(formula: Expr, scope: Scope): boolean {
    const cost = this.costs.of(formula, scope);
    if (cost.size <= this.nodesLeft && cost.steps <= this.stepsLeft) {
      this.nodesLeft -= cost.size;
      this.stepsLeft -= cost.steps;
      return true;
    }
    const worst = this.costs.costliestUse(formula, scope);
    const tooLarge = cost.size > this.nodesLeft;
    const at = worst?.use.loc ?? formula.loc;
    const what = worst ? `"${worst.name}" here` : 'this formula';
    const amount = tooLarge ? `${countText((worst?.cost ?? cost).size)} nodes` : `${countText((worst?.cost ?? cost).steps)} steps`;
    this.error(
      tooLarge
        ? `definitions expand to a formula that is too large: ${what} stands for ${amount} (at most ${countText(EXPANSION_LIMIT)} for the whole file)`
        : `definitions take too long to expand: ${what} takes ${amount} (at most ${countText(EXPANSION_LIMIT)} for the whole file)`,
      scope.file,
      at,
      'expansion',
    );
    return false;
  }

  /**
   * Replaces uses of definitions by their bodies. Inside an expansion every node takes the
   * location `at` of the outermost use, so errors found later (arity, roles) point at where the
   * definition was used in the file being checked; errors found here point into the definition.
   */
  expand(e: Expr, scope: Scope, params: ReadonlyMap<string, Expr>, active: readonly string[], at?: Loc): Expr {
    if (--this.budget < 0) {
      if (!this.overBudget) this.error('definitions expand to a formula that is too large', scope.file, e.loc, 'expansion');
      this.overBudget = true;
      return e;
    }
    const loc = at ?? e.loc;
    switch (e.kind) {
      case 'bool':
      case 'num':
        return this.sized(at ? { ...e, loc } : e);
      case 'name': {
        const bound = params.get(e.name);
        if (bound) {
          this.budget -= this.sizes.get(bound) ?? 1;
          return bound;
        }
        const found = this.lookup(scope, e.name, scope.file, e.loc);
        if (!found) return this.sized(at ? { ...e, loc } : e);
        return this.instantiate(found.def, found.scope, [], loc, scope.file, e.loc, active, e.name);
      }
      case 'app': {
        if (params.has(e.fn)) {
          const args = e.args.map((a) => this.expand(a, scope, params, active, at));
          this.error(`parameter "${e.fn}" cannot be applied to arguments`, scope.file, e.fnLoc, 'definition');
          return this.sized({ ...e, loc, fnLoc: at ?? e.fnLoc, args });
        }
        const found = this.lookup(scope, e.fn, scope.file, e.fnLoc);
        // The arguments of a use become part of the expansion, so they take its location too.
        const args = e.args.map((a) => this.expand(a, scope, params, active, found ? loc : at));
        if (!found) return this.sized({ ...e, loc, fnLoc: at ?? e.fnLoc, args });
        return this.instantiate(found.def, found.scope, args, loc, scope.file, e.loc, active, e.fn);
      }
      case 'update': {
        const value = this.expand(e.value, scope, params, active, at);
        const targetLoc = at ?? e.targetLoc;
        const bound = params.get(e.target);
        if (bound) {
          if (bound.kind !== 'name') {
            this.error(`the target of an update must be a signal name`, scope.file, e.targetLoc, 'update-target');
            return this.sized({ ...e, loc, targetLoc, value });
          }
          return this.sized({ ...e, loc, targetLoc, target: bound.name, value });
        }
        return this.sized({ ...e, loc, targetLoc, value });
      }
      case 'unary':
        return this.sized({ ...e, loc, arg: this.expand(e.arg, scope, params, active, at) });
      default:
        return this.sized({
          ...e,
          loc,
          left: this.expand(e.left, scope, params, active, at),
          right: this.expand(e.right, scope, params, active, at),
        } as Expr);
    }
  }

  /** Records the node count of a node whose children are already recorded. */
  private sized(e: Expr): Expr {
    const of = (c: Expr) => this.sizes.get(c) ?? 1;
    let n = 1;
    if (e.kind === 'app') for (const a of e.args) n += of(a);
    else if (e.kind === 'update') n += of(e.value);
    else if (e.kind === 'unary') n += of(e.arg);
    else if (e.kind === 'binary' || e.kind === 'arith' || e.kind === 'compare') n += of(e.left) + of(e.right);
    this.sizes.set(e, n);
    return e;
  }

  private instantiate(
    def: Definition,
    scope: Scope,
    args: readonly Expr[],
    at: Loc,
    useFile: string,
    useLoc: Loc,
    active: readonly string[],
    usedAs: string,
  ): Expr {
    const key = `${scope.file}\u0000${def.name}`;
    if (active.includes(key)) {
      this.error(`definition "${usedAs}" refers to itself`, useFile, useLoc, 'recursive-definition');
      return this.sized({ kind: 'bool', value: true, loc: at });
    }
    if (args.length !== def.params.length) {
      this.error(
        `"${usedAs}" is defined with ${plural(def.params.length, 'parameter')} but used with ${plural(args.length, 'argument')}`,
        useFile,
        useLoc,
        'arity',
      );
      return this.sized({ kind: 'bool', value: true, loc: at });
    }
    const bindings = new Map(def.params.map((p, i) => [p, args[i]] as const));
    return this.expand(def.body, scope, bindings, [...active, key], at);
  }

  // -- classification ------------------------------------------------------------------------

  formula(e: Expr, file: string): CoreFormula {
    switch (e.kind) {
      case 'bool':
        return { kind: 'bool', value: e.value };
      case 'name':
        this.read(e.name, e.loc, file);
        this.types.unify(`s:${e.name}`, BOOL);
        return { kind: 'check', check: { kind: 'signal', name: e.name } };
      case 'app':
        this.use(this.predicateUses, e.fn, e.args.length, e.fnLoc, file);
        this.types.unify(`r:${e.fn}`, BOOL);
        return { kind: 'check', check: { kind: 'predicate', fn: e.fn, args: this.args(e.fn, e.args, file) } };
      case 'compare': {
        const fn = COMPARE_PREDICATE[e.op];
        this.use(this.predicateUses, fn, 2, e.loc, file);
        this.types.unify(`r:${fn}`, BOOL);
        return { kind: 'check', check: { kind: 'predicate', fn, args: this.args(fn, [e.left, e.right], file) } };
      }
      case 'update': {
        this.updated(e.target, e.targetLoc, file);
        const term = this.term(e.value, file);
        this.types.unify(`s:${e.target}`, typeKey(term));
        return { kind: 'update', update: { signal: e.target, term } };
      }
      case 'unary':
        return { kind: 'unary', op: e.op, arg: this.formula(e.arg, file) };
      case 'binary':
        return { kind: 'binary', op: e.op, left: this.formula(e.left, file), right: this.formula(e.right, file) };
      case 'arith':
        this.error(`"${e.op}" computes a value, not a formula; compare it (e.g. "= 3") or use it in an update`, file, e.loc, 'type');
        return { kind: 'bool', value: true };
      case 'num':
        this.error(`the number ${e.text} is not a formula`, file, e.loc, 'type');
        return { kind: 'bool', value: true };
    }
  }

  term(e: Expr, file: string): CoreTerm {
    switch (e.kind) {
      case 'name':
        this.read(e.name, e.loc, file);
        return { kind: 'signal', name: e.name, loc: e.loc };
      case 'num':
        return { kind: 'number', text: e.text, loc: e.loc };
      case 'bool':
        return { kind: 'bool', value: e.value, loc: e.loc };
      case 'app':
        this.use(this.functionUses, e.fn, e.args.length, e.fnLoc, file);
        return { kind: 'call', fn: e.fn, args: this.args(e.fn, e.args, file), isPredicate: false, loc: e.loc };
      case 'arith': {
        const fn = ARITH_FUNCTION[e.op];
        this.use(this.functionUses, fn, 2, e.loc, file);
        return { kind: 'call', fn, args: this.args(fn, [e.left, e.right], file), isPredicate: false, loc: e.loc };
      }
      case 'compare': {
        const fn = COMPARE_PREDICATE[e.op];
        this.use(this.predicateUses, fn, 2, e.loc, file);
        this.types.unify(`r:${fn}`, BOOL);
        return { kind: 'call', fn, args: this.args(fn, [e.left, e.right], file), isPredicate: true, loc: e.loc };
      }
      case 'update':
        this.error('an update cannot be used inside a term', file, e.loc, 'type');
        return { kind: 'bool', value: true, loc: e.loc };
      case 'unary':
      case 'binary':
        this.error(`the operator "${e.op}" cannot be used inside a term`, file, e.loc, 'type');
        return { kind: 'bool', value: true, loc: e.loc };
    }
  }

  /** Arguments as terms; each argument position of `fn` has one type, as in tsltools. */
  private args(fn: string, args: readonly Expr[], file: string): CoreTerm[] {
    return args.map((a, i) => {
      const t = this.term(a, file);
      this.types.unify(`a:${fn}:${i}`, typeKey(t));
      return t;
    });
  }

  private use(table: Map<string, Use[]>, name: string, arity: number, loc: Loc, file: string): void {
    const uses = table.get(name);
    if (uses) uses.push({ arity, loc, file });
    else table.set(name, [{ arity, loc, file }]);
  }
  private read(name: string, loc: Loc, file: string): void {
    if (!this.signalReads.has(name)) this.signalReads.set(name, { arity: 0, loc, file });
  }
  private updated(name: string, loc: Loc, file: string): void {
    if (!this.signalUpdates.has(name)) this.signalUpdates.set(name, { arity: 0, loc, file });
  }

  // -- consistency of the symbol table -------------------------------------------------------

  /** Reports role conflicts and arity mismatches; returns the symbol table. */
  symbols(selfOnlyReads: ReadonlySet<string>): TslSymbols {
    const firstUse = (uses: readonly Use[]) => uses[0];
    const note = (message: string, use: Use): Diagnostic => ({ severity: 'note', message, span: spanOf(use.file, use.loc) });

    for (const [table, what] of [
      [this.predicateUses, 'predicate'],
      [this.functionUses, 'function'],
    ] as const) {
      for (const [name, uses] of table) {
        const first = firstUse(uses);
        const builtinArity = BUILTIN_FUNCTIONS.has(name) || BUILTIN_PREDICATES.has(name) ? 2 : undefined;
        const expected = builtinArity ?? first.arity;
        for (const use of uses) {
          if (use.arity === expected) continue;
          this.error(
            builtinArity !== undefined
              ? `${what} "${name}" (built in) takes 2 arguments, but is given ${use.arity}`
              : `${what} "${name}" is used with ${plural(use.arity, 'argument')} here but with ${first.arity} before`,
            use.file,
            use.loc,
            'arity',
            builtinArity !== undefined ? undefined : [note('first used here', first)],
          );
        }
      }
    }
    for (const [name, uses] of this.predicateUses) {
      const asFunction = this.functionUses.get(name);
      if (!asFunction || BUILTIN_PREDICATES.has(name)) continue;
      const later = firstUse(asFunction).loc.offset > firstUse(uses).loc.offset;
      const [here, there, hereRole, thereRole] = later
        ? [firstUse(asFunction), firstUse(uses), 'function', 'predicate']
        : [firstUse(uses), firstUse(asFunction), 'predicate', 'function'];
      this.error(`"${name}" is used as a ${hereRole} here but as a ${thereRole} elsewhere`, here.file, here.loc, 'role', [
        note(`used as a ${thereRole} here`, there),
      ]);
    }
    // A constant `c()` is distinct syntax, so it may share its name with a signal `c` (the corpus
    // does this: `[light <- off()]` next to a signal `off`); only real applications conflict.
    const applications = (uses: readonly Use[] | undefined) => {
      const applied = uses?.filter((u) => u.arity > 0);
      return applied && applied.length > 0 ? applied : undefined;
    };
    for (const [name, read] of this.signalReads) {
      const applied = applications(this.predicateUses.get(name)) ?? applications(this.functionUses.get(name));
      if (applied) {
        this.error(`"${name}" is used as a signal here but is applied to arguments elsewhere`, read.file, read.loc, 'role', [
          note('applied here', firstUse(applied)),
        ]);
      }
    }
    for (const [name, upd] of this.signalUpdates) {
      const asPredicate = applications(this.predicateUses.get(name));
      const asFunction = applications(this.functionUses.get(name));
      const applied = asPredicate ?? asFunction;
      if (applied) {
        this.error(
          `cannot update "${name}": it is used as a ${asPredicate ? 'predicate' : 'function'}, and only signals can be updated`,
          upd.file,
          upd.loc,
          'update-target',
          [note(`used as a ${asPredicate ? 'predicate' : 'function'} here`, firstUse(applied))],
        );
      }
    }

    const inputs: string[] = [];
    const cells: string[] = [];
    const outputs: string[] = [];
    for (const name of this.signalReads.keys()) if (!this.signalUpdates.has(name)) inputs.push(name);
    for (const name of this.signalUpdates.keys()) {
      if (this.signalReads.has(name) && !selfOnlyReads.has(name)) cells.push(name);
      else outputs.push(name);
    }
    const table = (uses: Map<string, Use[]>, builtins: ReadonlySet<string>): SymbolInfo[] =>
      [...uses].map(([name, us]) => (builtins.has(name) ? { name, arity: 2, builtin: true } : { name, arity: us[0].arity }));
    return {
      inputs,
      cells,
      outputs,
      predicates: table(this.predicateUses, BUILTIN_PREDICATES),
      functions: table(this.functionUses, BUILTIN_FUNCTIONS),
    };
  }
}

/** Checks a parsed file (and its imports). Throws `UserError` with every error found. */
export function checkTsl(ast: TslAst, source: string, options: CheckOptions = {}): CheckedTsl {
  const checker = new Checker(options);
  const scope = checker.buildScope(ast, [importKey(ast.file, options)]);
  // Before any pass that recurses over formulas: a formula too deep for them is refused where it crosses the limit.
  const tooDeep = sourceDepthDiagnostics(ast, source);
  if (tooDeep.length > 0) throw new UserError(sortDiagnostics([...checker.errors, ...tooDeep]));
  const depths = new FormulaDepths();
  checker.warnings.push(...precedenceWarnings(ast));

  const formulas: CheckedFormula[] = [];
  const selfReads = new Map<string, number>();
  const allReads = new Map<string, number>();
  for (const section of ast.sections) {
    for (const raw of section.formulas) {
      if (!checker.affordable(raw, scope)) continue;
      // Affordable, but maybe still too deep once its definitions are expanded.
      const deep = expandedDepthDiagnostic(depths, raw, scope, source);
      if (deep) {
        checker.errors.push(deep);
        continue;
      }
      const expanded = checker.expand(raw, scope, new Map(), []);
      const formula = checker.formula(expanded, ast.file);
      countReads(formula, selfReads, allReads);
      formulas.push({
        formula,
        kind: section.kind,
        always: section.time === 'always',
        span: spanOf(ast.file, raw.loc, source),
        text: source.slice(raw.loc.offset, raw.loc.endOffset),
      });
    }
  }
  // A signal whose only reads are its own explicit `[x <- x]` is still an output, not a cell.
  const selfOnly = new Set([...selfReads].filter(([name, n]) => allReads.get(name) === n).map(([name]) => name));
  const symbols = checker.symbols(selfOnly);
  if (checker.errors.length > 0) throw new UserError(sortDiagnostics(checker.errors));
  return {
    file: ast.file,
    formulas,
    symbols,
    updatedSignals: [...checker.signalUpdates.keys()],
    booleanSignals: {
      isBooleanSignal: (name) => checker.types.isBoolean(`s:${name}`),
      isBooleanFunction: (fn) => checker.types.isBoolean(`r:${fn}`),
    },
    warnings: sortDiagnostics(checker.warnings),
  };
}

const BOOL = 'bool';

function typeKey(t: CoreTerm): string {
  switch (t.kind) {
    case 'signal':
      return `s:${t.name}`;
    case 'call':
      return `r:${t.fn}`;
    case 'number':
      return 'number';
    case 'bool':
      return BOOL;
  }
}

/** Union-find over type variables (`s:signal`, `r:function`, `a:function:index`, `bool`). */
class TypeClasses {
  private readonly parent = new Map<string, string>();
  find(x: string): string {
    let root = x;
    for (let p = this.parent.get(root); p !== undefined && p !== root; p = this.parent.get(root)) root = p;
    for (let y = x; y !== root; ) {
      const next = this.parent.get(y)!;
      this.parent.set(y, root);
      y = next;
    }
    return root;
  }
  unify(a: string, b: string): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.parent.set(ra, rb);
  }
  isBoolean(x: string): boolean {
    return this.find(x) === this.find(BOOL);
  }
}

function countReads(f: CoreFormula, self: Map<string, number>, all: Map<string, number>): void {
  const bump = (m: Map<string, number>, name: string) => m.set(name, (m.get(name) ?? 0) + 1);
  const term = (t: CoreTerm): void => {
    if (t.kind === 'signal') bump(all, t.name);
    else if (t.kind === 'call') t.args.forEach(term);
  };
  switch (f.kind) {
    case 'bool':
      return;
    case 'check':
      if (f.check.kind === 'signal') bump(all, f.check.name);
      else f.check.args.forEach(term);
      return;
    case 'update':
      if (f.update.term.kind === 'signal' && f.update.term.name === f.update.signal) bump(self, f.update.signal);
      term(f.update.term);
      return;
    case 'unary':
      return countReads(f.arg, self, all);
    case 'binary':
      countReads(f.left, self, all);
      countReads(f.right, self, all);
  }
}

export function spanOf(file: string, loc: Loc, source?: string): SourceSpan {
  let length = Math.max(1, loc.endOffset - loc.offset);
  if (source !== undefined) {
    const lineEnd = source.indexOf('\n', loc.offset);
    if (lineEnd >= 0) length = Math.max(1, Math.min(length, lineEnd - loc.offset));
  }
  return { file, line: loc.line, col: loc.col, length };
}

function sortDiagnostics(ds: readonly Diagnostic[]): Diagnostic[] {
  const key = (d: Diagnostic) => [d.span?.file ?? '', d.span?.line ?? 0, d.span?.col ?? 0] as const;
  return [...ds].sort((a, b) => {
    const [fa, la, ca] = key(a);
    const [fb, lb, cb] = key(b);
    return fa === fb ? la - lb || ca - cb : fa < fb ? -1 : 1;
  });
}

/** `1,048,577`, or `more than 1,000,000,000,000` for a saturated cost. */
function countText(n: number): string {
  return n >= COST_CAP ? `more than ${COST_CAP.toLocaleString('en-US')}` : n.toLocaleString('en-US');
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

