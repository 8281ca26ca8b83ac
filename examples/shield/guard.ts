/**
 * Framework-free shield: ask `guard(call)` before running any tool; feed results back with
 * `observe`. Run: `npm run build && node dist/examples/...` is not needed — this file is also
 * exercised by test/shield/examples.test.ts.
 */
import { Shield } from '../../runtime/shield/index.js';
import { SUPPORT_RULES, SUPPORT_TOOLS } from './support-rules.js';

export function guardExample(log: (line: string) => void = console.log): Shield {
  const shield = new Shield(SUPPORT_RULES, { tools: SUPPORT_TOOLS });
  const plan = ['lookup_order', 'refund', 'verify_identity', 'refund', 'send_email', 'send_email'];
  log(`allowed at start: ${shield.allowedTools().join(', ')}`);
  for (const tool of plan) {
    const d = shield.guard({ tool });
    log(d.allowed ? `run ${tool}` : `BLOCKED ${d.reason}`);
    // The tool's result becomes an event the rules can refer to.
    if (d.allowed && tool === 'verify_identity') shield.observe(['result:verified']);
  }
  const status = shield.status();
  log(status.satisfied ? 'session may end: every rule is satisfied' : `still owed: ${status.pending.map((p) => p.description).join('; ')}`);
  return shield;
}

if (import.meta.url === `file://${process.argv[1]}`) guardExample();
