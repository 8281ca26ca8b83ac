/**
 * `npm run bench [-- <section-name>…] [--option value…]`: runs the benchmark sections
 * (all by default), prints the markdown and writes it to bench/results/<section>.md; bench/results.md
 * is then rebuilt from every section's latest file, so running one section keeps the others' tables.
 * `npm run bench -- --help` lists the sections and the options each reads.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseBenchArgs, usage } from './args.js';
import { sections } from './sections.js';

const parsed = parseBenchArgs(process.argv.slice(2), sections);
if (parsed.kind === 'help') {
  process.stdout.write(usage(sections));
  process.exit(0);
}
if (parsed.kind === 'error') {
  process.stderr.write(`bench: ${parsed.message}\n(npm run bench -- --help lists the sections and their options)\n`);
  process.exit(2);
}
const { chosen, args: argv } = parsed;
// dist/bench/index.js → ../../bench/ (the source folder, so the tables can be committed).
const perSection = (name: string) => fileURLToPath(new URL(`../../bench/results/${name}.md`, import.meta.url));
mkdirSync(fileURLToPath(new URL('../../bench/results/', import.meta.url)), { recursive: true });
const stamp = `_Measured on ${new Date().toISOString().slice(0, 10)} with Node ${process.version}._\n\n`;
for (const section of chosen) {
  process.stderr.write(`== ${section.name}: ${section.describe}\n`);
  const md = await section.run({ log: (m) => process.stderr.write(`${m}\n`), args: argv });
  writeFileSync(perSection(section.name), stamp + md);
  process.stdout.write(md + '\n');
}
const combined = sections
  .filter((s) => existsSync(perSection(s.name)))
  .map((s) => readFileSync(perSection(s.name), 'utf8'));
const header = '# tslc benchmarks\n\nWritten by `npm run bench` (one section: `npm run bench -- <name>`); each section says when it was measured.\n';
writeFileSync(fileURLToPath(new URL('../../bench/results.md', import.meta.url)), [header, ...combined].join('\n'));
