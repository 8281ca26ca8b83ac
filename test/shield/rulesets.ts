import type { RuleInput } from '../../runtime/shield/index.js';

/** VirtualHome-style room constraints (paper 004): each room visit is a `walk` tool call. */
export const ROOMS = ['kitchen', 'bathroom', 'bedroom', 'living_room'] as const;
export const HOME_RULES: RuleInput[] = [
  { name: 'living-room-before-bathroom', english: 'call:bathroom only after call:living_room' },
  { name: 'bedroom-before-living-room', english: 'call:living_room only after call:bedroom' },
  { name: 'kitchen-after-living-room', english: 'every call:living_room is followed by call:kitchen' },
  { name: 'kitchen-once', english: 'call:kitchen happens at most 1 times' },
];

/** A customer-support agent: refunds need a verified identity, an email must follow, no deletions. */
export const SUPPORT_TOOLS = ['lookup_order', 'verify_identity', 'refund', 'send_email', 'close_ticket', 'delete_account'] as const;
export const SUPPORT_EVENTS = ['result:verified'] as const;
export const SUPPORT_RULES: RuleInput[] = [
  { name: 'verify-before-refund', english: 'call:refund only after result:verified' },
  { name: 'single-refund', english: 'call:refund happens at most 1 times' },
  { name: 'email-after-refund', english: 'every call:refund is followed by call:send_email' },
  { name: 'no-deletion', english: 'call:delete_account never happens' },
  { name: 'close-last', ltl: 'G ("call:close_ticket" -> !X true)', description: 'nothing happens after the ticket is closed' },
  { name: 'no-double-email', english: 'call:send_email never happens twice in a row' },
];
