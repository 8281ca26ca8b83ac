// Builds the peggy parsers in grammar/ into src/<stage>/generated/ (ESM + .d.ts), so the
// compiler never parses a grammar at run time. Run by `npm run grammar` (part of build/test).
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import peggy from 'peggy';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** grammar file → output module (relative to the repo root). */
const targets = [{ grammar: 'grammar/tsl.peggy', out: 'src/tsl/generated/parser.js' }];

for (const { grammar, out } of targets) {
  const path = join(root, grammar);
  if (!existsSync(path)) continue;
  const source = readFileSync(path, 'utf8');
  const code = peggy.generate(source, { output: 'source', format: 'es', grammarSource: grammar });
  const declarations =
    `// Generated from ${grammar}; the parse result is typed by the caller (see src/tsl/ast.ts).\n` +
    `export interface PeggyLocation { source: unknown; start: { offset: number; line: number; column: number }; end: { offset: number; line: number; column: number } }\n` +
    `export declare class SyntaxError extends Error { location: PeggyLocation; expected: unknown; found: string | null }\n` +
    `export declare function parse(input: string, options?: { grammarSource?: unknown; startRule?: string }): unknown;\n`;
  // tsc does not copy .js files (allowJs is off), so the compiled tree gets its own copy.
  for (const target of [join(root, out), join(root, 'dist', out)]) {
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, code);
    writeFileSync(target.replace(/\.js$/, '.d.ts'), declarations);
  }
}
