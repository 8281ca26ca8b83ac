/**
 * A generated controller module as a declaration file or as plain JavaScript, by TypeScript's own
 * transpiler (ts-morph's copy, already a dependency for emitting modules). Neither needs a type
 * check: every export of a generated module is explicitly typed, which is what
 * `transpileDeclaration` requires, and type erasure changes no value.
 *
 * The declaration is what `tslc compile --dts` and the bundler plugin write beside a spec as
 * `adventure.d.tsl.ts`, the name TypeScript reads for `import … from './adventure.tsl'` under
 * `allowArbitraryExtensions`; the JavaScript is what the plugin hands the bundler.
 */
import { CodegenVerificationError } from './errors.js';

type Ts = typeof import('ts-morph').ts;
let typescript: Ts | undefined;
async function ts(): Promise<Ts> {
  typescript ??= (await import('ts-morph')).ts;
  return typescript;
}

/** The declaration of a generated module (`.d.ts` text). */
export async function declarationOf(moduleSource: string, fileName: string): Promise<string> {
  const t = await ts();
  const out = t.transpileDeclaration(moduleSource, { fileName, reportDiagnostics: true, compilerOptions: { removeComments: false } });
  // A generated module whose declaration cannot be derived is a bug in the emitter, not user input.
  if (out.diagnostics && out.diagnostics.length > 0) {
    const why = out.diagnostics.map((d) => t.flattenDiagnosticMessageText(d.messageText, '\n')).join('; ');
    throw new CodegenVerificationError(`cannot derive the declaration of ${fileName}: ${why}`);
  }
  // The module's opening comment (which tool, which spec, do not edit) belongs on its declaration too.
  const header = /^(?:\/\/[^\n]*\n)+/.exec(moduleSource)?.[0] ?? '';
  return header + out.outputText;
}

/** The module as ES2022 JavaScript (types erased, imports kept as written). */
export async function javaScriptOf(moduleSource: string, fileName: string): Promise<string> {
  const t = await ts();
  const out = t.transpileModule(moduleSource, {
    fileName,
    compilerOptions: { target: t.ScriptTarget.ES2022, module: t.ModuleKind.ESNext, verbatimModuleSyntax: false, sourceMap: false, removeComments: false },
  });
  return out.outputText;
}

/** The file TypeScript reads for `import … from './x.tsl'` under `allowArbitraryExtensions`. */
export function declarationPathFor(specPath: string): string {
  return specPath.replace(/\.([^./\\]+)$/, '.d.$1.ts');
}
