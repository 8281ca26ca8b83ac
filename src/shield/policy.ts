/**
 * One shield session of the MCP proxy: the `Shield` (runtime/shield) deciding calls, the labels
 * that enrich events, the decision log, and the snapshot file that lets a restarted proxy resume.
 *
 * Events, in the order the shield records them:
 * - an allowed call whose server answered with a tool result: `call:<tool>` (+ call labels), then
 *   `ok:<tool>` or `error:<tool>` (`isError: true`) with the result's labels;
 * - an allowed call whose outcome is unknown (cancelled by the client after it was sent, or the
 *   server died or hung meanwhile): `call:<tool>`, then `unknown:<tool>` — the tool may have run,
 *   so it counts, as the safe side of "at most N times" requires;
 * - a call the server refused with a JSON-RPC error (unknown tool, bad arguments) did not run and
 *   is not recorded; a denied call is not recorded either (the shield's semantics).
 *
 * Calls are decided and run one at a time (`exclusive`): each decision sees every earlier call's
 * outcome, so two concurrent calls can never both slip under "at most once".
 */
import { renameSync, writeFileSync } from 'node:fs';
import { type Decision, Shield, type ShieldRule } from '../../runtime/shield/shield.js';
import { restoreShield, snapshotShield } from '../../runtime/shield/snapshot.js';
import { argsDigest, type CallOutcome, type DecisionLog } from './decision-log.js';
import { NO_LABELS, type ShieldLabels } from './labels-file.js';

export interface PolicyOptions {
  readonly rules: readonly ShieldRule[];
  /** Name of the rule set (the rules file), stored in snapshots. */
  readonly rulesName: string;
  readonly labels?: ShieldLabels;
  readonly log?: DecisionLog;
  /** Snapshot file: restored when it exists, rewritten after every recorded event. */
  readonly statePath?: string;
  readonly now?: () => Date;
  /** Told once when the snapshot cannot be written (the session goes on). */
  readonly warn?: (message: string) => void;
}

export interface CallDecision {
  readonly decision: Decision;
  readonly callLabels: readonly string[];
  readonly time: Date;
}

export class ShieldPolicy {
  readonly shield: Shield;
  private chain: Promise<unknown> = Promise.resolve();
  private readonly listeners = new Set<() => void>();
  private readonly labels: ShieldLabels;
  private readonly now: () => Date;

  /** The session's name in the log and snapshots. */
  readonly key: string;

  /**
   * `snapshot`: the text of a saved snapshot to resume from (read by the caller); the session then
   * keeps the name it had, so its log lines stay one run for `tslc audit --group-by session`.
   */
  constructor(
    key: string,
    private readonly options: PolicyOptions,
    snapshot?: string,
  ) {
    this.shield = new Shield(options.rules);
    const restored = snapshot !== undefined ? restoreShield(this.shield, snapshot) : undefined;
    this.key = typeof restored?.session === 'string' ? restored.session : key;
    this.labels = options.labels ?? NO_LABELS;
    this.now = options.now ?? (() => new Date());
  }

  /** Run `task` after every task handed in earlier has finished. */
  exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.chain.then(task, task);
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** Called after every recorded event (e.g. to tell clients that the allowed tools changed). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  decide(tool: string, args: unknown): CallDecision {
    const callLabels = this.labels.call(tool, args);
    const decision = this.shield.check({ tool, args, labels: callLabels });
    return { decision, callLabels, time: this.now() };
  }

  /** Log a denial (nothing is recorded: a denied call did not happen). */
  denied(tool: string, args: unknown, d: CallDecision): void {
    const rules = d.decision.breaches.map((b) => b.rule);
    this.options.log?.write({
      time: d.time.toISOString(),
      session: this.key,
      kind: 'call',
      tool,
      args: argsDigest(args),
      decision: 'denied',
      ...(rules.length > 0 ? { rule: rules[0], rules } : {}),
      reason: d.decision.reason,
      event: [`denied:${tool}`],
    }, this.shield.propositions);
  }

  /** The server refused the forwarded request (JSON-RPC error): logged, not recorded. */
  failed(tool: string, args: unknown, d: CallDecision, message: string): void {
    this.options.log?.write({
      time: d.time.toISOString(),
      session: this.key,
      kind: 'call',
      tool,
      args: argsDigest(args),
      decision: 'allowed',
      outcome: 'failed',
      reason: `the server refused the call: ${message}`,
      event: [],
    }, this.shield.propositions);
  }

  /** Record a call that ran (or may have run) and its outcome; log both events. */
  completed(tool: string, args: unknown, d: CallDecision, outcome: CallOutcome, result?: Readonly<Record<string, unknown>>): void {
    const callEvent = [...new Set([`call:${tool}`, ...d.callLabels])].sort();
    const resultEvent = [...new Set([`${outcome}:${tool}`, ...(result ? this.labels.result(tool, args, result) : [])])].sort();
    this.shield.observe(callEvent);
    this.shield.observe(resultEvent);
    const log = this.options.log;
    if (log) {
      log.write({
        time: d.time.toISOString(),
        session: this.key,
        kind: 'call',
        tool,
        args: argsDigest(args),
        decision: 'allowed',
        outcome,
        reason: d.decision.reason,
        event: callEvent,
      }, this.shield.propositions);
      log.write({ time: this.now().toISOString(), session: this.key, kind: 'result', tool, outcome, event: resultEvent }, this.shield.propositions);
    }
    this.persist();
    for (const l of this.listeners) l();
  }

  /** Tools (of `known`) whose call is allowed now. */
  allowedTools(known: readonly string[]): string[] {
    return known.filter((t) => this.shield.check({ tool: t, labels: this.labels.call(t, undefined) }).allowed);
  }

  private persistFailed = false;

  private persist(): void {
    const path = this.options.statePath;
    if (!path) return;
    // Write-then-rename: a crash mid-write leaves the previous snapshot, never half of one.
    const tmp = `${path}.tmp-${process.pid}`;
    try {
      writeFileSync(tmp, JSON.stringify(snapshotShield(this.shield, this.options.rulesName, this.key)) + '\n');
      renameSync(tmp, path);
      this.persistFailed = false;
    } catch (err) {
      if (!this.persistFailed) this.options.warn?.(`cannot write the shield state ${path}: ${(err as Error).message}`);
      this.persistFailed = true;
    }
  }
}
