/**
 * The bundler plugin's cache of compiled specs, keyed by content: the spec's text, its path, the
 * options that shape the module and tslc's version. An entry also records every file the spec
 * imported with the hash of its text, and is used only while each still hashes the same, so
 * editing an import recompiles the specs that read it. Entries live in memory (a dev server
 * transforms the same spec again and again) and, unless disabled, on disk (a CI build after an
 * unchanged spec skips synthesis). Only verified modules are ever stored.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Diagnostic } from '../diagnostics/diagnostic.js';

export interface CachedModule {
  /** The controller module as JavaScript, ready for the bundler. */
  readonly code: string;
  /** The declaration's text (`<spec>.d.tsl.ts`), when declarations are on. */
  readonly declaration?: string;
  /** Every file read besides the spec itself, with the hash of the text it had. */
  readonly imports: readonly { readonly path: string; readonly hash: string }[];
  readonly warnings: readonly Diagnostic[];
}

/** The cache format; bump it when `CachedModule` changes. */
const FORMAT = 1;

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The hash of a file's current text, or undefined when it cannot be read. */
export function hashOfFile(path: string): string | undefined {
  try {
    return sha256(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

export class ModuleCache {
  readonly #memory = new Map<string, CachedModule>();

  /** `dir`: where entries are kept on disk, or undefined for memory only. */
  constructor(readonly dir: string | undefined) {}

  key(parts: Readonly<Record<string, unknown>>): string {
    return sha256(JSON.stringify({ format: FORMAT, ...parts }));
  }

  /** The entry for `key`, if every import it recorded still has the same text. */
  get(key: string): CachedModule | undefined {
    const entry = this.#memory.get(key) ?? this.#fromDisk(key);
    if (entry === undefined || !entry.imports.every((i) => hashOfFile(i.path) === i.hash)) return undefined;
    this.#memory.set(key, entry);
    return entry;
  }

  set(key: string, entry: CachedModule): void {
    this.#memory.set(key, entry);
    if (this.dir === undefined) return;
    try {
      mkdirSync(this.dir, { recursive: true });
      // Written aside and renamed, so a build running beside this one never reads half an entry.
      const file = join(this.dir, `${key}.json`);
      const partial = `${file}.${process.pid}.tmp`;
      writeFileSync(partial, JSON.stringify(entry));
      renameSync(partial, file);
    } catch {
      // A cache that cannot be written only costs the next build a compilation.
    }
  }

  #fromDisk(key: string): CachedModule | undefined {
    if (this.dir === undefined) return undefined;
    try {
      const entry = JSON.parse(readFileSync(join(this.dir, `${key}.json`), 'utf8')) as CachedModule;
      return typeof entry.code === 'string' && Array.isArray(entry.imports) && Array.isArray(entry.warnings) ? entry : undefined;
    } catch {
      return undefined;
    }
  }
}
