/**
 * examples/cyoa — the choose-your-own-adventure agent of the papers (000 Sec. 5, 001 Sec. 5/7):
 * tasks (this file), the four-step turn (agent.ts), adherence checks (adherence.ts), the
 * evaluation behind `npm run eval:cyoa` and its tables (eval.ts), the papers' prompt-only baseline
 * (baseline.ts). Prompts are in prompts.ts, the simulated player in player.ts.
 *
 * This module maps each task of Table 1 to its controller module in generated/ (compiled from
 * specs/ by `tslc compile`, verified before it was written). Modules are loaded by path so that a
 * task whose module has not been generated yet is reported as missing instead of breaking the build.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ControllerMetadata, ControllerTable, ImplementationBindings } from '../../runtime/index.js';
import { CYOA_TASKS, type CyoaTask } from './prompts.js';

export const TASK_ORDER: readonly CyoaTask[] = ['adventure', 'forest', 'choices', 'all'];

/** File stem of each task's module in generated/ (the `--as` name of the composed compile). */
export const GENERATED_MODULE: Readonly<Record<CyoaTask, string>> = {
  adventure: 'adventure',
  forest: 'adventure-forest',
  choices: 'adventure-choices',
  all: 'adventure-choices-forest',
};

/** The `tslc compile` command that produces a task's module. */
export function compileCommand(task: CyoaTask): string {
  const files = CYOA_TASKS[task].specs.map((f) => `specs/${f}`).join(' ');
  return CYOA_TASKS[task].specs.length === 1
    ? `tslc compile ${files} -o generated`
    : `tslc compile ${files} --as ${GENERATED_MODULE[task]} -o generated`;
}

export interface TaskController {
  readonly task: CyoaTask;
  readonly table: ControllerTable;
  readonly metadata?: ControllerMetadata;
  readonly bindings?: ImplementationBindings;
  /** Where the module was loaded from. */
  readonly modulePath: string;
}

export class MissingControllerError extends Error {
  constructor(readonly task: CyoaTask) {
    super(`no controller for task '${task}': generated/${GENERATED_MODULE[task]}.ts is missing; run \`${compileCommand(task)}\``);
    this.name = 'MissingControllerError';
  }
}

/** generated/ relative to this file: the same layout in the sources and in dist/. */
function modulePathOf(task: CyoaTask): string | undefined {
  for (const ext of ['.js', '.ts']) {
    const path = fileURLToPath(new URL(`../../generated/${GENERATED_MODULE[task]}${ext}`, import.meta.url));
    if (existsSync(path)) return path;
  }
  return undefined;
}

export function hasController(task: CyoaTask): boolean {
  return modulePathOf(task) !== undefined;
}

function isTable(value: unknown): value is ControllerTable {
  return typeof value === 'object' && value !== null && Array.isArray((value as ControllerTable).states) && Array.isArray((value as ControllerTable).predicates);
}

/** Loads a task's generated module and picks out its table, metadata and bindings exports. */
export async function loadTaskController(task: CyoaTask): Promise<TaskController> {
  const path = modulePathOf(task);
  if (!path) throw new MissingControllerError(task);
  const module = (await import(/* @vite-ignore */ pathToFileURL(path).href)) as Record<string, unknown>;
  const entries = Object.entries(module);
  const table = entries.find(([name, value]) => name.endsWith('Table') && isTable(value))?.[1] as ControllerTable | undefined;
  if (!table) throw new Error(`${path} exports no controller table`);
  const metadata = entries.find(([name]) => name.endsWith('Metadata'))?.[1] as ControllerMetadata | undefined;
  const bindings = entries.find(([name]) => name.endsWith('Bindings'))?.[1] as ImplementationBindings | undefined;
  return { task, table, metadata, bindings, modulePath: path };
}
