/** Type-check TypeScript files written under the repo (so `../../runtime` resolves) with strict settings. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';

export const repoRoot = resolve(import.meta.dirname, '../..');

/** A fresh directory under .cache/ (ignored by git), two levels below the repo root. */
export function scratchDir(name: string): string {
  const dir = join(repoRoot, '.cache', `${name}-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** The settings a strict user project has; `extra` adds e.g. `exactOptionalPropertyTypes`. */
function compilerOptions(extra: ts.CompilerOptions): ts.CompilerOptions {
  return {
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2023.d.ts'],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
    noImplicitAny: true,
    ...extra,
  };
}

/**
 * Type-check the files at `paths` together; returns diagnostics text per given path (diagnostics
 * in other files, e.g. the runtime's sources they import, under `<other>`).
 */
export function typecheckPaths(paths: readonly string[], extra: ts.CompilerOptions = {}): Record<string, string[]> {
  const program = ts.createProgram(paths.map((p) => resolve(p)), compilerOptions(extra));
  const out: Record<string, string[]> = {};
  for (const path of paths) out[path] = [];
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const file = d.file?.fileName ?? '';
    const path = paths.find((p) => resolve(file) === resolve(p));
    const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    if (path !== undefined) out[path].push(text);
    else (out['<other>'] ??= []).push(`${file}: ${text}`);
  }
  return out;
}

/** Write `files` into `dir`, type-check them together; returns diagnostics text per file name. */
export function typecheck(dir: string, files: Record<string, string>, extra: ts.CompilerOptions = {}): Record<string, string[]> {
  const names = Object.keys(files);
  for (const name of names) writeFileSync(join(dir, name), files[name]);
  const byPath = typecheckPaths(names.map((n) => join(dir, n)), extra);
  const out: Record<string, string[]> = {};
  for (const name of names) out[name] = byPath[join(dir, name)];
  if (byPath['<other>']) out['<other>'] = byPath['<other>'];
  return out;
}
