import type { DatabaseExecutor } from '@platform/db';

/**
 * What the pay route asks before it starts a mail subscription purchase: whether the organization may buy one now. An
 * organization has one active subscription at most (docs/decisions.md#subscription-purchases): that rule is the
 * subscriptions', which implement this port (and credit a purchase that raced another one when it is paid); the billing
 * routes pass it in.
 */
export interface SubscriptionPurchaseRule {
  /** Resolves when the organization may buy a subscription at `now`; throws the 409 when it may not. */
  assertPurchasable(db: DatabaseExecutor, organizationId: string, now: Date): Promise<void>;
}
