import type { Database, DatabaseExecutor, Payment, PaymentProvider } from '@platform/db';
import { notFound } from '@platform/errors';
import { findOrganizationPayment } from './look-up-payment-repository.js';
import { isPaymentReference } from './reference.js';
import { findPayment } from './repository.js';
import type { PaymentView } from './schemas.js';
import { toPaymentView } from './view.js';

// A payment looked up by its reference: by a member (GET /v1/billing/payments/:reference), or by the public pages
// that name one (the page after a checkout, the sandbox's checkout).

const PAYMENT_NOT_FOUND = 'Payment not found';

/**
 * GET /v1/billing/payments/:reference: one of the organization's payments. Another organization's payment,
 * an unknown and a malformed reference are the same 404.
 */
export async function organizationPaymentView(
  db: Database,
  organizationId: string,
  reference: string,
): Promise<PaymentView> {
  const found = isPaymentReference(reference)
    ? await findOrganizationPayment(db, organizationId, reference)
    : undefined;
  if (found === undefined) throw notFound(PAYMENT_NOT_FOUND);
  return toPaymentView(found.payment, found);
}

/**
 * A payment by its reference (of `provider`'s, when given), for the public pages that name one: anything but
 * a PAY- reference (a NUL byte, say) is no payment, and never reaches the database.
 */
export async function paymentByReference(
  db: DatabaseExecutor,
  reference: string,
  provider?: PaymentProvider,
): Promise<Payment | undefined> {
  if (!isPaymentReference(reference)) return undefined;
  return findPayment(db, provider === undefined ? { reference } : { reference, provider });
}
