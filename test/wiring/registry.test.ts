/**
 * The new flags reach the commands through the yargs registry (src/cli/commands/index.ts): spawns
 * the built CLI (`npm test` builds first; skips without dist/).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { printingTool, tempDir } from '../external/fake-tools.js';

const root = join(import.meta.dirname, '../..');
const built = existsSync(join(root, 'dist/src/cli/main.js'));
const dir = tempDir();
const iff = join(dir, 'iff.tlsf');
writeFileSync(
  iff,
  'INFO { TITLE: "iff" DESCRIPTION: "test" SEMANTICS: Mealy TARGET: Mealy }\nMAIN {\n  INPUTS { r; }\n  OUTPUTS { g; }\n  GUARANTEE { G (r <-> g); }\n}\n',
);

function tslc(argv: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [join(root, 'bin/tslc.js'), ...argv], {
    cwd: root,
    env: { ...process.env, TSLC_CONFIG: '', TSLC_STRIX: '', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe.skipIf(!built)('flags in the CLI registry', () => {
  test('check --synthesizer ltlsynt --tool-timeout 5 runs the tool', () => {
    const tool = printingTool(dir, 'ltlsynt-unreal', 'UNREALIZABLE\n', 1);
    const r = tslc(['check', iff, '--synthesizer', 'ltlsynt', '--tool-timeout', '5'], { TSLC_LTLSYNT: tool });
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/iff\.tlsf: unrealizable \([\d.]+ s, ltlsynt\)/);
    expect(r.status).toBe(1);
  });

  test('check --no-explain, synth --format mermaid, compile with a bare --diagram', () => {
    const tutor = 'specs/unrealizable/tutor-as-printed.tsl';
    const explained = tslc(['check', tutor]);
    expect(explained.status).toBe(1);
    expect(explained.stdout).toMatch(/^specs\/unrealizable\/tutor-as-printed\.tsl: unrealizable .*\n[\s\S]*core \(minimal/);
    const quiet = tslc(['check', tutor, '--no-explain']);
    expect(quiet.status).toBe(1);
    expect(quiet.stdout.trim().split('\n')).toHaveLength(1);
    const mermaid = tslc(['synth', 'specs/conflicts/shopkeeper.tsl', '--format', 'mermaid']);
    expect(mermaid.status).toBe(0);
    expect(mermaid.stdout).toMatch(/^stateDiagram-v2\n/);
    const outDir = join(dir, 'out');
    const compiled = tslc(['compile', 'specs/conflicts/shopkeeper.tsl', '--diagram', '-o', outDir]);
    expect(compiled.status).toBe(0);
    expect(readFileSync(join(outDir, 'shopkeeper.mmd'), 'utf8')).toMatch(/^stateDiagram-v2\n/);
  });
});
