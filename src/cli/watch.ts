/**
 * Watching specs the way editors save them: `tslc compile --watch` re-runs whenever a spec, or a
 * file a spec imports, changes — edited in place, replaced by a rename (vim, IntelliJ, VS Code's
 * safe write), deleted and written anew. Watching the file itself loses it at the first rename
 * (the watched inode is gone), so the directories holding the files are watched instead, and
 * events are filtered by path.
 *
 * chokidar does the watching: the well-kept watcher behind Vite, webpack and most editors'
 * tooling, which smooths over fs.watch's platform differences (duplicate events, renames
 * reported as `rename` on one platform and `change` on another, macOS FSEvents). Bursts of events
 * (a save is often unlink + add + change) are debounced into one run, and a change that arrives
 * during a run triggers one more run after it.
 */
import { dirname, resolve } from 'node:path';

export interface WatchOptions {
  /** Quiet time after the last event before a run starts (default 100 ms). */
  readonly debounceMs?: number;
  /** Stops watching (resolves `watchFiles`). */
  readonly signal: AbortSignal;
  /** Called once the directories are being watched (changes from then on are seen). */
  readonly onReady?: () => void;
}

/**
 * Runs `run` whenever one of the files it depends on changes. `run` returns the files the next
 * round depends on (e.g. a spec's new imports); the first set is `files`. Resolves when `signal` aborts.
 */
export async function watchFiles(files: readonly string[], run: () => Promise<readonly string[]>, options: WatchOptions): Promise<void> {
  const { watch } = await import('chokidar');
  let watched = new Set(files.map((f) => resolve(f)));
  const directories = new Set([...watched].map((p) => dirname(p)));
  // depth 0: the directory's own entries; nothing below it is scanned or watched.
  const watcher = watch([...directories], { ignoreInitial: true, depth: 0, atomic: true });
  const watchDirectoriesOf = (paths: Iterable<string>): void => {
    const fresh = [...new Set([...paths].map((p) => dirname(p)))].filter((d) => !directories.has(d));
    for (const d of fresh) directories.add(d);
    if (fresh.length > 0) watcher.add(fresh);
  };

  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  const round = async (): Promise<void> => {
    do {
      again = false;
      const next = await run();
      watched = new Set([...files, ...next].map((f) => resolve(f)));
      watchDirectoriesOf(watched);
    } while (again && !options.signal.aborted);
    running = undefined;
  };
  const changed = (path: string): void => {
    if (!watched.has(resolve(path))) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (running) again = true;
      else running = round();
    }, options.debounceMs ?? 100);
  };
  watcher.on('add', changed).on('change', changed).on('unlink', changed);
  watcher.once('ready', () => options.onReady?.());

  await new Promise<void>((done) => {
    if (options.signal.aborted) done();
    else options.signal.addEventListener('abort', () => done(), { once: true });
  });
  clearTimeout(timer);
  await running;
  await watcher.close();
}
