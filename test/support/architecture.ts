/**
 * The folder graph of the product code and its rules, for test/architecture.test.ts. Units are the
 * folders of src/ (and src/index.ts) and runtime/ as a whole; an edge is any import between two
 * units — static, `import type`, `export … from`, dynamic `import()` or `require()` — found by
 * TypeScript's own import scanner, so imports inside comments or strings do not count. The rules
 * are the table in docs/architecture.md: each unit and the units it may import.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** unit → units it imports → the files and specifiers that do. */
export type ImportGraph = Map<string, Map<string, string[]>>;

/** unit → units it may import. */
export type Rules = Map<string, Set<string>>;

/** Folders that are not product code: nothing in src/ or runtime/ may import them. */
export const NOT_PRODUCT = ['examples', 'bench', 'test', 'generated', 'scripts', 'specs'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|cts|mts)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The unit a repository path belongs to (`src/ltl`, `src/index.ts`, `runtime`, `examples`, …). */
export function unitOf(path: string): string {
  const parts = path.split('/');
  if (parts[0] === 'src') return parts.length === 2 ? path : `src/${parts[1]}`;
  return parts[0];
}

/** Every import between units of `root`'s product code (src/ and runtime/). */
export function importGraph(root: string): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const file of [...sourceFiles(join(root, 'src')), ...sourceFiles(join(root, 'runtime'))]) {
    const from = relative(root, file).split(sep).join('/');
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName: specifier } of info.importedFiles) {
      if (!specifier.startsWith('.')) continue;
      const target = relative(root, resolve(dirname(file), specifier)).split(sep).join('/');
      const a = unitOf(from);
      const b = unitOf(target);
      if (a === b) continue;
      const edges = graph.get(a) ?? new Map<string, string[]>();
      graph.set(a, edges);
      edges.set(b, [...(edges.get(b) ?? []), `${from} → ${specifier}`]);
    }
  }
  return graph;
}

/**
 * The rules table of docs/architecture.md: rows `` | `unit` | job | `a`, `b` | `` (or `—` for
 * none), after the heading that names this test.
 */
export function rulesFromDoc(markdown: string): Rules {
  const rules: Rules = new Map();
  const start = markdown.indexOf('## The rules');
  if (start < 0) throw new Error('docs/architecture.md has no "## The rules" section');
  const section = markdown.slice(start).split(/\n## /)[0];
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 5 || !/^`[^`]+`$/.test(cells[1])) continue;
    const unit = cells[1].slice(1, -1);
    const allowed = cells[3] === '—' ? [] : [...cells[3].matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    if (rules.has(unit)) throw new Error(`docs/architecture.md lists ${unit} twice`);
    rules.set(unit, new Set(allowed));
  }
  return rules;
}

export interface Problems {
  /** Imports the rules do not allow (`a → b: file → specifier`). */
  readonly forbidden: string[];
  /** Allowed imports no code makes (the document would show a graph that is not there). */
  readonly unused: string[];
  /** Units without a rule, and rules for units that do not exist. */
  readonly unlisted: string[];
  /** A cycle among the allowed imports, if any (`a → b → a`). */
  readonly cycle?: string;
}

export function checkArchitecture(graph: ImportGraph, rules: Rules, units: readonly string[]): Problems {
  const forbidden: string[] = [];
  const unused: string[] = [];
  const unlisted: string[] = [];
  for (const unit of units) if (!rules.has(unit)) unlisted.push(`${unit} has no row in the rules`);
  for (const unit of rules.keys()) if (!units.includes(unit)) unlisted.push(`${unit} is in the rules but does not exist`);
  for (const [from, edges] of graph) {
    for (const [to, sites] of edges) {
      const notProduct = NOT_PRODUCT.includes(to);
      if (notProduct || !rules.get(from)?.has(to)) forbidden.push(`${from} → ${to}${notProduct ? ' (not product code)' : ''}: ${sites.join('; ')}`);
    }
  }
  for (const [from, allowed] of rules) for (const to of allowed) if (!graph.get(from)?.has(to)) unused.push(`${from} → ${to}`);
  return { forbidden, unused, unlisted, cycle: findCycle(rules) };
}

/** A cycle in a dependency relation, as `a → b → … → a`, or undefined. */
export function findCycle(rules: Rules): string | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (unit: string): string | undefined => {
    if (state.get(unit) === 'done') return undefined;
    if (state.get(unit) === 'open') return [...path.slice(path.indexOf(unit)), unit].join(' → ');
    state.set(unit, 'open');
    path.push(unit);
    for (const next of rules.get(unit) ?? []) {
      const found = visit(next);
      if (found) return found;
    }
    path.pop();
    state.set(unit, 'done');
    return undefined;
  };
  for (const unit of rules.keys()) {
    const found = visit(unit);
    if (found) return found;
  }
  return undefined;
}

/** The units of `root`: src's folders and top-level files, and runtime. */
export function productUnits(root: string): string[] {
  const src = readdirSync(join(root, 'src')).flatMap((name) => {
    const path = join(root, 'src', name);
    if (statSync(path).isDirectory()) return [`src/${name}`];
    return /\.(ts|cts|mts)$/.test(name) && !name.endsWith('.d.ts') ? [`src/${name}`] : [];
  });
  return [...src, 'runtime'];
}
