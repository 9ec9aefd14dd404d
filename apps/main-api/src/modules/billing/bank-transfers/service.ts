import {
  type DatabaseExecutor,
  databaseErrorOf,
  type Payment,
  type PaymentStatus,
  type Transaction,
  type TransferConfirmationOutcome,
} from '@platform/db';
import { conflict, notFound } from '@platform/errors';
import { decodeCursor, pageOf } from '@platform/pagination';
import { formatKes } from '@platform/pricing';
import { type AuditContext, recordAuditEvent } from '../../audit/index.js';
import { formatDay } from '../documents/index.js';
import {
  isPaymentReference,
  raisePaymentAlarm,
  readTransferReference,
  type SettlementContext,
  settleFoundPayment,
} from '../payments/index.js';
import { normalizeBankReference } from './bank-reference.js';
import {
  confirmationsOf,
  findTransferConfirmedBy,
  findTransferRow,
  insertConfirmation,
  listTransferRows,
  lockTransfer,
  storeBankReference,
  type TransferMatch,
} from './repository.js';
import type { ConfirmTransferBody, TransferView } from './schemas.js';
import { toTransferView } from './view.js';

// Bank transfers as the platform's finance staff handle them (docs/decisions.md#bank-transfer-confirmation): the list
// of transfers across organizations, and the confirmation of the money a transfer brought in.

const TRANSFER_NOT_FOUND = 'Bank transfer not found';
/** The source of the status changes a confirmation makes, in payment_events and the audit log. */
const FINANCE_SOURCE = 'finance';

/** How finance names a transfer: its payment reference, or the reference written on it; undefined for neither. */
function transferMatchOf(reference: string): TransferMatch | undefined {
  if (isPaymentReference(reference)) return { reference };
  const transferReference = readTransferReference(reference);
  return transferReference === undefined ? undefined : { transferReference };
}

export interface TransferFilter {
  status: PaymentStatus | undefined;
  reference: string | undefined;
  limit: number;
  cursor: string | undefined;
}

/**
 * GET /v1/finance/payments: the bank transfers of every organization, newest first, a page at a time, each with what
 * finance recorded about it; only those in `status`, or the one `reference` names (none when it names nothing).
 */
export async function listTransfers(
  db: DatabaseExecutor,
  filter: TransferFilter,
): Promise<{ transfers: TransferView[]; nextCursor: string | null }> {
  const match = filter.reference === undefined ? undefined : transferMatchOf(filter.reference);
  const after = filter.cursor === undefined ? undefined : decodeCursor(filter.cursor);
  if (filter.reference !== undefined && match === undefined) return { transfers: [], nextCursor: null };
  const rows = await listTransferRows(db, { status: filter.status, match, after, limit: filter.limit + 1 });
  const { page, nextCursor } = pageOf(rows, filter.limit, (row) => ({ createdAt: row.position, id: row.payment.id }));
  const recorded = await confirmationsOf(
    db,
    page.map((row) => row.payment.id),
  );
  const transfers = page.map((row) =>
    toTransferView(
      row,
      recorded.filter((confirmation) => confirmation.paymentId === row.payment.id),
    ),
  );
  return { transfers, nextCursor };
}

/** The finance member confirming, as the guard let them in: their user, the request, and the platform organization. */
export interface FinanceMember {
  userId: string;
  platformOrganizationId: string;
  audit: AuditContext;
}

export interface ConfirmDeps {
  ctx: SettlementContext;
  /** Runs the confirmation in one transaction (the route's: its idempotency key's answer commits with it). */
  transaction: <T>(work: (tx: Transaction) => Promise<T>) => Promise<T>;
}

export interface ConfirmAnswer {
  success: true;
  message: string;
  data: { outcome: TransferConfirmationOutcome; transfer: TransferView };
}

const PROVIDER_REFERENCE_INDEX = 'payments_provider_reference_unique';

/**
 * POST /v1/finance/payments/:reference/confirm. The transfer is locked, then: the exact amount of its invoice is
 * recorded as applied and the payment succeeds through the settlement every provider uses (its subscription applied
 * once, its receipt issued, members told); another amount is recorded and left for staff to settle, never applied.
 * Both are in the platform organization's audit log, with the finance member. 404 for no such transfer; 409 for one
 * already confirmed, expired (or past its 30 days), or a bank reference that already confirmed another transfer.
 * Confirmations racing each other wait at the lock: one applies, the others find it confirmed (409).
 */
export async function confirmTransfer(
  deps: ConfirmDeps,
  finance: FinanceMember,
  reference: string,
  received: ConfirmTransferBody,
): Promise<ConfirmAnswer> {
  const bankReference = normalizeBankReference(received.bankReference);
  let answer: ConfirmAnswer;
  try {
    answer = await deps.transaction((tx) =>
      confirmLocked(tx, deps.ctx, finance, reference, { amountReceived: received.amountReceived, bankReference }),
    );
  } catch (error) {
    // Two transfers confirmed with one bank reference at the same moment: the unique index lets one through.
    if (databaseErrorOf(error)?.constraint === PROVIDER_REFERENCE_INDEX)
      throw conflict(usedBankReference(bankReference));
    throw error;
  }
  const { transfer, outcome } = answer.data;
  const context = { reference: transfer.reference, organizationId: transfer.organization.id, outcome };
  if (outcome === 'amount_mismatch') {
    const { amountReceived, amountDue } = transfer.confirmations.at(-1) ?? { amountReceived: 0, amountDue: 0 };
    raisePaymentAlarm(
      deps.ctx,
      'transfer_amount_mismatch',
      { ...context, amountReceived, amountDue },
      'Finance recorded a bank transfer of another amount than its invoice: nothing was applied, staff settle it',
    );
  } else {
    deps.ctx.log.info(context, 'Bank transfer confirmed by finance');
  }
  return answer;
}

async function confirmLocked(
  tx: Transaction,
  ctx: SettlementContext,
  finance: FinanceMember,
  reference: string,
  received: { amountReceived: number; bankReference: string },
): Promise<ConfirmAnswer> {
  const now = ctx.now();
  const match = transferMatchOf(reference);
  const payment = match === undefined ? undefined : await lockTransfer(tx, match);
  if (payment === undefined) throw notFound(TRANSFER_NOT_FOUND);
  refuseUnlessAwaited(payment, now);
  const { bankReference, amountReceived } = received;
  const confirmedElsewhere = await findTransferConfirmedBy(tx, bankReference, payment.id);
  if (confirmedElsewhere !== undefined) throw conflict(usedBankReference(bankReference, confirmedElsewhere));

  const outcome: TransferConfirmationOutcome = amountReceived === payment.amount ? 'applied' : 'amount_mismatch';
  await insertConfirmation(tx, {
    paymentId: payment.id,
    confirmedByUserId: finance.userId,
    amountReceived,
    amountDue: payment.amount,
    bankReference,
    outcome,
    createdAt: now,
  });
  // The finance member's work is the platform's record, as reviewers' is (docs/decisions.md#audit-log); the customer's
  // own log gets the payment's success from the settlement.
  await recordAuditEvent(tx, finance.audit, {
    organizationId: finance.platformOrganizationId,
    action: outcome === 'applied' ? 'bank_transfer.confirmed' : 'bank_transfer.amount_mismatch',
    targetType: 'payment',
    targetId: payment.reference,
    details: {
      organizationId: payment.organizationId,
      transferReference: payment.accountReference,
      amountDue: payment.amount,
      amountReceived,
      bankReference,
    },
  });
  if (outcome === 'applied') {
    const withBankReference = await storeBankReference(tx, payment.id, bankReference);
    const settled = await settleFoundPayment(
      tx,
      ctx,
      withBankReference,
      { status: 'succeeded', source: FINANCE_SOURCE, paid: { amount: amountReceived, currency: 'KES' } },
      now,
    );
    if (settled.kind !== 'changed' || settled.payment.status !== 'succeeded') {
      throw new Error(`Bank transfer ${payment.reference} did not succeed although locked while pending`);
    }
  }

  const row = await findTransferRow(tx, payment.id);
  if (row === undefined) throw new Error(`Bank transfer ${payment.reference} disappeared while locked`);
  const transfer = toTransferView(row, await confirmationsOf(tx, [payment.id]));
  const message =
    outcome === 'applied'
      ? `Transfer confirmed: ${formatKes(amountReceived)} applied to ${payment.reference}, receipt ${row.receiptNumber ?? 'issued'}`
      : `Recorded: ${formatKes(amountReceived)} received for an invoice of ${formatKes(payment.amount)}. Nothing was ` +
        'applied: the payment stays pending for staff to settle (confirm the exact amount once it is complete)';
  return { success: true, message, data: { outcome, transfer } };
}

/**
 * 409 unless the transfer still waits for its money: confirmed already, expired (or past its 30 days, which the expiry
 * job has not reached yet), or ended otherwise.
 */
function refuseUnlessAwaited(payment: Payment, now: Date): void {
  if (payment.status === 'succeeded') {
    throw conflict(
      `This transfer was already confirmed (bank reference ${payment.providerReference ?? 'unknown'}): it is applied once`,
    );
  }
  if (payment.status === 'expired' || (payment.status === 'pending' && now >= payment.nextCheckAt)) {
    throw conflict(
      `This transfer expired on ${formatDay(payment.nextCheckAt)}, unconfirmed after 30 days: it can no longer be ` +
        'confirmed. Settle the money received with the customer (a new payment, or a refund)',
    );
  }
  if (payment.status !== 'pending') throw conflict(`This transfer is ${payment.status}: it can no longer be confirmed`);
}

function usedBankReference(bankReference: string, other?: Payment): string {
  const which = other === undefined ? 'another transfer' : other.reference;
  return `The bank reference ${bankReference} already confirmed ${which}: one transfer pays one invoice`;
}
