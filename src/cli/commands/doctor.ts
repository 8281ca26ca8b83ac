/**
 * `tslc doctor`: what this installation can do — Node version, the builtin engine, and each
 * external synthesizer (where it was found, its version, or what to install and how to point
 * tslc at it). Exit 0 even when tools are missing: they are optional.
 */
import { configPath, findTools, loadConfig, type ToolInfo } from '../../external/tools.js';
import { ExitCode } from '../exit-codes.js';

interface DoctorReport {
  readonly node: string;
  readonly config?: string;
  readonly backends: readonly {
    readonly name: string;
    readonly available: boolean;
    readonly path?: string;
    readonly source?: string;
    readonly version?: string;
    readonly problem?: string;
  }[];
}

export async function doctorReport(env: NodeJS.ProcessEnv = process.env): Promise<DoctorReport> {
  const config = loadConfig(env);
  const tools: ToolInfo[] = await findTools({ env, config });
  return {
    node: process.version,
    config: configPath(env),
    backends: [
      { name: 'builtin', available: true, version: 'bundled' },
      ...tools.map((t) => ({
        name: t.tool,
        available: t.available,
        path: t.location?.path,
        source: t.location?.source,
        version: t.version,
        problem: t.problem,
      })),
    ],
  };
}

export function formatDoctorReport(r: DoctorReport): string {
  const lines = [`node     ${r.node}`, `config   ${r.config ?? 'none (tslc.config.json, $TSLC_CONFIG or ~/.config/tslc/config.json)'}`, '', 'synthesis back ends:'];
  for (const b of r.backends) {
    const name = b.name.padEnd(8);
    if (b.available) {
      const where = b.path ? ` ${b.path} (from ${b.source === 'path' ? 'PATH' : b.source})` : '';
      lines.push(`  ✓ ${name} ${b.version ?? 'unknown version'}${where}`);
    } else lines.push(`  ✗ ${name} ${b.problem ?? 'unavailable'}`);
  }
  const usable = r.backends.filter((b) => b.available).map((b) => b.name);
  lines.push('', `--synthesizer choices that will work: ${[...usable, 'auto'].join(', ')}`);
  return lines.join('\n');
}

export async function run(args: Record<string, unknown>): Promise<number> {
  const report = await doctorReport();
  process.stdout.write((args.json ? JSON.stringify(report, null, 2) : formatDoctorReport(report)) + '\n');
  return ExitCode.ok;
}
