import type { Payment, Transaction } from '@platform/db';
import { notifyOrganizationMembers } from '@platform/notifications';
import { formatKes } from '@platform/pricing';
import type { Seller } from '../config.js';
import { issueParticulars } from '../documents/index.js';
import { type PaidFor, type ReceiptIssueOptions, type ReceiptIssuer, receiptPageOf } from '../payments/index.js';
import { insertReceipt } from './repository.js';

/** The number series of receipts and the prefix of their numbers. */
const RECEIPT_SERIES = 'receipt';
const RECEIPT_PREFIX = 'RCT';

/** Issues receipts naming `seller`: what payments call at the end of every success. */
export function receiptIssuer(seller: Seller): ReceiptIssuer {
  return {
    issueReceipt: (tx, payment, paidFor, now, options) => issueReceipt(tx, seller, payment, paidFor, now, options),
  };
}

/**
 * Issues the receipt of a payment that has just succeeded, in the transaction that records the success: everything
 * it shows is copied onto it, its number is the next of the gapless series (taken as late as it can be: the series
 * stays locked until the transaction ends), and the organization's members are told, with the link, unless
 * `tellMembers` is false (docs/decisions.md#billing-documents).
 */
async function issueReceipt(
  tx: Transaction,
  seller: Seller,
  payment: Payment,
  paidFor: PaidFor,
  now: Date,
  { tellMembers }: ReceiptIssueOptions = { tellMembers: true },
): Promise<void> {
  if (payment.completedAt === null) throw new Error(`Payment ${payment.reference} has no completion time`);
  const receipt = await insertReceipt(tx, {
    ...(await issueParticulars(tx, { series: RECEIPT_SERIES, prefix: RECEIPT_PREFIX, seller, payment, now })),
    periodStart: paidFor.kind === 'period' ? paidFor.start : null,
    periodEnd: paidFor.kind === 'period' ? paidFor.end : null,
    note: paidFor.kind === 'not_applied' ? paidFor.note : null,
    channel: payment.channel,
    provider: payment.provider,
    providerReference: payment.providerReference,
    mpesaReceiptNumber: payment.mpesaReceiptNumber,
    paidAt: payment.completedAt,
  });
  if (!tellMembers) return;
  await notifyOrganizationMembers(tx, payment.organizationId, {
    title: 'Receipt issued',
    message: `Receipt ${receipt.number}: ${formatKes(receipt.total)} paid (${payment.reference}).`,
    type: 'info',
    // The dashboard's page: a browser opens it with its cookie (docs/decisions.md#dashboard-pages).
    actionUrl: receiptPageOf(payment.reference, payment.organizationId),
  });
}
