/**
 * The theory step's cost (`npm run bench -- theories`): for every spec with a `#LIA`/`#UF` header
 * in specs/, test/fixtures/theories/ and the shared corpus, the time deriving its theory
 * assumptions takes — in a fresh process (as one `tslc check` pays it, compilation of the theory
 * code included) and warm — with the number of facts and solver queries.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchSection } from './sections.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const HEADER = /^(?:\s|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*#(?:LIA|UF|EUF|QF_UF)(?![A-Za-z0-9_@'.])/;

function theorySpecs(): string[] {
  const dirs = ['specs', 'test/fixtures/theories', ...(process.env.TSLC_CORPUS ? [process.env.TSLC_CORPUS] : ['../shared/corpus', '/work/shared/corpus'])];
  const out: string[] = [];
  const walk = (dir: string): void => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.tsl') && HEADER.test(readFileSync(path, 'utf8'))) out.push(path);
    }
  };
  for (const d of dirs) walk(join(root, d).replace(/\/$/, ''));
  return [...new Set(out)].sort();
}

const probe = `
const { readFileSync } = require('node:fs');
import(process.argv[1]).then(({ loadTslGame }) => {
  const file = process.argv[2];
  const text = readFileSync(file, 'utf8');
  loadTslGame(file, text, { theory: 'none' }); // the front end itself warmed up: only the theory step is new
  const cold = loadTslGame(file, text).theory;
  let warm = cold;
  for (let i = 0; i < 5; i++) warm = loadTslGame(file, text).theory;
  process.stdout.write(JSON.stringify({ cold: cold.milliseconds, warm: warm.milliseconds, facts: cold.parts.length, queries: cold.queries, exhaustive: cold.exhaustive }));
});`;

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

export const theoriesSection: BenchSection = {
  name: 'theories',
  describe: 'cost of deriving #LIA/#UF assumptions per spec (fresh process and warm)',
  async run({ log }) {
    const rows: string[] = [];
    const cold: number[] = [];
    const warm: number[] = [];
    for (const file of theorySpecs()) {
      const r = spawnSync(process.execPath, ['-e', probe, join(root, 'dist/src/tsl/index.js'), file], { encoding: 'utf8', timeout: 60_000 });
      if (r.status !== 0) {
        log(`${file}: failed: ${r.stderr.split('\n')[0]}`);
        continue;
      }
      const m = JSON.parse(r.stdout) as { cold: number; warm: number; facts: number; queries: number; exhaustive: boolean };
      cold.push(m.cold);
      warm.push(m.warm);
      const rel = file.startsWith(root) ? file.slice(root.length) : file;
      log(`${rel}: ${m.cold.toFixed(1)} ms cold, ${m.warm.toFixed(1)} ms warm`);
      rows.push(`| ${rel} | ${m.facts} | ${m.queries} | ${m.cold.toFixed(1)} | ${m.warm.toFixed(1)} | ${m.exhaustive ? 'yes' : 'no'} |`);
    }
    return [
      '## Theory step (#LIA, #UF)',
      '',
      `Deriving the theory assumptions of ${rows.length} specs (fresh process: the first derivation, compiling the theory code; warm: the sixth).`,
      '',
      '| spec | facts | queries | ms, fresh process | ms, warm | every candidate examined |',
      '| --- | ---: | ---: | ---: | ---: | --- |',
      ...rows,
      '',
      `Median ${median(cold).toFixed(1)} ms (worst ${Math.max(...cold).toFixed(1)} ms) in a fresh process; median ${median(warm).toFixed(1)} ms (worst ${Math.max(...warm).toFixed(1)} ms) warm.`,
      '',
    ].join('\n');
  },
};
