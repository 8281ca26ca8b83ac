/**
 * Finding external synthesizers and describing them: where the binary is (environment variable,
 * config file, or PATH — in that order), its version, and what to install when it is missing.
 */
import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { UserError } from '../diagnostics/diagnostic.js';
import { runProcess } from './process.js';

export type ToolName = 'ltlsynt' | 'strix';
export const TOOL_NAMES: readonly ToolName[] = ['ltlsynt', 'strix'];

export const ENV_VARS: Readonly<Record<ToolName, string>> = { ltlsynt: 'TSLC_LTLSYNT', strix: 'TSLC_STRIX' };

const INSTALL_HINT: Readonly<Record<ToolName, string>> = {
  ltlsynt: 'install Spot (https://spot.lre.epita.fr/install.html, e.g. `apt install spot` or `conda install -c conda-forge spot`)',
  strix: 'install Strix (https://strix.model.in.tum.de: release binary, or build from source)',
};

/** Where the user can point tslc at a tool. */
export interface ToolLocation {
  readonly tool: ToolName;
  readonly path: string;
  readonly source: 'env' | 'config' | 'path';
  /** Extra arguments from the config file, passed before ours. */
  readonly extraArgs: readonly string[];
}

export interface ToolInfo {
  readonly tool: ToolName;
  readonly available: boolean;
  readonly location?: ToolLocation;
  readonly version?: string;
  /** Why it is unavailable (missing, not executable, version probe failed). */
  readonly problem?: string;
}

/** One line saying what to install and how to point tslc at it. */
export function missingToolMessage(tool: ToolName): string {
  return `${tool} not found: ${INSTALL_HINT[tool]}, then put it on PATH, set ${ENV_VARS[tool]}=/path/to/${tool}, or add {"synthesizers": {"${tool}": "/path/to/${tool}"}} to tslc.config.json`;
}

// ---------------------------------------------------------------------------------------------
// Config file

export interface ToolConfigEntry {
  readonly path: string;
  readonly args: readonly string[];
}
export interface ExternalConfig {
  readonly file?: string;
  readonly synthesizers: Partial<Record<ToolName, ToolConfigEntry>>;
  /** Default per-spec timeout for external tools. */
  readonly timeoutMs?: number;
}

/** `TSLC_CONFIG`, else `./tslc.config.json`, else `$XDG_CONFIG_HOME/tslc/config.json`. */
export function configPath(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string | undefined {
  if (env.TSLC_CONFIG) return resolve(cwd, env.TSLC_CONFIG);
  const local = join(cwd, 'tslc.config.json');
  if (existsSync(local)) return local;
  const xdg = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  const user = join(xdg, 'tslc', 'config.json');
  return existsSync(user) ? user : undefined;
}

function configError(file: string, message: string): never {
  throw new UserError({ severity: 'error', message: `${message}`, span: { file, line: 1, col: 1 }, code: 'config' });
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): ExternalConfig {
  const file = configPath(env, cwd);
  if (!file) return { synthesizers: {} };
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    configError(file, code === 'ENOENT' ? 'config file does not exist' : `config file is not valid JSON: ${(err as Error).message}`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) configError(file, 'config file must hold a JSON object');
  const obj = raw as Record<string, unknown>;
  const synthesizers: Partial<Record<ToolName, ToolConfigEntry>> = {};
  const section = obj.synthesizers;
  if (section !== undefined) {
    if (typeof section !== 'object' || section === null || Array.isArray(section))
      configError(file, '"synthesizers" must be an object such as {"ltlsynt": "/usr/bin/ltlsynt"}');
    for (const [name, value] of Object.entries(section as Record<string, unknown>)) {
      if (!(TOOL_NAMES as readonly string[]).includes(name))
        configError(file, `unknown synthesizer "${name}" (known: ${TOOL_NAMES.join(', ')})`);
      const base = dirnameOf(file);
      if (typeof value === 'string') synthesizers[name as ToolName] = { path: resolvePath(base, value), args: [] };
      else if (typeof value === 'object' && value !== null && typeof (value as { path?: unknown }).path === 'string') {
        const args = (value as { args?: unknown }).args ?? [];
        if (!Array.isArray(args) || !args.every((a) => typeof a === 'string'))
          configError(file, `"synthesizers.${name}.args" must be an array of strings`);
        synthesizers[name as ToolName] = { path: resolvePath(base, (value as { path: string }).path), args };
      } else configError(file, `"synthesizers.${name}" must be a path or {"path": ..., "args": [...]}`);
    }
  }
  let timeoutMs: number | undefined;
  if (obj.timeoutSeconds !== undefined) {
    if (typeof obj.timeoutSeconds !== 'number' || !(obj.timeoutSeconds > 0)) configError(file, '"timeoutSeconds" must be a positive number');
    timeoutMs = obj.timeoutSeconds * 1000;
  }
  return { file, synthesizers, timeoutMs };
}

function dirnameOf(file: string): string {
  return resolve(file, '..');
}
function resolvePath(base: string, p: string): string {
  // Bare names ("ltlsynt") are looked up on PATH; anything with a slash is a path.
  return p.includes('/') && !isAbsolute(p) ? resolve(base, p) : p;
}

// ---------------------------------------------------------------------------------------------
// Discovery

function isExecutableFile(p: string): boolean {
  try {
    if (!statSync(p).isFile()) return false;
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function searchPath(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (name.includes('/')) return isExecutableFile(name) ? name : undefined;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Where the tool is configured to be, without checking it runs. A configured but missing path is
 * reported (`problem`), not silently replaced by a PATH lookup.
 */
export function locateTool(
  tool: ToolName,
  env: NodeJS.ProcessEnv = process.env,
  config: ExternalConfig = loadConfig(env),
): { location?: ToolLocation; problem?: string } {
  const fromEnv = env[ENV_VARS[tool]];
  if (fromEnv) {
    const path = searchPath(fromEnv, env);
    if (!path) return { problem: `${ENV_VARS[tool]}=${fromEnv} is not an executable file` };
    return { location: { tool, path, source: 'env', extraArgs: [] } };
  }
  const configured = config.synthesizers[tool];
  if (configured) {
    const path = searchPath(configured.path, env);
    if (!path) return { problem: `${config.file}: "${configured.path}" for ${tool} is not an executable file` };
    return { location: { tool, path, source: 'config', extraArgs: configured.args } };
  }
  const path = searchPath(tool, env);
  if (!path) return { problem: missingToolMessage(tool) };
  return { location: { tool, path, source: 'path', extraArgs: [] } };
}

/** First line of `--version`, reduced to the version number when one is recognisable. */
export async function detectVersion(location: ToolLocation, timeoutMs = 5000): Promise<{ version?: string; problem?: string }> {
  const out = await runProcess(location.path, [...location.extraArgs, '--version'], { timeoutMs });
  if (out.kind === 'spawn-error') return { problem: `cannot run ${location.path}: ${out.message}` };
  if (out.kind === 'timeout') return { problem: `${location.path} --version did not answer within ${timeoutMs} ms` };
  if (out.kind !== 'exited') return { problem: `${location.path} --version was killed` };
  const text = (out.stdout.trim() || out.stderr.trim()).split('\n')[0] ?? '';
  if (out.exitCode !== 0 && !text) return { problem: `${location.path} --version exited with status ${out.exitCode}` };
  const num = /\d+(?:\.\d+)+(?:[-.+][\w.]+)?/.exec(text);
  return { version: num ? num[0] : text || undefined };
}

export interface FindToolsOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly config?: ExternalConfig;
  /** Skip running `--version` (faster; `auto` mode only needs the path). */
  readonly probeVersion?: boolean;
  /** Limit for the `--version` probe (default 5 s). */
  readonly versionTimeoutMs?: number;
}

export async function findTool(tool: ToolName, options: FindToolsOptions = {}): Promise<ToolInfo> {
  const env = options.env ?? process.env;
  const { location, problem } = locateTool(tool, env, options.config ?? loadConfig(env));
  if (!location) return { tool, available: false, problem };
  if (options.probeVersion === false) return { tool, available: true, location };
  const v = await detectVersion(location, options.versionTimeoutMs);
  if (v.problem) return { tool, available: false, location, problem: v.problem };
  return { tool, available: true, location, version: v.version };
}

/** Every known external tool, available or not (for doctor, auto and cross-check). */
export async function findTools(options: FindToolsOptions = {}): Promise<ToolInfo[]> {
  const env = options.env ?? process.env;
  const config = options.config ?? loadConfig(env);
  return Promise.all(TOOL_NAMES.map((t) => findTool(t, { ...options, env, config })));
}
