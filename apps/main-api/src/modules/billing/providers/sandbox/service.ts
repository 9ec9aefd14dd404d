import type { DatabaseExecutor, Payment } from '@platform/db';
import { findUserEmail } from '../../../accounts/index.js';
import { paymentByReference, type SettlementContext } from '../../payments/index.js';
import { applyPaystackTransaction, processPaystackEvent } from '../paystack/index.js';
import { sandboxCardTransaction } from './card-transactions.js';

export type CheckoutAction = 'pay' | 'decline';

/** The email a sandbox transaction names when the payer is unknown. */
const UNKNOWN_PAYER_EMAIL = 'payer@sandbox.invalid';

/** The sandbox checkout of `reference`: a sandbox card payment made through the hosted checkout, if any. */
export async function findSandboxCheckout(db: DatabaseExecutor, reference: string): Promise<Payment | undefined> {
  const payment = await paymentByReference(db, reference, 'sandbox');
  return payment?.channel === 'card' && payment.method === 'card' ? payment : undefined;
}

/**
 * Completes a checkout still pending as the payer chose. Paying produces a Paystack-shaped `charge.success`
 * event for the same handler as Paystack's webhook; declining, a failed Paystack transaction. A checkout no
 * longer pending is left as it is.
 */
export async function completeSandboxCheckout(
  ctx: SettlementContext,
  payment: Payment,
  action: CheckoutAction,
): Promise<void> {
  if (payment.status !== 'pending') return;
  const email = await emailOf(ctx.db, payment);
  const at = ctx.now();
  const base = { reference: payment.reference, amount: payment.amount, email, at };
  if (action === 'pay') {
    const data = sandboxCardTransaction({ ...base, status: 'success', gatewayResponse: 'Approved' });
    await processPaystackEvent(ctx, 'sandbox', { event: 'charge.success', data }, 'sandbox_checkout');
  } else {
    const data = sandboxCardTransaction({
      ...base,
      status: 'failed',
      gatewayResponse: 'Declined in the sandbox checkout',
    });
    await applyPaystackTransaction(ctx, 'sandbox', data, 'sandbox_decline', 'sandbox_checkout', { data });
  }
}

async function emailOf(db: DatabaseExecutor, payment: Payment): Promise<string> {
  if (payment.userId === null) return UNKNOWN_PAYER_EMAIL;
  return (await findUserEmail(db, payment.userId)) ?? UNKNOWN_PAYER_EMAIL;
}
