import type { DatabaseExecutor } from '@platform/db';
import { notFound } from '@platform/errors';
import { listActivePaymentMethods, markPaymentMethodRemoved } from './repository.js';
import type { PaymentMethodView } from './schemas.js';
import { toPaymentMethodView } from './view.js';

/** An unknown id, a removed method and another organization's method all answer this 404. */
export const PAYMENT_METHOD_NOT_FOUND = 'Payment method not found';

/** The organization's saved cards and M-Pesa numbers that have not been removed, newest first. */
export async function listPaymentMethods(db: DatabaseExecutor, organizationId: string): Promise<PaymentMethodView[]> {
  return (await listActivePaymentMethods(db, organizationId)).map(toPaymentMethodView);
}

/**
 * Removes one of the organization's methods (soft: past payments keep their link). Removing it again
 * succeeds; 404 when the organization has no method with that id.
 */
export async function removePaymentMethod(
  db: DatabaseExecutor,
  organizationId: string,
  id: string,
  now: Date,
): Promise<void> {
  if (!(await markPaymentMethodRemoved(db, organizationId, id, now))) throw notFound(PAYMENT_METHOD_NOT_FOUND);
}
