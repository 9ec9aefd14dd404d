import { conflict } from '@platform/errors';
import type { SubscriptionPurchaseRule } from '../payments/index.js';
import { hasActiveSubscription } from './purchase.js';

const SUBSCRIPTION_ALREADY_ACTIVE =
  'The organization already has an active mail subscription; change it with the upgrade endpoints';

/**
 * One active subscription per organization (docs/decisions.md#subscription-purchases): a purchase is refused (409)
 * while one is active, asked by payments before the purchase starts. Two purchases that race past it are both paid,
 * and the later one goes to the credit balance (purchase.ts).
 */
export const subscriptionPurchaseRule: SubscriptionPurchaseRule = {
  async assertPurchasable(db, organizationId, now) {
    if (await hasActiveSubscription(db, organizationId, now)) throw conflict(SUBSCRIPTION_ALREADY_ACTIVE);
  },
};
