/**
 * ltlsynt's side of the core conformance (test/conformance/cores-ltlsynt.test.ts). `tslc explain`
 * answers an unrealizable spec with a core: a set of obligations (guarantees and presets) that is
 * still unrealizable under all the assumptions, and — when it says "minimal" — realizable without
 * any one of them. Both are realizability verdicts on sub-specs, decided by our own solver; here
 * ltlsynt decides them instead.
 *
 * Specs: the generated Mealy specs (generate.ts) the reference calls unrealizable, with two or
 * more obligations. Per spec, recorded: our core when recorded (which obligations; whether
 * minimal), and ltlsynt's verdict on the core spec and on the core without each member. Each
 * sub-spec goes to ltlsynt as one formula, our reading of the TLSF combined as syfco combines it
 * (`specFormula`), with safe proposition names (`makeRenaming`): the TLSF reading itself is
 * checked against syfco elsewhere (tlsf-syfco.test.ts). ltlsynt runs twice per sub-spec, with
 * `--decompose=no --verify` and `--decompose=no --algo=ds --verify` (its decomposition and its
 * default algorithm were each seen wrong on generated specs): REALIZABLE from either (its strategy
 * verified) wins, UNREALIZABLE needs both, anything else is `unknown`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CoreMember, type CoreResult, allObligations, findCore, restrictTo } from '../../../src/explain/core.js';
import { makeRenaming, renameFormula } from '../../../src/external/names.js';
import type { GameSpec } from '../../../src/game/spec.js';
import { inputNames, outputNames, specFormula } from '../../../src/game/spec.js';
import { toSpot } from '../../../src/ltl/print.js';

export const CORES_FIXTURE = join(import.meta.dirname, '../../fixtures/generated/cores.tsv');
/** Budget for one core search: generous, so that no solver call of a small spec times out. */
export const CORE_BUDGET_MS = 30_000;

export type ToolVerdict = 'realizable' | 'unrealizable' | 'unknown';

export interface CoreRecord {
  readonly id: string;
  /** The spec text's hash (generate.ts): a regenerated spec with other text is not this record. */
  readonly hash: string;
  /** `g<index>` / `p<index>` per member, in our order. */
  readonly members: readonly string[];
  readonly minimal: boolean;
  /** ltlsynt on the core spec. */
  readonly core: ToolVerdict;
  /** ltlsynt on the core without `members[k]`. */
  readonly without: readonly ToolVerdict[];
}

export const memberKey = (m: CoreMember): string => `${m.kind === 'guarantee' ? 'g' : 'p'}${m.index}`;

/** Our core, with a budget no small spec's solver call should need. */
export function ourCore(spec: GameSpec): CoreResult {
  return findCore(spec, { budgetMs: CORE_BUDGET_MS, checkTimeoutMs: CORE_BUDGET_MS });
}

export function obligationCount(spec: GameSpec): number {
  return allObligations(spec).length;
}

export function readCoreRecords(): CoreRecord[] {
  if (!existsSync(CORES_FIXTURE)) return [];
  return readFileSync(CORES_FIXTURE, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('#') && !l.startsWith('id\t'))
    .map((l) => {
      const [id, hash, members, minimal, core, without] = l.split('\t');
      return {
        id,
        hash,
        members: members.split(','),
        minimal: minimal === 'minimal',
        core: core as ToolVerdict,
        without: without === '-' ? [] : (without.split(',') as ToolVerdict[]),
      };
    });
}

export function writeCoreRecords(records: readonly CoreRecord[], header: readonly string[]): void {
  const lines = [
    ...header.map((h) => `# ${h}`),
    'id\thash\tmembers\tminimal\tltlsynt_core\tltlsynt_without_each',
    ...records.map((r) => [r.id, r.hash, r.members.join(','), r.minimal ? 'minimal' : 'not-proven-minimal', r.core, r.without.length === 0 ? '-' : r.without.join(',')].join('\t')),
    '',
  ];
  writeFileSync(CORES_FIXTURE, lines.join('\n'));
}

function ltlsyntOnce(formula: string, ins: readonly string[], outs: readonly string[], extra: readonly string[]): ToolVerdict {
  const args = ['-f', formula, ...(ins.length > 0 ? [`--ins=${ins.join(',')}`] : []), `--outs=${outs.join(',')}`, '--decompose=no', '--verify', ...extra];
  const r = spawnSync('ltlsynt', args, { encoding: 'utf8', timeout: 30_000, maxBuffer: 64 * 1024 * 1024 });
  const first = (r.stdout ?? '').split('\n')[0].trim();
  // `--verify` makes ltlsynt fail (exit 2) rather than print a strategy it could not verify.
  if (r.status === 0 && first === 'REALIZABLE') return 'realizable';
  if (r.status === 1 && first === 'UNREALIZABLE') return 'unrealizable';
  return 'unknown';
}

/** ltlsynt's verdict on a sub-spec (see the module comment for how two runs combine). */
export function ltlsyntVerdict(spec: GameSpec): ToolVerdict {
  const renaming = makeRenaming(inputNames(spec), outputNames(spec));
  const formula = toSpot(renameFormula(specFormula(spec), renaming));
  const lar = ltlsyntOnce(formula, renaming.inputs, renaming.outputs, []);
  const ds = ltlsyntOnce(formula, renaming.inputs, renaming.outputs, ['--algo=ds']);
  if (lar === 'realizable' || ds === 'realizable') return 'realizable';
  return lar === 'unrealizable' && ds === 'unrealizable' ? 'unrealizable' : 'unknown';
}

export function recordCore(id: string, hash: string, spec: GameSpec): CoreRecord {
  const found = ourCore(spec);
  return {
    id,
    hash,
    members: found.members.map(memberKey),
    minimal: found.minimal,
    core: ltlsyntVerdict(found.coreSpec),
    without: found.members.map((m) => ltlsyntVerdict(restrictTo(spec, found.members.filter((o) => o !== m)))),
  };
}

export function ltlsyntVersion(): string | undefined {
  const r = spawnSync('ltlsynt', ['--version'], { encoding: 'utf8' });
  return r.error || r.status !== 0 ? undefined : r.stdout.split('\n')[0].trim();
}
