/**
 * Building a report from spec files: load (and compose, for several files), decide, then either
 * draw the controller or explain the conflict. Shared by `tslc report` and tests.
 */
import { readInputFile } from '../diagnostics/read-input.js';
import { composeGames } from '../codegen/compose.js';
import { buildDiagram } from '../explain/diagram.js';
import { explainUnrealizable } from '../explain/explain.js';
import { loadGame } from '../frontend/load.js';
import type { GameSpec, TheoryName } from '../game/spec.js';
import { synthesize } from '../synthesis/index.js';
import { type ReportInput, renderReport } from './html.js';
import { nowMs } from '../diagnostics/clock.js';

export interface LoadSpecsOptions {
  /** TSL imports only from inside this directory (`--import-root`). */
  readonly importRoot?: string;
  /** The theory to read TSL specs in, overriding their headers (`--theory`). */
  readonly theory?: TheoryName | 'none';
  /** A `nowMs()` time after which loading stops with `FrontEndTimeout`. */
  readonly deadline?: number;
}

export interface BuildReportOptions extends LoadSpecsOptions {
  readonly timeoutMs?: number;
}

export async function loadSpecs(files: readonly string[], options: LoadSpecsOptions = {}): Promise<GameSpec> {
  const games = await Promise.all(files.map((f) => loadGame(f, { importRoot: options.importRoot, deadline: options.deadline, theory: options.theory })));
  const name = games.map((g) => g.name).join(' ∧ ');
  return games.length === 1 ? games[0] : composeGames(name, games);
}

export async function buildReportInput(files: readonly string[], options: BuildReportOptions = {}): Promise<ReportInput> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const spec = await loadSpecs(files, options);
  const texts = files.map((path) => ({ path, text: readInputFile(path) }));
  const title = `${spec.name}`;
  const theoryParts = spec.assumptions.filter((p) => p.theory !== undefined);
  const theory = spec.theory ? { name: `#${spec.theory}`, facts: theoryParts.map((p) => ({ kind: p.theory!.kind, fact: p.theory!.fact })) } : undefined;
  const result = synthesize(spec, { timeoutMs });
  if (result.verdict === 'realizable')
    return { title, files: texts, verdict: 'realizable', seconds: result.seconds, diagram: buildDiagram(result.controller, spec), theory };
  if (result.verdict === 'unknown')
    return { title, files: texts, verdict: 'unknown', seconds: result.seconds, note: `The solver gave up: ${result.reason}.`, theory };
  const explanation = explainUnrealizable(spec, { knownUnrealizable: true, budgetMs: timeoutMs });
  return {
    title,
    files: texts,
    verdict: 'unrealizable',
    seconds: result.seconds,
    explanation: explanation.verdict === 'unrealizable' ? explanation : undefined,
    theory,
  };
}

export async function buildReport(files: readonly string[], options: BuildReportOptions = {}): Promise<string> {
  return renderReport(await buildReportInput(files, options));
}
