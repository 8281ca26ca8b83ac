/**
 * The reference fixtures' file format: a `# header` line saying how the records were made, then
 * one JSON record per line; Brotli-compressed when the file name ends in `.br`.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';

/** The records of `file`, or none when it does not exist (the test then skips). */
export function readJsonLines<T>(file: string): T[] {
  if (!existsSync(file)) return [];
  const bytes = readFileSync(file);
  return (file.endsWith('.br') ? brotliDecompressSync(bytes) : bytes)
    .toString('utf8')
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as T);
}

export function writeJsonLines(file: string, header: string, records: readonly unknown[]): void {
  const text = [`# ${header}`, ...records.map((r) => JSON.stringify(r)), ''].join('\n');
  writeFileSync(file, file.endsWith('.br') ? brotliCompressSync(text) : text);
}
