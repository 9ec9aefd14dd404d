import type { DatabaseExecutor } from '@platform/db';
import { notFound } from '@platform/errors';
import { type AuditContext, recordAuditEvent } from '../../audit/index.js';
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
 * Removes one of the organization's methods (soft: past payments keep their link) and records it in the audit log,
 * in the caller's transaction. Removing it again succeeds and records nothing; 404 when the organization has no
 * method with that id.
 */
export async function removePaymentMethod(
  tx: DatabaseExecutor,
  organizationId: string,
  id: string,
  now: Date,
  audit: AuditContext,
): Promise<void> {
  const removed = await markPaymentMethodRemoved(tx, organizationId, id, now);
  if (removed === 'not_found') throw notFound(PAYMENT_METHOD_NOT_FOUND);
  if (removed === 'already_removed') return;
  await recordAuditEvent(tx, audit, {
    organizationId,
    action: 'payment_method.removed',
    targetType: 'payment_method',
    targetId: removed.id,
    // Enough to tell which one it was; a number is kept to its last three digits.
    details:
      removed.type === 'card'
        ? { type: 'card', brand: removed.brand, last4: removed.last4 }
        : { type: 'mobile_money', phoneEnding: removed.phone?.slice(-3) ?? null },
  });
}
