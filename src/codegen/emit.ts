/**
 * Emitting the TypeScript module for a controller table (with ts-morph).
 *
 * The module holds: typed interfaces for the signals and the implementation (predicates and
 * functions), the table as data with doc comments pointing back at the spec lines, metadata,
 * name bindings (spec name → safe identifier), and a `create<Name>` factory over the runtime.
 *
 * Injection safety: identifiers come only from `IdentifierScope`; every string reaches the source
 * as a JSON string literal; free text reaches it only through `commentText`.
 */
import { IndentationText, Project, QuoteKind, StructureKind, VariableDeclarationKind, type WriterFunction } from 'ts-morph';
import { specSitesOf } from '../../runtime/decision.js';
import type { ControllerMetadata, ControllerTable, DecisionNode, TermData } from '../../runtime/table.js';
import { commentText, IdentifierScope, isReservedWord, pascalCase } from './identifiers.js';
import { inferSignalTypes } from './signal-types.js';

export interface EmitOptions {
  /** Module specifier of the runtime (`tslc/runtime`, or a relative path inside this repo). */
  readonly runtimeImport: string;
  /** Display name of the spec file(s), used in doc comments. */
  readonly specDisplay?: string;
}

/** Names of the built-in functions the runtime provides (kept in sync with runtime/builtins.ts). */
const BUILTINS = new Set(['add', 'sub', 'mul', 'div', 'eq', 'lt', 'gt', 'lte', 'gte']);
/** The built-ins a theory fixes (runtime/builtins.ts `theoryFunctions`): not part of the implementation. */
const FIXED_BY_THEORY: Readonly<Record<'LIA' | 'UF', ReadonlySet<string>>> = {
  LIA: new Set(['add', 'sub', 'mul', 'eq', 'lt', 'gt', 'lte', 'gte']),
  UF: new Set(['eq']),
};
const COMPARISONS = new Set(['eq', 'lt', 'gt', 'lte', 'gte']);

/**
 * The runtime is imported as one namespace, so nothing the module declares can clash with a
 * runtime export (`controller.tsl` declares `createController`). Declared names all carry a
 * prefix or suffix around the spec's PascalCase name, so none can equal this one.
 */
const RUNTIME_NAMESPACE = 'tslc';

/**
 * Names the module's own code refers to without declaring them at the top level: the runtime
 * namespace, type parameters, and the globals its types use. No top-level declaration may take one.
 */
const RELIED_ON = new Set([RUNTIME_NAMESPACE, 'S', 'K', 'Promise']);

/**
 * Spec names kept off implementation and signal keys. Keys are property names, which cannot
 * clash with bindings, but earlier modules reserved these and users' implementations use the
 * resulting keys, so the set stays as it was.
 */
const MODULE_NAMES = ['createController', 'replay', 'Controller', 'ControllerOptions', 'ControllerTable', 'ControllerMetadata', 'ImplementationBindings', 'StepRecord', 'ReplayResult', 'S'];

/**
 * JSON text as a TypeScript expression. JSON leaves U+2028/U+2029 raw; they are legal in string
 * literals but some tools treat them as line breaks, so they are escaped too.
 */
function json(value: unknown, replacer?: null, indent?: number): string {
  return JSON.stringify(value, replacer, indent).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

export class EmitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EmitError';
  }
}

interface FunctionUse {
  arity: number;
  params: Set<string>[];
  /** Signals whose update term is a direct call of this function. */
  updates: Set<string>;
  isPredicate: boolean;
  /** Spec terms in which it appears (for doc comments). */
  sites: Set<string>;
}

export function emitControllerModule(table: ControllerTable, metadata: ControllerMetadata, options: EmitOptions): string {
  const prefix = pascalCase(table.name);
  const camel = prefix[0].toLowerCase() + prefix.slice(1);
  const names = {
    shape: `${prefix}SignalShape`,
    defaults: `${prefix}DefaultSignals`,
    impl: `${prefix}Impl`,
    initial: `${prefix}InitialSignals`,
    inputs: `${prefix}Inputs`,
    controller: `${prefix}Controller`,
    table: `${camel}Table`,
    metadata: `${camel}Metadata`,
    bindings: `${camel}Bindings`,
    create: `create${prefix}`,
    replay: `replay${prefix}`,
  };
  assertModuleNames(Object.values(names));
  const specDisplay = commentText(options.specDisplay ?? metadata.specFile);

  // Signals and functions live in different objects, so they get separate namespaces.
  const signalScope = new IdentifierScope(MODULE_NAMES);
  const signalKey = new Map(table.signals.map((s) => [s.name, signalScope.name(s.name)]));
  const functionScope = new IdentifierScope(MODULE_NAMES);
  const uses = collectFunctionUses(table);
  const functionKey = new Map([...uses.keys()].map((fn) => [fn, functionScope.name(fn)]));

  const S = (signal: string): string => `S[${json(signalKey.get(signal))}]`;
  const returnType = (fn: string): string => {
    const use = uses.get(fn)!;
    // Comparisons give booleans wherever they appear, also when stored in a signal.
    if (use.isPredicate || COMPARISONS.has(fn)) return 'boolean';
    if (use.updates.size > 0) return [...use.updates].map(S).join(' & ');
    return 'unknown';
  };
  const termType = (term: TermData): string => {
    switch (term.kind) {
      case 'signal':
        return S(term.name);
      case 'literal':
        return typeof term.value;
      case 'call':
        return returnType(term.fn);
    }
  };
  // Parameter types are filled only now, since they may refer to other functions' return types.
  const paramTypes = new Map<string, string[]>();
  for (const [fn, use] of uses) paramTypes.set(fn, use.params.map(() => ''));
  const visitTerm = (term: TermData): void => {
    if (term.kind !== 'call') return;
    const types = paramTypes.get(term.fn)!;
    term.args.forEach((arg, i) => {
      const t = termType(arg);
      const seen = types[i] === '' ? [] : types[i].split(' | ');
      if (!seen.includes(t)) types[i] = [...seen, t].join(' | ');
      visitTerm(arg);
    });
  };
  for (const p of table.predicates) if (p.signal === undefined) visitTerm({ kind: 'call', fn: p.fn, args: p.args });
  for (const u of table.updates) if (!u.isSelfUpdate) visitTerm(u.term);

  // Default value types follow the built-ins (signal-types.ts); the pipeline refused mixes already.
  const inferred = inferSignalTypes(table);
  const fixed = table.theory ? FIXED_BY_THEORY[table.theory] : new Set<string>();
  const optionalBuiltins = [...BUILTINS].filter((b) => !fixed.has(b) && !(table.theory === 'LIA' && b === 'div'));
  if (inferred.conflicts.length > 0) throw new EmitError(inferred.conflicts[0].message);
  const roleKeys = (role: 'input' | 'cell' | 'output'): string[] =>
    table.signals.filter((s) => s.role === role).map((s) => json(signalKey.get(s.name)));
  const union = (keys: string[]): string => (keys.length === 0 ? 'never' : keys.join(' | '));

  const project = new Project({
    useInMemoryFileSystem: true,
    compilerOptions: { strict: true },
    manipulationSettings: { indentationText: IndentationText.TwoSpaces, quoteKind: QuoteKind.Single },
  });
  const file = project.createSourceFile('controller.ts', '', { overwrite: true });
  file.addImportDeclaration({ moduleSpecifier: options.runtimeImport, namespaceImport: RUNTIME_NAMESPACE });
  const rt = (name: string): string => `${RUNTIME_NAMESPACE}.${name}`;

  file.addInterface({
    kind: StructureKind.Interface,
    name: names.shape,
    isExported: true,
    docs: [`Every signal of ${specDisplay}; the type argument of \`${names.create}\` must have these keys.`],
    properties: table.signals.map((s) => {
      // Under #LIA a number-typed signal is an integer: the runtime's built-ins refuse anything else.
      const integer = table.theory === 'LIA' && inferred.types.get(s.name) === 'number';
      return {
        name: signalKey.get(s.name)!,
        type: integer ? 'number' : 'unknown',
        docs: [`${s.role} signal \`${commentText(s.name)}\`${integer ? ' (an integer: #LIA)' : ''}`],
      };
    }),
  });
  file.addInterface({
    kind: StructureKind.Interface,
    name: names.defaults,
    isExported: true,
    extends: [names.shape],
    docs: ['Signal value types used when no type argument is given: what the built-ins imply (numbers for arithmetic, booleans for comparisons and tested signals), else text.'],
    properties: table.signals.map((s) => ({
      name: signalKey.get(s.name)!,
      type: inferred.types.get(s.name) ?? 'string',
    })),
  });
  file.addInterface({
    kind: StructureKind.Interface,
    name: names.impl,
    isExported: true,
    typeParameters: [{ name: 'S', constraint: names.shape, default: names.defaults }],
    docs: [
      `The predicates and functions of ${specDisplay}, usually LLM calls. Each may return a promise. ` +
        (fixed.size > 0
          ? `Under #${table.theory} the runtime evaluates ${[...fixed].join(', ')} itself (the controller was synthesized for their exact meaning), so they are not part of this interface` +
            (optionalBuiltins.length > 0 ? `; the other built-ins (${optionalBuiltins.join(', ')}) are optional: the runtime supplies defaults.` : '.')
          : `Built-ins (${[...BUILTINS].join(', ')}) are optional: the runtime supplies defaults.`),
    ],
    properties: [...uses].filter(([fn]) => !fixed.has(fn)).map(([fn, use]) => {
      const types = paramTypes.get(fn)!;
      const paramScope = new IdentifierScope();
      const params = use.params.map((_, i) => {
        const only = [...use.params[i]];
        const hint = only.length === 1 && only[0] !== '' ? only[0] : `arg${i}`;
        return `${paramScope.name(hint)}: ${types[i] === '' ? 'unknown' : types[i]}`;
      });
      const result = returnType(fn);
      return {
        name: functionKey.get(fn)!,
        isReadonly: true,
        hasQuestionToken: BUILTINS.has(fn),
        type: `(${params.join(', ')}) => ${result} | Promise<${result}>`,
        docs: [
          `${use.isPredicate ? 'Predicate' : 'Function'} \`${commentText(fn)}\`, used in: ${[...use.sites].map((t) => `\`${commentText(t)}\``).join(', ')}`,
        ],
      };
    }),
  });
  const cells = roleKeys('cell');
  const optionalKeys = [...roleKeys('output'), ...roleKeys('input')];
  file.addTypeAlias({
    name: names.initial,
    isExported: true,
    typeParameters: [{ name: 'S', constraint: names.shape, default: names.defaults }],
    docs: ['Initial signal values: every cell is required; outputs and inputs may be given.'],
    type: `{ readonly [K in ${union(cells)}]: S[K] } & { readonly [K in ${union(optionalKeys)}]?: S[K] }`,
  });
  file.addTypeAlias({
    name: names.inputs,
    isExported: true,
    typeParameters: [{ name: 'S', constraint: names.shape, default: names.defaults }],
    docs: ['Input signals, supplied to `step()`.'],
    type: `{ readonly [K in ${union(roleKeys('input'))}]: S[K] }`,
  });
  file.addTypeAlias({
    name: names.controller,
    isExported: true,
    typeParameters: [{ name: 'S', constraint: names.shape, default: names.defaults }],
    type: `${rt('Controller')}<S, ${names.inputs}<S>>`,
  });

  file.addVariableStatement({
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: [
      `The synthesized controller for ${specDisplay} as data: ${plural(table.states.length, 'state')}, each a decision diagram over ` +
        `predicates whose leaves choose one update per signal and the next state.`,
    ],
    declarations: [{ name: names.table, type: rt('ControllerTable'), initializer: tableWriter(table) }],
  });
  file.addVariableStatement({
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    declarations: [{ name: names.metadata, type: rt('ControllerMetadata'), initializer: jsonWriter(metadata) }],
  });
  file.addVariableStatement({
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: ['Spec names → the identifiers used for them in this module.'],
    declarations: [
      {
        name: names.bindings,
        type: rt('ImplementationBindings'),
        initializer: bindingsWriter(functionKey, signalKey),
      },
    ],
  });
  file.addFunction({
    name: names.create,
    isExported: true,
    typeParameters: [{ name: 'S', constraint: names.shape, default: names.defaults }],
    parameters: [
      { name: 'impl', type: `${names.impl}<S>` },
      { name: 'initialSignals', type: `${names.initial}<S>` },
      { name: 'options', type: rt('ControllerOptions'), hasQuestionToken: true },
    ],
    returnType: `${names.controller}<S>`,
    docs: [`Create a controller for ${specDisplay}. Call \`step()\` once per agent turn.`],
    statements: [
      `return ${rt('createController')}<S, ${names.inputs}<S>>({ table: ${names.table}, metadata: ${names.metadata}, bindings: ${names.bindings}, impl, initialSignals, options });`,
    ],
  });
  file.addFunction({
    name: names.replay,
    isExported: true,
    parameters: [{ name: 'trace', type: `readonly ${rt('StepRecord')}[] | string` }],
    returnType: rt('ReplayResult'),
    docs: ['Re-run a recorded trace (records or JSONL text) against this table and confirm each decision.'],
    statements: [`return ${rt('replay')}(${names.table}, trace);`],
  });
  file.formatText({ indentSize: 2, convertTabsToSpaces: true });
  const header =
    `// Generated by tslc ${commentText(metadata.toolVersion)} from ${specDisplay}. Do not edit: run \`tslc compile\` instead.\n` +
    `// Spec hash ${commentText(metadata.specHash)}; ${plural(metadata.stateCount, 'state')}; verified: ${metadata.verified}.\n\n`;
  return header + file.getFullText();
}

/**
 * The module's top-level names must be distinct identifiers that are not reserved words and not
 * names its code relies on. They are built to be, so a failure here is a bug in tslc: the module
 * would not type-check, and it is refused before anything is written (cheaper than running tsc).
 */
export function assertModuleNames(declared: readonly string[]): void {
  const seen = new Set<string>();
  for (const name of declared) {
    if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) || isReservedWord(name) || RELIED_ON.has(name) || seen.has(name))
      throw new EmitError(`internal error: the generated module would declare the unusable or duplicate name \`${name}\``);
    seen.add(name);
  }
}

function collectFunctionUses(table: ControllerTable): Map<string, FunctionUse> {
  const uses = new Map<string, FunctionUse>();
  const use = (fn: string, arity: number, site: string): FunctionUse => {
    let u = uses.get(fn);
    if (!u) {
      u = { arity, params: Array.from({ length: arity }, () => new Set<string>()), updates: new Set(), isPredicate: false, sites: new Set() };
      uses.set(fn, u);
    }
    if (u.arity !== arity) throw new EmitError(`\`${fn}\` is called with ${u.arity} and with ${arity} arguments`);
    u.sites.add(site);
    return u;
  };
  const visit = (term: TermData, site: string): void => {
    if (term.kind !== 'call') return;
    const u = use(term.fn, term.args.length, site);
    term.args.forEach((arg, i) => {
      // Parameter name hints: the signal passed there, when it is always the same one.
      u.params[i].add(arg.kind === 'signal' ? arg.name : '');
      visit(arg, site);
    });
  };
  for (const p of table.predicates) {
    if (p.signal !== undefined) continue;
    const u = use(p.fn, p.args.length, p.text);
    u.isPredicate = true;
    visit({ kind: 'call', fn: p.fn, args: p.args }, p.text);
  }
  for (const up of table.updates) {
    if (up.isSelfUpdate) continue;
    visit(up.term, up.text);
    if (up.term.kind === 'call') uses.get(up.term.fn)!.updates.add(up.signal);
  }
  return uses;
}

function bindingsWriter(functions: ReadonlyMap<string, string>, signals: ReadonlyMap<string, string>): WriterFunction {
  return (writer) => {
    writer.write('{').newLine();
    writer.indent(() => {
      for (const [field, map] of [['functions', functions], ['signals', signals]] as const) {
        writer.writeLine(`${field}: [`);
        writer.indent(() => {
          for (const pair of map) writer.writeLine(`${json(pair)},`);
        });
        writer.writeLine('],');
      }
    });
    writer.write('}');
  };
}

function jsonWriter(value: unknown): WriterFunction {
  return (writer) => {
    writer.write(json(value, null, 2));
  };
}

/** The table literal, with a doc comment per state listing its transitions and their spec lines. */
function tableWriter(table: ControllerTable): WriterFunction {
  return (writer) => {
    const field = (name: string, value: unknown): void => {
      writer.writeLine(`${name}: ${json(value)},`);
    };
    writer.write('{').newLine();
    writer.indent(() => {
      field('name', table.name);
      if (table.theory !== undefined) field('theory', table.theory);
      writer.writeLine('signals: [');
      writer.indent(() => table.signals.forEach((s) => writer.writeLine(`${json(s)},`)));
      writer.writeLine('],');
      writer.writeLine('predicates: [');
      writer.indent(() => table.predicates.forEach((p) => writer.writeLine(`${json(p)},`)));
      writer.writeLine('],');
      writer.writeLine('updates: [');
      writer.indent(() => table.updates.forEach((u) => writer.writeLine(`${json(u)},`)));
      writer.writeLine('],');
      field('initialState', table.initialState);
      if (table.specFiles !== undefined) field('specFiles', table.specFiles);
      writer.writeLine('states: [');
      writer.indent(() => {
        for (const state of table.states) {
          writer.writeLine('/**');
          writer.writeLine(` * State ${state.index}${state.index === table.initialState ? ' (initial)' : ''}:`);
          for (const line of describeTransitions(table, state.decision)) writer.writeLine(` * - ${line}`);
          writer.writeLine(' */');
          writer.writeLine(`${json(state)},`);
        }
      });
      writer.writeLine('],');
    });
    writer.write('}');
  };
}

/** `1 state`, `5 states`. */
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

function describeTransitions(table: ControllerTable, root: DecisionNode): string[] {
  const out: string[] = [];
  const visit = (node: DecisionNode, path: string[]): void => {
    if (node.kind === 'test') {
      const text = table.predicates[node.predicate]?.text ?? `#${node.predicate}`;
      visit(node.whenTrue, [...path, text]);
      visit(node.whenFalse, [...path, `!(${text})`]);
      return;
    }
    const changes = node.updates.map((u) => table.updates[u]).filter((u) => u && !u.isSelfUpdate).map((u) => u.text);
    const when = path.length === 0 ? 'always' : `when ${path.join(' && ')}`;
    const sites = specSitesOf(table, node);
    const lines = sites.length > 0 ? ` (${sites.join(', ')})` : '';
    out.push(commentText(`${when}: ${changes.length === 0 ? 'keep all signals' : changes.join(', ')} -> state ${node.next}${lines}`));
  };
  visit(root, []);
  return out;
}
