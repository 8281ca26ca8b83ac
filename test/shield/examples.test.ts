import { describe, expect, it } from 'vitest';
import { aiSdkExample } from '../../examples/shield/ai-sdk.js';
import { guardExample } from '../../examples/shield/guard.js';

describe('shield examples', () => {
  it('AI SDK: the premature refund is blocked with the rule named, and the model re-plans', async () => {
    const lines: string[] = [];
    const r = await aiSdkExample((l) => lines.push(l));
    expect(r.blocked).toHaveLength(1);
    expect(r.blocked[0].tool).toBe('refund');
    expect(r.blocked[0].reason).toContain('"verify-before-refund"');
    // The blocked refund never executed; the re-planned sequence did.
    expect(r.executed).toEqual(['verify_identity', 'refund', 'send_email']);
    expect(r.finalText).toBe('Refunded order A17 and emailed the customer.');
    // prepareStep: refund is not offered before verification, and not again after it ran.
    expect(r.offeredPerStep[0]).not.toContain('refund');
    expect(r.offeredPerStep[1]).toContain('refund');
    expect(r.offeredPerStep[2]).not.toContain('refund');
    expect(lines.some((l) => l.startsWith('tool refund: call refund is blocked'))).toBe(true);
  });

  it('framework-free guard example', () => {
    const lines: string[] = [];
    const shield = guardExample((l) => lines.push(l));
    expect(lines).toContain('BLOCKED call refund is blocked: rule "verify-before-refund" (call:refund only after result:verified) forbids it');
    expect(lines.filter((l) => l.startsWith('BLOCKED'))).toHaveLength(2); // early refund, second email
    expect(shield.status().satisfied).toBe(true);
  });
});
