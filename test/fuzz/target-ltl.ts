/**
 * In-process target for Spot-syntax LTL, the paths `check --ltl`, `explain-ltl`, audit rule files
 * and monitors take: parse (a syntax error must be located inside the text); print and parse
 * again (same tree); English (`explain-ltl`); the `--ltl` game with the atoms split into inputs
 * and outputs; the text as a rule file; a progression monitor over a few events; and, for small
 * formulas, realizability with a short timeout.
 */
import { LtlSyntaxError, parseLtl } from '../../runtime/ltl/parse.js';
import { printLtl } from '../../runtime/ltl/print.js';
import type { LtlNode } from '../../runtime/ltl/syntax.js';
import { MonitorLimitError, ProgressionMonitor } from '../../runtime/monitor/progression.js';
import { parseRules } from '../../src/audit/rules.js';
import { atoms, size } from '../../src/ltl/formula.js';
import { fromSyntax } from '../../src/ltl/from-syntax.js';
import { ltlGame } from '../../src/frontend/game-from-ltl.js';
import { explainLtl, matchPattern } from '../../src/patterns/index.js';
import { Shield, ShieldRuleError } from '../../runtime/shield/shield.js';
import { checkRealizability } from '../../src/synthesis/index.js';
import { describeThrown, interruptible, OK, type Result, userErrorResult } from './oracle.js';
import type { Rand } from './rand.js';

export interface LtlLimits {
  readonly hardMs: number;
  readonly synthMs: number;
  readonly synthesize: boolean;
}

/** Why a syntax error is not properly located in `text`, or undefined. */
function syntaxErrorProblem(err: LtlSyntaxError, text: string): string | undefined {
  const lines = text.split(/\r\n|\n|\r/).length;
  if (err.message.trim() === '') return 'LtlSyntaxError with an empty message';
  if (!Number.isInteger(err.line) || !Number.isInteger(err.col) || err.line < 1 || err.col < 1 || err.line > lines)
    return `LtlSyntaxError badly located at ${err.line}:${err.col} (text has ${lines} lines): ${err.message}`;
  if (err.offset < 0 || err.offset > text.length) return `LtlSyntaxError offset ${err.offset} outside the text (${text.length}): ${err.message}`;
  return undefined;
}

/** Stage names, so a finding says where it happened. */
type Stage = 'parse' | 'print' | 'english' | 'game' | 'rules' | 'monitor' | 'shield' | 'synthesis';

export function runLtl(text: string, r: Rand, limits: LtlLimits): Result {
  let result: Result = OK;
  // Decided before the hard-limited part so that an interrupted input does not shift the stream.
  const split = r.float();
  const oddIo = r.chance(0.1);
  const events = Array.from({ length: 1 + r.int(12) }, () => r.float());
  const done = interruptible(() => {
    let stage: Stage = 'parse';
    try {
      let node: LtlNode;
      try {
        node = parseLtl(text);
      } catch (err) {
        if (err instanceof LtlSyntaxError) {
          const problem = syntaxErrorProblem(err, text);
          result = problem ? { outcome: 'internal', detail: problem } : { outcome: 'error', detail: 'syntax' };
          return;
        }
        throw err;
      }
      stage = 'print';
      const printed = printLtl(node);
      let again: LtlNode;
      try {
        again = parseLtl(printed);
      } catch (err) {
        result = { outcome: 'internal', detail: `printLtl output does not parse: ${(err as Error).message}\n--- printed ---\n${printed.slice(0, 300)}` };
        return;
      }
      if (printLtl(again) !== printed) {
        result = { outcome: 'internal', detail: `print/parse/print is not stable:\n${printed.slice(0, 300)}\n${printLtl(again).slice(0, 300)}` };
        return;
      }
      stage = 'english';
      explainLtl(node);
      matchPattern(node);
      stage = 'game';
      const formula = fromSyntax(node);
      const names = [...atoms(formula)];
      const ins = names.filter((_, i) => (i * 0.618 + split) % 1 < 0.5);
      const outs = names.filter((n) => !ins.includes(n));
      if (oddIo) ins.push('__proto__', outs[0] ?? 'constructor');
      let game;
      try {
        game = ltlGame(text, ins, outs);
      } catch (err) {
        // With odd --ins/--outs the first complaint may be about the lists, which have no location.
        const clean = userErrorResult(err, oddIo ? undefined : { file: '<formula>', text });
        if (!clean) throw err;
        if (clean.outcome === 'internal') {
          result = clean;
          return;
        }
        game = undefined;
      }
      stage = 'rules';
      if (!/[\r\n]/.test(text)) {
        try {
          parseRules(`rule: ${text}\n`, 'rules.ltl');
        } catch (err) {
          const clean = userErrorResult(err, { file: 'rules.ltl', text: `rule: ${text}\n` });
          if (!clean || clean.outcome === 'internal') {
            result = clean ?? { outcome: 'internal', detail: `rules: ${describeThrown(err)}` };
            return;
          }
        }
      }
      stage = 'monitor';
      try {
        const monitor = new ProgressionMonitor([{ name: 'p', formula: node }], { recovery: true });
        const aps = monitor.aps;
        for (const x of events) monitor.step(new Set(aps.filter((_, i) => ((x * (i + 3)) % 1) < 0.5)));
        monitor.finish('ltl3');
        monitor.finish('ltlf');
      } catch (err) {
        if (!(err instanceof MonitorLimitError)) throw err;
      }
      stage = 'shield';
      // A shield compiles its rules to a DFA over every proposition (exponential by design), so
      // only small rules: the question is whether reading and deciding is clean, not how big.
      if (size(formula) <= 40 && names.length <= 8) {
        try {
          const shield = new Shield([{ name: 'r', ltl: text }]);
          for (const x of events.slice(0, 4)) shield.guard({ tool: x < 0.5 ? 'a' : 'b' });
          shield.checkEvent(names.filter((_, i) => ((events[0] * (i + 2)) % 1) < 0.5));
        } catch (err) {
          if (!(err instanceof ShieldRuleError)) throw err;
        }
      }
      stage = 'synthesis';
      if (game && limits.synthesize && size(formula) <= 60 && names.length <= 10) {
        const res = checkRealizability(game, { timeoutMs: limits.synthMs });
        if (res.verdict === 'unknown') result = { outcome: 'timeout', detail: res.reason };
      }
    } catch (err) {
      result = { outcome: 'internal', detail: `${stage}: ${describeThrown(err)}` };
    }
  }, limits.hardMs);
  return done ? result : { outcome: 'hang', detail: `LTL input still running after ${limits.hardMs} ms` };
}
