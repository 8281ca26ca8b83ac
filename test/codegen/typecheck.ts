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

/** Write `files` into `dir`, type-check them together; returns diagnostics text per file name. */
export function typecheck(dir: string, files: Record<string, string>): Record<string, string[]> {
  const paths = Object.entries(files).map(([name, text]) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  });
  const program = ts.createProgram(paths, {
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2023.d.ts'],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
    noImplicitAny: true,
  });
  const out: Record<string, string[]> = {};
  for (const name of Object.keys(files)) out[name] = [];
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const file = d.file?.fileName ?? '';
    const name = Object.keys(files).find((n) => resolve(file) === join(dir, n));
    const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    if (name) out[name].push(text);
    else (out['<other>'] ??= []).push(`${file}: ${text}`);
  }
  return out;
}
