/**
 * The options of `tslc check` as data (and which of them hand over to an external back end), in
 * their own module so that the check fast path
 * (src/cli/fast-check.ts) reads them without importing the command registry, which names every
 * other command's module.
 */
import type { OptionTable } from '../fast-args.js';

// The --synthesizer flags are spelled out here rather than imported from src/external: importing
// would load execa on every start-up, and `tslc check` must stay light.
export const SYNTHESIZERS = ['builtin', 'ltlsynt', 'strix', 'auto'];
export const SYNTHESIZER_HELP = 'back end: builtin engine, ltlsynt (Spot), strix, or auto (builtin and an installed tool race; first verified answer wins)';
export const IMPORT_ROOT_HELP = 'read TSL imports only from inside this directory (after resolving symlinks); default: anywhere';
export const THEORY_HELP = 'read TSL specs in this theory, overriding their #LIA/#UF header (none: every predicate uninterpreted)';
export const THEORIES = ['lia', 'uf', 'none'];
export const TOOL_TIMEOUT_HELP = 'seconds per spec for an external synthesizer (default 60, or "timeoutSeconds" in tslc.config.json)';

/** Whether the arguments ask for an external back end (`--synthesizer`, `--cross-check`). */
export function usesExternalSynthesizer(args: Record<string, unknown>): boolean {
  return (args.synthesizer !== undefined && args.synthesizer !== 'builtin') || args['cross-check'] === true;
}

// check runs on every commit in CI and per spec in benchmarks, so its options are data: a plain
// `tslc check …` is parsed from this table without importing yargs (src/cli/fast-args.ts).
export const CHECK_OPTIONS: OptionTable = {
  positional: { name: 'files', type: 'string', array: true, describe: 'spec files (.tsl, .tlsf)' },
  options: {
    ltl: { type: 'string', describe: 'a Spot-syntax LTL formula instead of files' },
    ins: { type: 'string', array: true, describe: 'input propositions for --ltl (comma-separated)' },
    outs: { type: 'string', array: true, describe: 'output propositions for --ltl (comma-separated)' },
    timeout: { type: 'number', default: 60, describe: 'seconds per spec; then the verdict is unknown' },
    param: { type: 'string', array: true, describe: 'TLSF parameter override NAME=VALUE' },
    'import-root': { type: 'string', describe: IMPORT_ROOT_HELP },
    theory: { choices: THEORIES, describe: THEORY_HELP },
    'show-theory': { type: 'boolean', default: false, describe: 'list the assumptions a #LIA/#UF theory adds to each spec (with where they come from)' },
    states: { type: 'boolean', default: true, describe: 'synthesize to report controller states (--no-states: verdict only, faster)' },
    json: { type: 'boolean', default: false, describe: 'one JSON object per spec: {file, verdict, seconds, states?, explanation?}' },
    explain: { type: 'boolean', default: true, describe: 'explain an unrealizable spec: core by file:line and counterplay (--no-explain: verdict only)' },
    compose: { type: 'boolean', default: false, describe: 'also check the conjunction of all files; a conflict is explained across files' },
    synthesizer: { choices: SYNTHESIZERS, default: 'builtin', describe: SYNTHESIZER_HELP },
    'tool-timeout': { type: 'number', describe: TOOL_TIMEOUT_HELP },
    'cross-check': { type: 'boolean', default: false, describe: 'run the builtin engine and every installed external synthesizer on each spec; table of agreement (exit 1 on disagreement)' },
  },
};
