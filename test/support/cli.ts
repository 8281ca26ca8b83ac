// Runs `tslc …` in-process (no spawn, no build needed): what it printed and the exit code it set.
import { vi } from 'vitest';
import { main } from '../../src/cli/main.js';

export interface CliResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number;
}

export async function runTslc(...argv: string[]): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((stdout += String(chunk)), true));
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((stderr += String(chunk)), true));
  process.exitCode = undefined;
  try {
    await main(argv);
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
  const code = Number(process.exitCode ?? 0);
  process.exitCode = undefined;
  return { stdout, stderr, code };
}
