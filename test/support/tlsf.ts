// Small TLSF specs for CLI and worker tests.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A writer of one-guarantee Mealy TLSF files with input `r` and the given outputs, into `dir`:
 * `tlsfWriter(dir)('resp.tlsf', 'G (r -> F g)')` writes the file and returns its path.
 */
export function tlsfWriter(dir: string, outputs: readonly string[] = ['g']): (name: string, guarantee: string) => string {
  return (name, guarantee) => {
    const path = join(dir, name);
    writeFileSync(
      path,
      `INFO { TITLE: "${name}" DESCRIPTION: "test" SEMANTICS: Mealy TARGET: Mealy }\nMAIN {\n  INPUTS { r; }\n  OUTPUTS { ${outputs.map((o) => `${o};`).join(' ')} }\n  GUARANTEE { ${guarantee}; }\n}\n`,
    );
    return path;
  };
}
