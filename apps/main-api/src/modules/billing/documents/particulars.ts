import type { NewInvoice, NewReceipt, Payment, Transaction } from '@platform/db';
import { vatIncluded } from '@platform/pricing';
import type { Seller } from '../config.js';
import { formatDocumentNumber } from './numbering.js';
import { findBuyer, takeNextNumber } from './repository.js';

/** What a receipt and an invoice both copy when they are issued: the columns the two tables share. */
export type DocumentParticulars = Pick<NewReceipt, keyof NewReceipt & keyof NewInvoice>;

/**
 * The particulars of a billing document for `payment`, issued now by `seller`: the buyer as it is now, what is
 * bought, the amount with its VAT, and the next number of `series` (taken last: the series stays locked until the
 * caller's transaction ends, so its numbers have no gap; docs/decisions.md#receipt-numbering).
 */
export async function issueParticulars(
  tx: Transaction,
  document: { series: string; prefix: string; seller: Seller; payment: Payment; now: Date },
): Promise<DocumentParticulars> {
  const { seller, payment } = document;
  const buyer = await findBuyer(tx, payment.organizationId);
  const { net, vat, ratePercent } = vatIncluded(payment.amount);
  const sequence = await takeNextNumber(tx, document.series);
  return {
    sequence,
    number: formatDocumentNumber(document.prefix, sequence),
    paymentId: payment.id,
    organizationId: payment.organizationId,
    issuedAt: document.now,
    sellerName: seller.name,
    sellerAddress: seller.address,
    sellerKraPin: seller.kraPin,
    buyerName: buyer.name,
    buyerKraPin: buyer.kraPin,
    purpose: payment.purpose,
    plan: payment.plan,
    seats: payment.seats,
    billingCycle: payment.billingCycle,
    total: payment.amount,
    net,
    vat,
    vatRatePercent: ratePercent,
    paymentReference: payment.reference,
  };
}
