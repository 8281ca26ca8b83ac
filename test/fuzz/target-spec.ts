/**
 * In-process targets for spec files, each input under one hard time limit:
 *  - TSL: parse; `fmt` (its output must parse again, to the same AST); load (check, imports,
 *    abstraction); the abstraction written as TLSF must be read back by our own TLSF reader;
 *    then, for small games, realizability with a short timeout.
 *  - TLSF: load with a front-end deadline (parameters, definitions and big operators can expand
 *    for long: past the deadline is a timeout, as `check --timeout` reports it); written back as
 *    TLSF and read again; then, for small games, realizability.
 */
import { FrontEndTimeout } from '../../src/frontend/load.js';
import type { GameSpec } from '../../src/game/spec.js';
import { children, type Formula, size } from '../../src/ltl/formula.js';
import { checkRealizability } from '../../src/synthesis/index.js';
import { loadTlsfGame, parseTlsf } from '../../src/tlsf/index.js';
import { writeTlsf } from '../../src/tlsf/write.js';
import { formatTsl, loadTslGame, parseTsl } from '../../src/tsl/index.js';
import { describeThrown, interruptible, OK, type Result, TIMEOUT, userErrorResult } from './oracle.js';

export interface SpecLimits {
  /** Hard limit for one input, all stages together. */
  readonly hardMs: number;
  /** TLSF front-end deadline (the `--timeout` of `check`). */
  readonly frontEndMs: number;
  /** Synthesis timeout, for games small enough to try. */
  readonly synthMs: number;
  /** Whether to run synthesis on this input at all. */
  readonly synthesize: boolean;
}

const LOCATION_KEYS = new Set(['loc', 'fnLoc', 'targetLoc', 'pathLoc', 'paren', 'file']);

/** The AST without positions and parenthesis marks, as one string; undefined when too deep to walk. */
function astKey(ast: unknown): string | undefined {
  try {
    return JSON.stringify(ast, (k, v: unknown) => (LOCATION_KEYS.has(k) ? undefined : v));
  } catch (err) {
    if (err instanceof RangeError) return undefined;
    throw err;
  }
}

/** Small enough that a short synthesis attempt is worth making. */
function smallGame(game: GameSpec): boolean {
  if (game.inputs.length + game.outputs.length > 14) return false;
  let total = 0;
  for (const p of [...game.initially, ...game.preset, ...game.assumptions, ...game.guarantees]) total += size(p.formula);
  return total <= 120;
}

/** Realizability under a short timeout: any verdict is fine, unknown counts as a timeout. */
function synthesisStage(game: GameSpec, limits: SpecLimits): Result {
  if (!limits.synthesize || !smallGame(game)) return OK;
  const r = checkRealizability(game, { timeoutMs: limits.synthMs });
  if (r.verdict === 'unknown') return { outcome: 'timeout', detail: `synthesis: ${r.reason}` };
  return OK;
}

/**
 * The size and depth of a formula written out as a tree. Formulas are shared DAGs (a TLSF
 * definition that doubles at each level is 60 nodes, 2^60 as text) and may be thousands deep (the
 * TLSF reader takes any depth); the writer prints trees recursively, as the TSL front end makes
 * them (bounded in size and depth), so only such formulas are given to it.
 */
function treeShape(roots: readonly Formula[], cap: number): { size: number; depth: number } {
  const memo = new Map<number, { size: number; depth: number }>();
  const stack: { f: Formula; expanded: boolean }[] = roots.map((f) => ({ f, expanded: false }));
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    if (memo.has(top.f.id)) {
      stack.pop();
      continue;
    }
    const kids = children(top.f);
    if (!top.expanded) {
      top.expanded = true;
      for (const k of kids) if (!memo.has(k.id)) stack.push({ f: k, expanded: false });
      continue;
    }
    stack.pop();
    let s = 1;
    let d = 0;
    for (const k of kids) {
      const m = memo.get(k.id)!;
      s = Math.min(cap, s + m.size);
      d = Math.max(d, m.depth);
    }
    memo.set(top.f.id, { size: s, depth: d + 1 });
  }
  let total = 0;
  let depth = 0;
  for (const f of roots) {
    const m = memo.get(f.id)!;
    total = Math.min(cap, total + m.size);
    depth = Math.max(depth, m.depth);
  }
  return { size: total, depth };
}

/** Our own TLSF writer's output must be readable by our own TLSF reader. */
function tlsfRoundTrip(game: GameSpec, what: string): Result {
  if (game.inputs.length + game.outputs.length > 2000) return OK;
  const parts = [...game.initially, ...game.preset, ...game.assumptions, ...game.guarantees].map((p) => p.formula);
  const shape = treeShape(parts, 200_001);
  if (shape.size > 200_000 || shape.depth > 400) return OK;
  const text = writeTlsf(game);
  try {
    parseTlsf(`${what}.tlsf`, text);
  } catch (err) {
    return { outcome: 'internal', detail: `the TLSF written for this ${what} does not read back: ${err instanceof Error ? err.message.slice(0, 300) : String(err)}` };
  }
  return OK;
}

export interface TslOptions {
  readonly file: string;
  readonly importRoot?: string;
  readonly style: 'curried' | 'call';
}

export function runTsl(text: string, options: TslOptions, limits: SpecLimits): Result {
  const source = { file: options.file, text };
  let result: Result = OK;
  const done = interruptible(() => {
    result = tslStages(text, options, limits, source);
  }, limits.hardMs);
  return done ? result : { outcome: 'hang', detail: `TSL input still running after ${limits.hardMs} ms` };
}

function tslStages(text: string, options: TslOptions, limits: SpecLimits, source: { file: string; text: string }): Result {
  let ast;
  try {
    ast = parseTsl(options.file, text);
  } catch (err) {
    return userErrorResult(err, source) ?? { outcome: 'internal', detail: `parse: ${describeThrown(err)}` };
  }
  // `tslc fmt`: whatever parses must format, and the output must parse to the same AST.
  let formatted: string;
  try {
    formatted = formatTsl(ast, { style: options.style, source: text });
  } catch (err) {
    return userErrorResult(err, source) ?? { outcome: 'internal', detail: `fmt: ${describeThrown(err)}` };
  }
  let reparsed;
  try {
    reparsed = parseTsl(options.file, formatted);
  } catch (err) {
    return { outcome: 'internal', detail: `fmt output does not parse: ${err instanceof Error ? err.message.slice(0, 300) : String(err)}\n--- fmt output ---\n${formatted.slice(0, 400)}` };
  }
  const before = astKey(ast);
  const after = astKey(reparsed);
  if (before !== undefined && after !== undefined && before !== after)
    return { outcome: 'internal', detail: `fmt changed the meaning (the AST differs)\n--- fmt output ---\n${formatted.slice(0, 400)}` };

  let game: GameSpec;
  try {
    game = loadTslGame(options.file, text, { importRoot: options.importRoot }).game;
  } catch (err) {
    return userErrorResult(err, source) ?? { outcome: 'internal', detail: `load: ${describeThrown(err)}` };
  }
  try {
    const written = tlsfRoundTrip(game, 'TSL spec');
    if (written.outcome !== 'ok') return written;
    return synthesisStage(game, limits);
  } catch (err) {
    return { outcome: 'internal', detail: `after loading: ${describeThrown(err)}` };
  }
}

export function runTlsf(text: string, file: string, limits: SpecLimits, params?: Readonly<Record<string, number>>): Result {
  const source = { file, text };
  let result: Result = OK;
  const done = interruptible(() => {
    const deadline = performance.now() + limits.frontEndMs;
    let game: GameSpec;
    try {
      game = loadTlsfGame(file, text, {
        params,
        poll: () => {
          if (performance.now() > deadline) throw new FrontEndTimeout();
        },
      });
    } catch (err) {
      if (err instanceof FrontEndTimeout) {
        result = TIMEOUT;
        return;
      }
      result = userErrorResult(err, source) ?? { outcome: 'internal', detail: `load: ${describeThrown(err)}` };
      return;
    }
    try {
      const written = tlsfRoundTrip(game, 'TLSF spec');
      result = written.outcome !== 'ok' ? written : synthesisStage(game, limits);
    } catch (err) {
      result = { outcome: 'internal', detail: `after loading: ${describeThrown(err)}` };
    }
  }, limits.hardMs);
  return done ? result : { outcome: 'hang', detail: `TLSF input still running after ${limits.hardMs} ms (front-end deadline ${limits.frontEndMs} ms)` };
}
