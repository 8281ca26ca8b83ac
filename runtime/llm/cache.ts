/**
 * Response caching keyed by (model, prompt, seed and the other sampling options), so an evaluation
 * can be re-run, re-scored or extended without paying for the same calls twice. A file cache
 * survives between runs; the memory cache is for tests and single runs.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChatMessage, GenerateOptions, TokenUsage } from './model.js';

export interface CachedResponse {
  readonly text: string;
  readonly usage: TokenUsage;
}

export interface ResponseCache {
  get(key: string): Promise<CachedResponse | undefined>;
  set(key: string, value: CachedResponse): Promise<void>;
}

/** SHA-256 over everything that changes the answer; the abort signal is deliberately not part of it. */
export function cacheKey(modelId: string, messages: readonly ChatMessage[], options: GenerateOptions = {}): string {
  const material = JSON.stringify({
    v: 1,
    model: modelId,
    messages: messages.map((m) => [m.role, m.content]),
    seed: options.seed ?? null,
    temperature: options.temperature ?? null,
    maxTokens: options.maxTokens ?? null,
    stop: options.stop ?? null,
  });
  return createHash('sha256').update(material).digest('hex');
}

export class MemoryCache implements ResponseCache {
  private readonly entries = new Map<string, CachedResponse>();

  get size(): number {
    return this.entries.size;
  }

  async get(key: string): Promise<CachedResponse | undefined> {
    return this.entries.get(key);
  }

  async set(key: string, value: CachedResponse): Promise<void> {
    this.entries.set(key, value);
  }
}

/** One JSON file per key under `directory`; unreadable or corrupt entries count as misses. */
export class FileCache implements ResponseCache {
  constructor(private readonly directory: string) {}

  private pathOf(key: string): string {
    if (!/^[0-9a-f]{16,128}$/.test(key)) throw new Error(`invalid cache key ${JSON.stringify(key)}`);
    return join(this.directory, `${key}.json`);
  }

  async get(key: string): Promise<CachedResponse | undefined> {
    try {
      const value: unknown = JSON.parse(await readFile(this.pathOf(key), 'utf8'));
      if (typeof value === 'object' && value !== null && typeof (value as CachedResponse).text === 'string') {
        const usage = (value as { usage?: unknown }).usage;
        return { text: (value as CachedResponse).text, usage: typeof usage === 'object' && usage ? usage : {} };
      }
    } catch {
      // Missing or corrupt: a miss.
    }
    return undefined;
  }

  async set(key: string, value: CachedResponse): Promise<void> {
    await mkdir(this.directory, { recursive: true });
    const path = this.pathOf(key);
    // Write-then-rename so a concurrent reader never sees half a file.
    const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(temporary, JSON.stringify(value));
    await rename(temporary, path);
  }
}
