/**
 * Running Spot's `ltlfilt` (when installed) to learn how Spot reads formulas: its fully
 * parenthesised output (`-p`), or the fact that it rejects the text. Used to regenerate the
 * committed fixtures and by the live test; the suite itself never needs Spot.
 */
import { spawnSync } from 'node:child_process';

/** Spot's reading: its `-p` text, or `null` with the first line of its complaint. */
export type SpotReading = { readonly spot: string } | { readonly spot: null; readonly error: string };

export function ltlfiltVersion(): string | null {
  const r = spawnSync('ltlfilt', ['--version'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) return null;
  return r.stdout.split('\n')[0].trim();
}

function firstComplaint(stderr: string): string {
  const lines = stderr.split('\n').map((l) => l.trim());
  // ltlfilt prints `>>> text`, a caret line, then the message.
  const msg = lines.find((l, k) => k > 0 && l !== '' && !l.startsWith('>>>') && !/^\^+$/.test(l) && !l.startsWith('ltlfilt:'));
  return msg ?? 'rejected';
}

function runOne(input: string): SpotReading {
  // Spot 2.12.1's error printer can loop on some rejected inputs (e.g. `G [] & U =0 0 "q r" => G`
  // prints carets forever), so a time and output cap end it; diagnostics on stderr with nothing on
  // stdout still mean "rejected" (ltlfilt prints a formula only when it parsed without error).
  const r = spawnSync('ltlfilt', ['-p', '-f', input], { encoding: 'utf8', timeout: 10_000, maxBuffer: 1 << 20 });
  if (r.status === 0) return { spot: r.stdout.replace(/\n$/, '') };
  if (r.status === 2 || (r.stdout === '' && /^>>> /m.test(r.stderr ?? ''))) return { spot: null, error: firstComplaint(r.stderr ?? '') };
  throw new Error(`ltlfilt failed on ${JSON.stringify(input)}: ${String(r.error ?? r.stderr)}`);
}

/**
 * Spot's reading of each input, one `ltlfilt` run per input: a batch run (`-F`) would be faster
 * but lets one input's scanner state or looping error report affect the next.
 */
export function readWithSpot(inputs: readonly string[]): SpotReading[] {
  return inputs.map(runOne);
}
