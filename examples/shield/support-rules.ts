/** The customer-support rules both shield examples use (English pattern sentences and one LTL rule). */
import type { RuleInput } from '../../runtime/shield/index.js';

export const SUPPORT_TOOLS = ['lookup_order', 'verify_identity', 'refund', 'send_email'] as const;

export const SUPPORT_RULES: RuleInput[] = [
  { name: 'verify-before-refund', english: 'call:refund only after result:verified' },
  { name: 'single-refund', english: 'call:refund happens at most 1 times' },
  { name: 'email-after-refund', english: 'every call:refund is followed by call:send_email' },
  { name: 'no-email-spam', ltl: 'G ("call:send_email" -> !X "call:send_email")', description: 'never send two emails in a row' },
];
