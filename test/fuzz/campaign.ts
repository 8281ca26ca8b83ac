/**
 * A fuzz campaign: so many inputs per language, in-process through the library, and a smaller
 * number through the real CLI. Input `i` of language `L` is generated from its own seed
 * (`inputSeed(seed, L, i)`), so any finding can be regenerated alone (`replay`).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpusPath } from '../support/corpus.js';
import { syntcompCases } from '../support/syntcomp.js';
import { BIN, type CliLimits, type CliRun, runCli, runPool } from './cli.js';
import { auditInput, describeAuditCase, ruleFile } from './gen-log.js';
import { ltlInput, ltlSeeds } from './gen-ltl.js';
import { tlsfInput } from './gen-tlsf.js';
import { type ImportFixtures, makeImportFixtures, tslInput } from './gen-tsl.js';
import { excerpt, type Language, type Result, type Sample, Tally } from './oracle.js';
import { Rand } from './rand.js';
import { runAudit } from './target-audit.js';
import { runLtl } from './target-ltl.js';
import { runSnapshot, snapshotInput } from './target-snapshot.js';
import { runTlsf, runTsl } from './target-spec.js';

export interface CampaignOptions {
  readonly seed: number;
  readonly counts: Readonly<Record<Exclude<Language, 'cli'>, number>> & { readonly cli: number };
  /** Hard limit per in-process input. */
  readonly hardMs: number;
  /** Share of spec and LTL inputs also given to the synthesis engine. */
  readonly synthShare: number;
  /** Largest nesting depth, chain length or token size generated (`Rand.cap`); none by default. */
  readonly sizeCap?: number;
  /** Resident memory of the test process past which an in-process input is reported, MB (3,000). */
  readonly rssMb?: number;
  /** The TLSF front-end deadline (`check --timeout`), ms; 1,500 by default. */
  readonly frontEndMs?: number;
  readonly cli: CliLimits;
  /**
   * Wall-clock budget for the whole campaign, ms: past it no new input is started (the
   * in-process languages get 85% of it, the CLI the rest), and the tally says so.
   */
  readonly budgetMs?: number;
  /** Called now and then with the tally so far, e.g. to print progress or save a report. */
  readonly onProgress?: (tally: Tally) => void;
}

const LANG_SALT: Readonly<Record<Language, number>> = { tsl: 1, tlsf: 2, ltl: 3, audit: 4, snapshot: 5, cli: 6 };

export function inputSeed(seed: number, language: Language, index: number): number {
  let h = (seed ^ Math.imul(LANG_SALT[language], 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ index, 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

/** Seed texts, read once. */
export interface Seeds {
  readonly tsl: readonly string[];
  readonly tlsf: readonly string[];
  readonly ltl: readonly string[];
  readonly imports: ImportFixtures;
}

let seedsCache: Seeds | undefined;
export function seeds(): Seeds {
  if (seedsCache) return seedsCache;
  const read = (dir: string, ext: string) =>
    existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(ext)).sort().map((f) => readFileSync(join(dir, f), 'utf8')) : [];
  const specs = join(import.meta.dirname, '../../specs');
  const corpus = corpusPath('syntcomp-tsl');
  const tsl = [...read(specs, '.tsl'), ...read(join(specs, 'conflicts'), '.tsl'), ...read(corpus, '.tsl')].filter((t) => t.length <= 2500);
  const tlsf = [...syntcompCases().map((c) => c.source), ...read(corpus, '.tlsf')].filter((t) => t.length <= 4000);
  return (seedsCache = {
    tsl: tsl.length > 0 ? tsl : ['guarantee { G (p x -> F [y <- f x]); }'],
    tlsf: tlsf.length > 0 ? tlsf : ['INFO { TITLE: "t" DESCRIPTION: "d" SEMANTICS: Mealy TARGET: Mealy }\nMAIN { INPUTS { a; } OUTPUTS { b; } GUARANTEES { G (a -> F b); } }'],
    ltl: ltlSeeds(),
    imports: makeImportFixtures(),
  });
}

/** Removes the import fixtures' temporary directory (the CLI's spec files live there too). */
export function disposeSeeds(): void {
  if (seedsCache) rmSync(seedsCache.imports.dir, { recursive: true, force: true });
  seedsCache = undefined;
}

/** One in-process input: generated from its seed and run; the sample keeps its text. */
export async function runOne(
  language: Exclude<Language, 'cli'>,
  seed: number,
  index: number,
  options: Pick<CampaignOptions, 'hardMs' | 'synthShare' | 'sizeCap' | 'frontEndMs'>,
): Promise<{ sample: Sample; result: Result }> {
  const s = seeds();
  const r = new Rand(inputSeed(seed, language, index), options.sizeCap);
  const synthesize = r.chance(options.synthShare);
  const limits = { hardMs: options.hardMs, frontEndMs: options.frontEndMs ?? 1500, synthMs: 300, synthesize };
  switch (language) {
    case 'tsl': {
      const { generator, text } = tslInput(r, s.tsl, s.imports);
      const importRoot = r.chance(0.3) ? s.imports.dir : undefined;
      const result = runTsl(text, { file: s.imports.specFile, importRoot, style: r.chance(0.5) ? 'curried' : 'call' }, limits);
      return { sample: { language, generator, text, seed, index }, result };
    }
    case 'tlsf': {
      const { generator, text } = tlsfInput(r, s.tlsf);
      return { sample: { language, generator, text, seed, index }, result: runTlsf(text, '/fuzz/input.tlsf', limits) };
    }
    case 'ltl': {
      const { generator, text } = ltlInput(r, s.ltl);
      return { sample: { language, generator, text, seed, index }, result: runLtl(text, r, limits) };
    }
    case 'audit': {
      const { generator, input } = auditInput(r);
      return { sample: { language, generator, text: describeAuditCase(input), seed, index }, result: await runAudit(input, options.hardMs) };
    }
    default: {
      const input = snapshotInput(r);
      return { sample: { language, generator: input.generator, text: input.text, seed, index }, result: runSnapshot(input, options.hardMs) };
    }
  }
}

/** A CLI run for input `index`: its files written to `dir`, its command chosen by the seed. */
export function cliJob(seed: number, index: number, dir: string, sizeCap?: number): { generator: string; text: string; run: CliRun } {
  const s = seeds();
  const r = new Rand(inputSeed(seed, 'cli', index), sizeCap);
  const file = (name: string, text: string | Buffer) => {
    const path = join(dir, `${index}-${name}`);
    writeFileSync(path, text);
    return path;
  };
  const kind = r.pick(['check-tsl', 'fmt', 'tsl-other', 'check-tlsf', 'check-ltl', 'explain-ltl', 'audit', 'audit-stdin', 'shield'] as const);
  const json = r.chance(0.2) ? ['--json'] : [];
  // Errors about one text (a spec, a formula) must be located with a caret; --json ones are JSON.
  const oracle = { json: json.length > 0, located: true };
  switch (kind) {
    case 'check-tsl':
    case 'fmt':
    case 'tsl-other': {
      const { generator, text } = tslInput(r, s.tsl, s.imports);
      // Imports are relative to the spec: put it beside the import fixtures.
      const path = join(s.imports.dir, `cli-${seed}-${index}.tsl`);
      writeFileSync(path, text);
      const command = kind === 'check-tsl' ? ['check', path, '--timeout', '2', ...json] : kind === 'fmt' ? ['fmt', path] : [r.pick(['symbols', 'ltl', 'tlsf', 'parse']), path];
      return { generator: `${command[0]}.${generator}`, text, run: { argv: command, ...oracle, json: command.includes('--json') } };
    }
    case 'check-tlsf': {
      const { generator, text } = tlsfInput(r, s.tlsf);
      return { generator: `check.tlsf.${generator}`, text, run: { argv: ['check', file('spec.tlsf', text), '--timeout', '2', ...json], ...oracle } };
    }
    case 'check-ltl':
    case 'explain-ltl': {
      let { generator, text } = ltlInput(r, s.ltl);
      // One argument holds at most 128 KiB on Linux.
      if (Buffer.byteLength(text) > 100_000) text = text.slice(0, 30_000);
      // A formula that starts like an option goes after `--` (explain-ltl); check --ltl=TEXT.
      const argv =
        kind === 'check-ltl'
          ? ['check', `--ltl=${text}`, '--ins', 'a,b,req', '--outs', 'c,grant,p,q', '--timeout', '2', ...json]
          : ['explain-ltl', ...json, ...(text.startsWith('-') || r.chance(0.3) ? ['--'] : []), text];
      // check --ltl: an atom in neither --ins nor --outs is a located error; the lists' own errors are not.
      return { generator: `${argv[0]}.${generator}`, text, run: { argv, ...oracle } };
    }
    case 'shield': {
      // The rules are read and checked before the server starts; `true` is a server that exits at once.
      const rules = ruleFile(r);
      const path = file(rules.name, rules.text);
      return { generator: `shield.${rules.name.endsWith('.json') ? 'json' : 'ltl'}`, text: rules.text, run: { argv: ['shield', 'mcp', '--rules', path, '--', 'true'], located: rules.name.endsWith('.ltl') } };
    }
    default: {
      const { generator, input } = auditInput(r);
      const rules = file(input.rulesName, input.rules);
      const flags = [
        ...(input.options.groupBy ? ['--group-by', input.options.groupBy] : []),
        ...(input.options.contiguous ? ['--contiguous'] : []),
        '--semantics', input.options.semantics,
        '--missing', input.options.missing,
        ...(input.options.strict ? ['--strict'] : []),
        ...(input.options.complete ? ['--complete'] : []),
        ...(input.options.maxOpenRuns ? ['--max-open-runs', String(input.options.maxOpenRuns)] : []),
        ...(input.options.columns ? [`--columns=${input.options.columns.join(',')}`] : []),
        ...json,
      ];
      if (kind === 'audit-stdin') return { generator: `audit-stdin.${generator}`, text: describeAuditCase(input), run: { argv: ['audit', '--spec', rules, '--format', input.format, ...flags, '-'], stdin: input.log, json: json.length > 0 } };
      const log = file(`log.${input.format}`, input.log);
      return { generator: `audit.${generator}`, text: describeAuditCase(input), run: { argv: ['audit', '--spec', rules, ...flags, log], json: json.length > 0 } };
    }
  }
}

export async function runCampaign(options: CampaignOptions): Promise<Tally> {
  const tally = new Tally();
  const started = performance.now();
  const budget = options.budgetMs ?? Number.POSITIVE_INFINITY;
  const languages = ['tsl', 'tlsf', 'ltl', 'audit', 'snapshot'] as const;
  const total = languages.reduce((s, l) => s + options.counts[l], 0);
  const done = new Map<Language, number>(languages.map((l) => [l, 0]));
  // Interleaved in proportion, so that a campaign stopped by its budget has sampled every language.
  let lastProgress = started;
  outer: for (let k = 1; k <= total; k++) {
    for (const language of languages) {
      while (done.get(language)! < Math.round((options.counts[language] * k) / total)) {
        if (performance.now() - started > budget * 0.85) {
          tally.stoppedEarly = true;
          break outer;
        }
        const i = done.get(language)!;
        const t0 = performance.now();
        const { sample, result } = await runOne(language, options.seed, i, options);
        // In-process work has no memory cap of its own: a resident size past the limit after an
        // input is reported against it (memory freed late may blame the next one; replay to see).
        const rss = process.memoryUsage.rss() / 2 ** 20;
        const memory = rss > (options.rssMb ?? 3000) && result.outcome !== 'internal' && result.outcome !== 'hang';
        tally.add(sample, memory ? { outcome: 'hang', detail: `resident memory ${Math.round(rss)} MB after this input` } : result, performance.now() - t0);
        done.set(language, i + 1);
      }
    }
    if (options.onProgress && performance.now() - lastProgress > 30_000) {
      lastProgress = performance.now();
      options.onProgress(tally);
    }
  }
  if (options.counts.cli > 0 && existsSync(BIN)) {
    const dir = mkdtempSync(join(tmpdir(), 'tslc-fuzz-cli-'));
    const jobs = Array.from({ length: options.counts.cli }, (_, i) => async () => {
      if (performance.now() - started > budget) {
        tally.stoppedEarly = true;
        return;
      }
      const job = cliJob(options.seed, i, dir, options.sizeCap);
      const t0 = performance.now();
      const result = await runCli(job.run, options.cli);
      tally.add({ language: 'cli', generator: job.generator.split('.').slice(0, 2).join('.'), text: `tslc ${job.run.argv.map((a) => (a.length > 80 ? `${a.slice(0, 80)}…` : a)).join(' ')}\n${excerpt(job.text, 600)}`, seed: options.seed, index: i }, result, performance.now() - t0);
    });
    await runPool(jobs, 2);
    rmSync(dir, { recursive: true, force: true });
  }
  options.onProgress?.(tally);
  return tally;
}

/** Findings as text: what, where from (seed and index, to replay), and the input. */
export function describeFindings(tally: Tally, limit = 20): string {
  return tally.findings
    .slice(0, limit)
    .map((f) => `[${f.sample.language}.${f.sample.generator} seed=${f.sample.seed} index=${f.sample.index}] ${f.result.outcome}: ${f.result.detail ?? ''}\n--- input ---\n${excerpt(f.sample.text)}`)
    .join('\n\n');
}
