/**
 * The command registry. Each entry only describes flags; the implementation module is imported
 * when the command runs. The order is the order of `tslc --help`: the main job (check, synth,
 * compile, explain) first. Add a command by adding one entry here and one module beside this file.
 */
import type { CommandSpec } from '../command.js';
import { declareOptions } from '../fast-args.js';
import { CHECK_OPTIONS, IMPORT_ROOT_HELP, SYNTHESIZER_HELP, SYNTHESIZERS, THEORIES, THEORY_HELP, TOOL_TIMEOUT_HELP } from './check-options.js';

/** `tslc synth --format` choices; the command's description names each one. */
export const SYNTH_FORMATS = ['hoa', 'dot', 'mermaid', 'json'];

export const commands: readonly CommandSpec[] = [
  {
    command: 'check [files..]',
    describe: 'Check realizability of .tsl/.tlsf specs (or --ltl with --ins/--outs): one line per spec',
    builder: (y) => declareOptions(y, CHECK_OPTIONS),
    options: CHECK_OPTIONS,
    load: () => import('./check.js'),
  },
  {
    command: 'synth [file]',
    describe: 'Synthesize a verified controller and print it (HOA with controllable-AP, DOT, Mermaid or JSON)',
    builder: (y) =>
      y
        .positional('file', { type: 'string', describe: 'spec file (.tsl, .tlsf)' })
        .option('format', { choices: SYNTH_FORMATS, default: 'hoa', describe: 'output format: HOA (for Spot and other automata tools), DOT (Graphviz), Mermaid (Markdown diagrams) or JSON' })
        .option('output', { alias: 'o', type: 'string', describe: 'write to this file instead of stdout' })
        .option('ltl', { type: 'string', describe: 'a Spot-syntax LTL formula instead of a file' })
        .option('ins', { type: 'string', array: true, describe: 'input propositions for --ltl' })
        .option('outs', { type: 'string', array: true, describe: 'output propositions for --ltl' })
        .option('timeout', { type: 'number', default: 60, describe: 'seconds; then the answer is unknown (exit 3)' })
        .option('param', { type: 'string', array: true, describe: 'TLSF parameter override NAME=VALUE' })
        .option('verbose', { type: 'boolean', default: false, describe: 'print solver progress on stderr' })
        .option('import-root', { type: 'string', describe: IMPORT_ROOT_HELP })
        .option('theory', { choices: THEORIES, describe: THEORY_HELP })
        .option('synthesizer', { choices: SYNTHESIZERS, default: 'builtin', describe: SYNTHESIZER_HELP })
        .option('tool-timeout', { type: 'number', describe: TOOL_TIMEOUT_HELP }),
    load: () => import('./synth.js'),
  },
  {
    command: 'compile <files..>',
    describe: 'Compile TSL specs into typed TypeScript controller modules (verified before writing)',
    builder: (y) =>
      y
        .positional('files', { type: 'string', array: true, demandOption: true, describe: '.tsl files (one module each, or one for all with --as)' })
        .option('out', { alias: 'o', type: 'string', demandOption: true, describe: 'output directory' })
        .option('as', { type: 'string', describe: 'compose all files (conjunction) into one controller with this name' })
        .option('check', { type: 'boolean', default: false, describe: 'write nothing; exit 1 if a module is missing or stale' })
        .option('watch', { type: 'boolean', default: false, describe: 'recompile whenever a spec or a file it imports changes (survives editors that save by rename)' })
        .option('dts', { type: 'boolean', default: false, describe: "also write <spec>.d.tsl.ts beside each spec: types for `import … from './spec.tsl'` (TypeScript's allowArbitraryExtensions)" })
        .option('runtime-import', { type: 'string', describe: 'module specifier of the runtime (default tslc/runtime)' })
        .option('import-root', { type: 'string', describe: IMPORT_ROOT_HELP })
        .option('theory', { choices: THEORIES, describe: THEORY_HELP })
        .option('timeout', { type: 'number', default: 60, describe: 'synthesis time limit per controller, seconds' })
        .option('json', { type: 'boolean', default: false, describe: 'print a JSON report' })
        .option('diagram', { type: 'string', describe: 'also write <module>.mmd (Mermaid) next to each module; --diagram dot writes <module>.dot' })
        .option('synthesizer', { choices: SYNTHESIZERS, default: 'builtin', describe: SYNTHESIZER_HELP })
        .option('tool-timeout', { type: 'number', describe: TOOL_TIMEOUT_HELP }),
    load: () => import('./compile.js'),
  },
  {
    command: 'explain <files..>',
    describe: 'Explain why (composed) specs are unrealizable: minimal core by file:line, assumptions, counterplay story',
    builder: (y) =>
      y
        .positional('files', { type: 'string', array: true, demandOption: true, describe: 'spec files; several are composed (conjunction)' })
        .option('timeout', { type: 'number', default: 60, describe: 'total solver budget in seconds' })
        .option('verbose', { type: 'boolean', default: false, describe: 'print core search progress on stderr' })
        .option('json', { type: 'boolean', default: false, describe: 'print the core and story as JSON' })
        .option('import-root', { type: 'string', describe: IMPORT_ROOT_HELP })
        .option('theory', { choices: THEORIES, describe: THEORY_HELP }),
    load: () => import('./explain.js'),
  },
  {
    command: 'play <files..>',
    describe: 'Play the game in the terminal: the controller against the counterstrategy (unrealizable) or the environment against the controller',
    builder: (y) =>
      y
        .positional('files', { type: 'string', array: true, demandOption: true, describe: 'spec files; several are composed' })
        .option('steps', { type: 'number', default: 50, describe: 'stop after this many steps' })
        .option('timeout', { type: 'number', default: 60, describe: 'solver budget in seconds' })
        .option('import-root', { type: 'string', describe: IMPORT_ROOT_HELP })
        .option('theory', { choices: THEORIES, describe: THEORY_HELP }),
    load: () => import('./play.js'),
  },
  {
    command: 'why',
    describe: 'Explain a recorded trace: one step (--step) or the closest cause of an effect (--effect "never toCave")',
    builder: (y) =>
      y
        .option('trace', { type: 'string', demandOption: true, describe: 'JSONL trace recorded by the runtime' })
        .option('spec', { type: 'string', array: true, describe: 'spec file(s) the controller was compiled from' })
        .option('table', { type: 'string', describe: 'controller table as JSON (instead of --spec)' })
        .option('effect', { type: 'string', describe: "'never <update>', '<update> at <step>' or 'not <update> at <step>'" })
        .option('step', { type: 'number', describe: 'explain this step: the deciding predicate answers' })
        .option('timeout', { type: 'number', default: 60, describe: 'synthesis budget for --spec, seconds' })
        .option('import-root', { type: 'string', describe: IMPORT_ROOT_HELP }),
    load: () => import('./why.js'),
  },
  {
    command: 'report <files..>',
    describe: 'Write a self-contained HTML report: spec, verdict, controller diagram or core + counterplay',
    builder: (y) =>
      y
        .positional('files', { type: 'string', array: true, demandOption: true, describe: 'spec files; several are composed' })
        .option('output', { alias: 'o', type: 'string', default: 'report.html', describe: 'HTML file to write' })
        .option('timeout', { type: 'number', default: 60, describe: 'solver budget in seconds' })
        .option('import-root', { type: 'string', describe: IMPORT_ROOT_HELP })
        .option('theory', { choices: THEORIES, describe: THEORY_HELP }),
    load: () => import('./report.js'),
  },
  {
    command: 'audit <log>',
    describe: 'Audit a JSONL/CSV log against LTL rules: per-run and per-property verdicts, first violations, witnesses',
    builder: (y) =>
      y
        .positional('log', { type: 'string', demandOption: true, describe: 'log file (.jsonl or .csv; - for stdin)' })
        .option('spec', { type: 'string', demandOption: true, describe: 'rules: rules.ltl (name: formula per line) or rules.json; repeat to combine' })
        .option('labels', { type: 'string', describe: 'labels.json: proposition → condition, "prompts", "columns", "missing", "groupBy"' })
        .option('label-model', { type: 'string', describe: 'label the propositions that have a prompt in the labels file with this model (sim, sim:<seed>?evaluatorError=p, openai:<model>, openai-compatible:<url>#<model>); one request per event' })
        .option('label-budget', { type: 'number', describe: 'at most this many labelling requests (default 1000); past it the audit stops with exit 3' })
        .option('label-cache', { type: 'string', describe: 'directory caching the model\'s labelling replies between audits (default: memory, this audit only)' })
        .option('group-by', { type: 'string', describe: 'field that names the run an event belongs to' })
        .option('contiguous', { type: 'boolean', describe: 'a run is a contiguous block of equal --group-by values (ids may repeat); flat memory' })
        .option('semantics', { choices: ['ltl3', 'ltlf'], default: 'ltl3', describe: 'end of log: LTL3 (pending stays pending) or LTLf' })
        .option('columns', { type: 'string', describe: 'CSV: comma-separated column names replacing the header row' })
        .option('format', { choices: ['jsonl', 'csv'], describe: 'log format (default: from the file extension)' })
        .option('missing', {
          choices: ['check', 'false', 'error'],
          describe: 'fields the rules read: check (default: a missing/duplicate CSV column or a JSONL field absent from a whole run is an error), false (read as false), error (check, and each event lacking one is malformed)',
        })
        .option('max-open-runs', { type: 'number', describe: 'at most this many runs open at once (default: sized to stay under ~1 GB, 192307 for 2 properties); past it the run idle longest is closed early, and reported so' })
        .option('recovery', { type: 'boolean', default: true, describe: 'restart a property after a violation and count violations (TRAC_R)' })
        .option('strict', { type: 'boolean', default: false, describe: 'stop at the first malformed line (exit 2)' })
        .option('complete', { type: 'boolean', default: false, describe: 'LTL3: settle what progression leaves pending with automaton monitors' })
        .option('witness', { type: 'boolean', default: false, describe: 'print witnesses of violating runs' })
        .option('json', { type: 'boolean', default: false, describe: 'print the full report as JSON' }),
    load: () => import('./audit.js'),
  },
  {
    command: 'judge <log>',
    describe: 'Score an LLM-as-judge auditor against the TRAC monitor on labelled runs: precision, recall and F1 per property (the shape of Table 2 of the TRAC paper, Alamdari et al.)',
    builder: (y) =>
      y
        .positional('log', { type: 'string', demandOption: true, describe: 'labelled log (.jsonl or .csv)' })
        .option('spec', { type: 'string', demandOption: true, describe: 'rules: rules.ltl or rules.json (the judge is told the description of each rule, else its "# Rule N:" comment, else a reading of its formula); repeat to combine' })
        .option('labels', { type: 'string', describe: 'labels.json: the rule-based labels of the monitor (the ground truth); its "prompts" become the judge\'s glossary' })
        .option('judge-model', { type: 'string', default: 'sim', describe: 'the judge: sim (simulated; sim:<seed>?evaluatorError=p gets each decision wrong with probability p), openai:<model>, openai-compatible:<url>#<model>' })
        .option('judge-budget', { type: 'number', describe: 'at most this many judge requests, one per run (default 500); past it the harness stops with exit 3' })
        .option('label-model', { type: 'string', describe: 'also score the TRAC_R monitor on labels from this model (propositions with a prompt in the labels file; sim:<seed>?evaluatorError=p flips each label with probability p)' })
        .option('label-budget', { type: 'number', describe: 'at most this many labelling requests, one per event (default 1000)' })
        .option('group-by', { type: 'string', describe: 'field that names the run an event belongs to' })
        .option('semantics', { choices: ['ltl3', 'ltlf'], default: 'ltl3', describe: 'end of log: LTL3 (pending stays pending) or LTLf' })
        .option('format', { choices: ['jsonl', 'csv'], describe: 'log format (default: from the file extension)' })
        .option('json', { type: 'boolean', default: false, describe: 'print the report as JSON' }),
    load: () => import('./judge.js'),
  },
  {
    command: 'shield <target>',
    describe: 'Shield an MCP server: `tslc shield mcp --rules rules.ltl -- <server command> [args…]` checks every tools/call against temporal rules',
    builder: (y) =>
      y
        // Everything after `--` is the server's command line, kept as typed (no number parsing).
        .parserConfiguration({ 'populate--': true, 'parse-positional-numbers': false })
        .positional('target', { choices: ['mcp'], describe: 'what to shield (mcp: a Model Context Protocol server)' })
        .option('rules', { type: 'string', array: true, demandOption: true, describe: 'rules: name: LTL or an English pattern sentence per line (as tslc audit --spec); repeat to combine' })
        .option('labels', { type: 'string', describe: 'labels.json: propositions from call arguments and results ({"result": {…}, "call": {…}})' })
        .option('log', { type: 'string', describe: 'append every decision and recorded event as JSONL (readable by tslc audit)' })
        .option('state', { type: 'string', describe: 'snapshot file to resume the session from and keep up to date (--http: a directory)' })
        .option('hide-denied', { type: 'boolean', default: false, describe: 'tools/list shows only the tools allowed now; list_changed is sent when that changes' })
        .option('http', { type: 'number', describe: 'serve Streamable HTTP on this port (endpoint /mcp) instead of stdio' })
        .option('host', { type: 'string', default: '127.0.0.1', describe: 'address for --http' })
        .option('url', { type: 'string', describe: 'shield a remote MCP server (Streamable HTTP) at this URL instead of starting a command' })
        .option('header', { type: 'string', array: true, describe: "--url: an HTTP header for the remote server, 'Name: value' (repeatable)" })
        .option('session-header', { type: 'string', describe: '--http: header naming the shield session (shared by MCP sessions, resumable with --state)' })
        .option('timeout', { type: 'number', default: 60, describe: 'seconds the server has to answer a request; then the session fails with an error' })
        .option('max-message-mb', { type: 'number', default: 64, describe: 'largest message accepted in either direction, MB' })
        .example('tslc shield mcp --rules rules.ltl --log shield.jsonl -- node server.js', 'shield a stdio MCP server')
        .example('tslc shield mcp --rules rules.ltl --url https://mcp.example.com/mcp', 'shield a remote MCP server')
        .example('tslc audit --spec rules.ltl --group-by session --semantics ltlf shield.jsonl', 'audit the decision log later'),
    load: () => import('./shield.js'),
  },
  {
    command: 'agent <action> <spec> <examples>',
    describe: 'Validate the few-shot examples of an agent prompt against an agent-behavior spec: accepted, or the first invalid step and what was allowed',
    builder: (y) =>
      y
        .positional('action', { choices: ['validate'], describe: 'validate: check every example in the text' })
        .positional('spec', { type: 'string', describe: 'agent spec (.sexp), or one of the paper\'s: react, chain-of-thought, reflexion, chat-bot' })
        .positional('examples', { type: 'string', describe: 'text with the examples (split at the state markers)' })
        .option('max-loops', { type: 'number', describe: 'cap every (until …) loop at this many rounds (overrides the spec\'s :max-loops)' })
        .option('json', { type: 'boolean', default: false, describe: 'print the report as JSON' })
        .example('tslc agent validate examples/agents/prompts/react-tools.sexp examples/agents/prompts/react-examples.txt', 'check the ReACT prompt examples (exit 1: two are rejected)'),
    load: () => import('./agent.js'),
  },
  {
    command: 'explain-ltl [text]',
    describe: 'Explain an LTL formula in plain English; --english: an English constraint sentence to LTL, with its paraphrase',
    builder: (y) =>
      y
        .parserConfiguration({ 'populate--': true })
        .positional('text', { type: 'string', describe: "a Spot-syntax formula, e.g. 'G(\"call:pay\" -> F \"call:confirm\")', or a sentence with --english" })
        .option('english', { type: 'boolean', default: false, describe: 'read TEXT as an English constraint (offline translator) and print its LTL and paraphrase' })
        .option('props', { type: 'string', array: true, describe: 'with --english: the propositions phrases must ground to, comma-separated (living_room,bathroom,…)' })
        .option('rules', { type: 'string', array: true, describe: 'with --english: ground to the propositions (and labels) of this rules file' })
        .option('model', { type: 'string', describe: "with --english: let this model (as TSLC_MODEL: 'sim', 'openai:<model>', …; empty = TSLC_MODEL) translate what the offline translator cannot" })
        .option('patterns', { type: 'boolean', default: false, describe: 'list the pattern library' })
        .option('json', { type: 'boolean', default: false, describe: 'print JSON ({ ltl, english, … })' })
        .example("tslc explain-ltl --english 'you have to enter the living room before the bathroom' --props living_room,bathroom", 'an order constraint, grounded and paraphrased'),
    load: () => import('./explain-ltl.js'),
  },
  {
    command: 'parse <file>',
    describe: 'Parse a .tsl file and print its AST as JSON',
    builder: (y) =>
      y
        .positional('file', { type: 'string', demandOption: true, describe: '.tsl file' })
        .option('locations', { type: 'boolean', default: false, describe: 'keep line/column of every node' })
        .option('json', { type: 'boolean', default: false, describe: 'print errors as JSON' }),
    load: () => import('./parse.js'),
  },
  {
    command: 'fmt <files..>',
    describe: 'Print a .tsl file in canonical form (parenthesized where TSL and Spot precedence differ); --write or --check several',
    builder: (y) =>
      y
        .positional('files', { type: 'string', array: true, demandOption: true, describe: '.tsl files (several with --write or --check)' })
        .option('write', { alias: 'w', type: 'boolean', default: false, describe: 'rewrite the files in place' })
        .option('check', { type: 'boolean', default: false, describe: 'exit 1 if any file is not formatted (CI)' })
        .option('style', { choices: ['curried', 'call'], default: 'curried', describe: 'terms as `p x (f y)` (tsltools) or `p(x, f(y))`' })
        .option('json', { type: 'boolean', default: false, describe: 'print errors as JSON' }),
    load: () => import('./fmt.js'),
  },
  {
    command: 'symbols <file>',
    describe: 'Print the symbol table of a .tsl file: inputs, cells, outputs, predicates and functions with arity',
    builder: (y) =>
      y
        .positional('file', { type: 'string', demandOption: true, describe: '.tsl file' })
        .option('json', { type: 'boolean', default: false, describe: 'print the table (or errors) as JSON' })
        .option('import-root', { type: 'string', describe: IMPORT_ROOT_HELP }),
    load: () => import('./symbols.js'),
  },
  {
    command: 'tlsf <file>',
    describe: 'Print the LTL abstraction of a .tsl file as TLSF (for syfco / ltlsynt --tlsf)',
    builder: (y) =>
      y
        .positional('file', { type: 'string', demandOption: true, describe: '.tsl file' })
        .option('names', { choices: ['readable', 'tsltools'], default: 'readable', describe: 'proposition naming (tsltools: p0…/u0… as tsl2tlsf)' })
        .option('output', { alias: 'o', type: 'string', describe: 'write to this file instead of stdout' })
        .option('json', { type: 'boolean', default: false, describe: 'print errors as JSON' })
        .option('import-root', { type: 'string', describe: IMPORT_ROOT_HELP }),
    load: () => import('./tlsf.js'),
  },
  {
    command: 'ltl <file>',
    describe: 'Print the LTL abstraction of a .tsl file in Spot syntax, plus --ins/--outs for ltlsynt',
    builder: (y) =>
      y
        .positional('file', { type: 'string', demandOption: true, describe: '.tsl file' })
        .option('names', { choices: ['readable', 'tsltools'], default: 'readable', describe: 'proposition naming' })
        .option('json', { type: 'boolean', default: false, describe: 'print {formula, ins, outs} (or errors) as JSON' })
        .option('import-root', { type: 'string', describe: IMPORT_ROOT_HELP }),
    load: () => import('./ltl.js'),
  },
  {
    command: 'doctor',
    describe: 'Show which synthesis back ends (builtin, ltlsynt, strix) are available, with versions',
    builder: (y) => y.option('json', { type: 'boolean', default: false, describe: 'print the report as JSON' }),
    load: () => import('./doctor.js'),
  },
  {
    command: 'demo',
    describe: 'Compile and check specs/, then play a short choose-your-own-adventure game (simulated model unless TSLC_MODEL is set)',
    builder: (y) =>
      y
        .option('task', { choices: ['adventure', 'forest', 'choices', 'all'], default: 'forest', describe: 'which adventure task to play: adventure, forest (adventure+forest), choices (adventure+choices) or all' })
        .option('steps', { type: 'number', default: 8, describe: 'turns to play' })
        .option('seed', { type: 'number', default: 1, describe: 'seed of the simulated model and player' })
        .option('repair', { type: 'number', default: 2, describe: 'point-in-time repair: regenerations per passage (0 = off)' })
        .option('interactive', { type: 'boolean', default: false, describe: 'pick the choices yourself at the terminal' })
        .option('compile', { type: 'boolean', default: true, describe: 'synthesize and verify the played task again (--no-compile: skip)' })
        .option('model', { type: 'string', describe: 'model (default TSLC_MODEL, else sim)' }),
    load: () => import('./demo.js'),
  },
];
