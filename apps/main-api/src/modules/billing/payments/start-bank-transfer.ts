import { databaseErrorOf, type Payment } from '@platform/db';
import { formatKes } from '@platform/pricing';
import { recordAuditEvent } from '../../audit/index.js';
import { formatDay } from '../documents/index.js';
import type { TransferInvoice, TransferTerms } from './invoice-issuer.js';
import { newPaymentReference, newTransferReference } from './reference.js';
import { insertPendingPayment } from './repository.js';
import { assertTakesPayments } from './retired-organizations.js';
import type { PaymentStarted } from './schemas.js';
import { type PaymentToStart, paymentStarted } from './start-context.js';

// Paying by bank transfer (docs/decisions.md#bank-transfers): no provider is asked anything. The pending payment, its
// start in the audit log and its invoice are written in one transaction, and the answer tells the payer where to send
// the money and what to write on the transfer. The platform's finance staff confirm the money when it arrives
// (`../bank-transfers/`), or the payment expires.

const DAY_MS = 86_400_000;
/** An invoice is payable within 14 days of its issue. */
const PAYABLE_WITHIN_DAYS = 14;
/** A transfer nobody confirmed within 30 days expires: its invoice can no longer be paid. */
const EXPIRES_AFTER_DAYS = 30;

/** When a bank transfer started at `now` is payable by, and when it expires. */
function transferTermsFrom(now: Date): TransferTerms {
  return {
    dueAt: new Date(now.getTime() + PAYABLE_WITHIN_DAYS * DAY_MS),
    expiresAt: new Date(now.getTime() + EXPIRES_AFTER_DAYS * DAY_MS),
  };
}

/** A fresh reference clashing with another transfer's is drawn again, this many times at most (40 bits: never). */
const REFERENCE_ATTEMPTS = 3;
const TRANSFER_REFERENCE_INDEX = 'payments_bank_transfer_reference_unique';

/**
 * Records the pending bank transfer, its audit record and its invoice in one transaction (409 when the organization was
 * retired meanwhile), and answers how to pay it.
 * The payment's next check is its expiry: the bank transfer expiry job takes it then, the reconciliation job never.
 */
export async function startBankTransfer(start: PaymentToStart): Promise<PaymentStarted> {
  const { context, requester, intent } = start;
  const now = context.ctx.now();
  const terms = transferTermsFrom(now);
  for (let attempt = 1; ; attempt += 1) {
    try {
      const invoice = await context.ctx.db.transaction(async (tx) => {
        await assertTakesPayments(tx, requester.organizationId);
        const payment = await insertPendingPayment(
          tx,
          {
            reference: newPaymentReference(),
            organizationId: requester.organizationId,
            userId: requester.userId,
            method: 'bank_transfer',
            channel: 'bank_transfer',
            purpose: intent.purpose,
            provider: 'bank_transfer',
            amount: start.amount,
            phone: null,
            paymentMethodId: null,
            plan: intent.subscription?.plan ?? null,
            seats: intent.subscription?.seats ?? null,
            billingCycle: intent.subscription?.cycle ?? null,
            accountReference: newTransferReference(),
            nextCheckAt: terms.expiresAt,
            createdAt: now,
          },
          requester.startedBy,
        );
        await recordAuditEvent(tx, requester.audit, paymentStarted(payment));
        return { payment, invoice: await context.invoices.issueInvoice(tx, payment, terms, now) };
      });
      return bankTransferAnswer(invoice.payment, invoice.invoice);
    } catch (error) {
      const clash = databaseErrorOf(error)?.constraint === TRANSFER_REFERENCE_INDEX;
      if (!clash || attempt === REFERENCE_ATTEMPTS) throw error;
    }
  }
}

/** What POST /v1/billing/pay answers for a bank transfer (again for a retry with its key while it is pending). */
export function bankTransferAnswer(payment: Payment, invoice: TransferInvoice): PaymentStarted {
  const { instructions } = invoice;
  return {
    success: true,
    message:
      `Transfer ${formatKes(payment.amount)} to ${instructions.bankName}, account ${instructions.accountNumber} ` +
      `(${instructions.accountName}), with the reference ${instructions.reference}, by ` +
      `${formatDay(invoice.dueAt)}: invoice ${invoice.number}. The payment completes when the ` +
      'transfer is confirmed.',
    reference: payment.reference,
    instructions,
    invoice: {
      number: invoice.number,
      url: invoicePathOf(payment.reference),
      amount: payment.amount,
      dueAt: invoice.dueAt.toISOString(),
      expiresAt: invoice.expiresAt.toISOString(),
    },
  };
}

/** Where a payment's invoice is shown. */
function invoicePathOf(paymentReference: string): string {
  return `/v1/billing/payments/${paymentReference}/invoice`;
}
