import {
  type DatabaseExecutor,
  databaseErrorOf,
  type Payment,
  type PaymentStatus,
  type Transaction,
  type TransferConfirmationOutcome,
} from '@platform/db';
import { conflict, notFound, validationError } from '@platform/errors';
import { decodeCursor, pageOf } from '@platform/pagination';
import { formatKes } from '@platform/pricing';
import { type AuditContext, recordAuditEvent } from '../../audit/index.js';
import { formatDay } from '../documents/index.js';
import {
  isPaymentReference,
  raisePaymentAlarm,
  readTransferReference,
  recordRefundDue,
  retiredAtOf,
  type SettlementContext,
  settleFoundPayment,
} from '../payments/index.js';
import { unappliedAmountOf } from './amounts.js';
import { normalizeBankReference } from './bank-reference.js';
import { applyTransferExcess, type ExcessDestination } from './excess.js';
import {
  confirmationsOf,
  findBankReferenceUse,
  findTransfer,
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
const BANK_REFERENCE_INDEX = 'bank_transfer_confirmations_bank_reference_unique';

/** What a confirmation did that is said after it committed: the log line, and the alarm when one is due. */
interface Recorded {
  answer: ConfirmAnswer;
  /** The payment moved to refund_due by this record: the alarm of money for a retired organization, once. */
  newlyRefundDue: boolean;
  /** What the invoice had received in all, this record included. */
  received: number;
  excess: { amount: number; to: ExcessDestination } | undefined;
}

/**
 * POST /v1/finance/payments/:reference/confirm. The transfer's organization, then the transfer, are locked, then what
 * arrived is recorded, and amounts recorded for one invoice add up (docs/decisions.md#split-bank-transfers): once they
 * reach its amount the payment succeeds through the settlement every provider uses (its subscription applied once,
 * its receipt issued, members told) and an excess goes to the credit balance (a top-up's to its wallet); below it the
 * record is `partial` and the invoice stays open. For a retired organization nothing is applied: the money is recorded
 * to refund (docs/decisions.md#retired-organizations-take-no-money). Every record is in the platform organization's
 * audit log, with the finance member. 400 for a malformed bank reference; 404 for no such transfer; 409 for one
 * already confirmed, expired (or past its 30 days), or a bank reference already recorded (one line of a statement is
 * recorded once, whatever its outcome). Confirmations racing each other wait at the transfer's lock and add up in
 * turn.
 */
export async function confirmTransfer(
  deps: ConfirmDeps,
  finance: FinanceMember,
  reference: string,
  received: ConfirmTransferBody,
): Promise<ConfirmAnswer> {
  const bankReference = normalizeBankReference(received.bankReference);
  let recorded: Recorded | undefined;
  let answer: ConfirmAnswer;
  try {
    answer = await deps.transaction(async (tx) => {
      recorded = await confirmLocked(tx, deps.ctx, finance, reference, {
        amountReceived: received.amountReceived,
        bankReference,
      });
      return recorded.answer;
    });
  } catch (error) {
    // One bank reference recorded twice at the same moment: the unique indexes let one through.
    const constraint = databaseErrorOf(error)?.constraint;
    if (constraint === PROVIDER_REFERENCE_INDEX || constraint === BANK_REFERENCE_INDEX) {
      throw conflict(usedBankReference(bankReference));
    }
    throw error;
  }
  // A replay of the stored answer recorded nothing now: nothing to log.
  if (recorded !== undefined) sayWhatWasRecorded(deps.ctx, recorded);
  return answer;
}

function sayWhatWasRecorded(ctx: SettlementContext, recorded: Recorded): void {
  const { transfer, outcome } = recorded.answer.data;
  const context = {
    reference: transfer.reference,
    organizationId: transfer.organization.id,
    outcome,
    received: recorded.received,
    amountDue: transfer.amount,
    ...(recorded.excess === undefined ? {} : { excess: recorded.excess.amount, excessTo: recorded.excess.to }),
  };
  if (recorded.newlyRefundDue) {
    raisePaymentAlarm(
      ctx,
      'retired_organization_payment',
      context,
      'Finance recorded a bank transfer for a retired organization: nothing was applied, it is listed to refund',
    );
  } else if (outcome === 'refund_due') {
    ctx.log.warn(context, 'Finance recorded more money for a retired organization: added to what is refunded');
  } else {
    ctx.log.info(
      context,
      outcome === 'applied' ? 'Bank transfer confirmed by finance' : 'Part of a bank transfer recorded',
    );
  }
}

async function confirmLocked(
  tx: Transaction,
  ctx: SettlementContext,
  finance: FinanceMember,
  reference: string,
  received: { amountReceived: number; bankReference: string },
): Promise<Recorded> {
  const now = ctx.now();
  const match = transferMatchOf(reference);
  const found = match === undefined ? undefined : await findTransfer(tx, match);
  if (match === undefined || found === undefined) throw notFound(TRANSFER_NOT_FOUND);
  // The organization's row before the transfer's, as every settlement takes them: its retirement is decided there.
  const retiredAt = await retiredAtOf(tx, found.organizationId);
  const payment = await lockTransfer(tx, match);
  if (payment === undefined) throw notFound(TRANSFER_NOT_FOUND);
  if (retiredAt === null) refuseUnlessAwaited(payment, now);
  else refuseUnlessReceivable(payment);
  const { bankReference, amountReceived } = received;
  const used = await findBankReferenceUse(tx, bankReference);
  if (used !== undefined) throw conflict(usedBankReference(bankReference, used.payment, payment));

  const receivedBefore = unappliedAmountOf(await confirmationsOf(tx, [payment.id]));
  const total = receivedBefore + amountReceived;
  if (!Number.isSafeInteger(total)) {
    const message = `amountReceived would bring what this invoice received above ${formatKes(Number.MAX_SAFE_INTEGER)}`;
    throw validationError(message, [{ path: '/amountReceived', message }]);
  }
  const outcome: RecordedOutcome = retiredAt !== null ? 'refund_due' : total >= payment.amount ? 'applied' : 'partial';
  await insertConfirmation(tx, {
    paymentId: payment.id,
    confirmedByUserId: finance.userId,
    amountReceived,
    amountDue: payment.amount,
    receivedBefore,
    bankReference,
    outcome,
    createdAt: now,
  });

  let newlyRefundDue = false;
  let excess: Recorded['excess'];
  if (outcome === 'applied') {
    await applyTransfer(tx, ctx, payment, bankReference, now);
    if (total > payment.amount) {
      const amount = total - payment.amount;
      excess = { amount, to: await applyTransferExcess(tx, ctx, payment, amount) };
    }
  } else if (retiredAt !== null) {
    newlyRefundDue = (await recordRefundDue(tx, payment, { source: FINANCE_SOURCE, retiredAt, now })) !== undefined;
  }
  // The finance member's work is the platform's record, as reviewers' is (docs/decisions.md#audit-log); the customer's
  // own log gets the payment's success (or its money to refund) from the settlement.
  await recordAuditEvent(tx, finance.audit, {
    organizationId: finance.platformOrganizationId,
    action: AUDIT_ACTIONS[outcome],
    targetType: 'payment',
    targetId: payment.reference,
    details: {
      organizationId: payment.organizationId,
      transferReference: payment.accountReference,
      amountDue: payment.amount,
      amountReceived,
      receivedBefore,
      bankReference,
      ...(excess === undefined ? {} : { excess: excess.amount, excessTo: excess.to }),
    },
  });

  const row = await findTransferRow(tx, payment.id);
  if (row === undefined) throw new Error(`Bank transfer ${payment.reference} disappeared while locked`);
  const transfer = toTransferView(row, await confirmationsOf(tx, [payment.id]));
  const message = messageOf(outcome, { payment, amountReceived, total, excess, receiptNumber: row.receiptNumber });
  return { answer: { success: true, message, data: { outcome, transfer } }, newlyRefundDue, received: total, excess };
}

/**
 * What a confirmation records now (amount_mismatch names only records made before amounts added up), and its audit
 * action in the platform organization's log.
 */
type RecordedOutcome = Exclude<TransferConfirmationOutcome, 'amount_mismatch'>;
const AUDIT_ACTIONS: Record<RecordedOutcome, string> = {
  applied: 'bank_transfer.confirmed',
  partial: 'bank_transfer.partial',
  refund_due: 'bank_transfer.refund_due',
};

/**
 * The invoice received its amount: the bank reference that completed it becomes the payment's provider reference
 * (its receipt names it), and the payment succeeds through the settlement every provider's outcome goes through.
 */
async function applyTransfer(
  tx: Transaction,
  ctx: SettlementContext,
  payment: Payment,
  bankReference: string,
  now: Date,
): Promise<void> {
  const withBankReference = await storeBankReference(tx, payment.id, bankReference);
  const settled = await settleFoundPayment(
    tx,
    ctx,
    withBankReference,
    { status: 'succeeded', source: FINANCE_SOURCE, paid: { amount: payment.amount, currency: 'KES' } },
    now,
  );
  if (settled.kind !== 'changed' || settled.payment.status !== 'succeeded') {
    throw new Error(`Bank transfer ${payment.reference} did not succeed although locked while pending`);
  }
}

function messageOf(
  outcome: RecordedOutcome,
  recorded: {
    payment: Payment;
    amountReceived: number;
    total: number;
    excess: Recorded['excess'];
    receiptNumber: string | null;
  },
): string {
  const { payment, amountReceived, total, excess } = recorded;
  switch (outcome) {
    case 'applied': {
      const paid =
        total === amountReceived
          ? formatKes(amountReceived)
          : `${formatKes(total)} in all (this transfer ${formatKes(amountReceived)})`;
      const beyond =
        excess === undefined
          ? ''
          : `; ${formatKes(excess.amount)} beyond the invoice went to the ${excess.to === 'wallet' ? 'wallet' : 'credit balance'}`;
      return `Transfer confirmed: ${paid} applied to ${payment.reference}, receipt ${recorded.receiptNumber ?? 'issued'}${beyond}`;
    }
    case 'partial':
      return (
        `Recorded: ${formatKes(amountReceived)} received, ${formatKes(total)} of the invoice's ${formatKes(payment.amount)} ` +
        `so far. The invoice stays open: confirm the rest (${formatKes(payment.amount - total)}) when it arrives`
      );
    case 'refund_due':
      return (
        `Recorded: ${formatKes(amountReceived)} received for an organization that has been closed. Nothing was ` +
        `applied: the payment is listed to refund (${formatKes(total)} in all), GET /v1/finance/refunds-due`
      );
  }
}

/**
 * What finance recorded for each of these transfers that was not applied (for the money to refund: what arrived for a
 * retired organization), with the bank references it came under, oldest first.
 */
export async function unappliedByTransfer(
  db: DatabaseExecutor,
  paymentIds: string[],
): Promise<Map<string, { amount: number; bankReferences: string[] }>> {
  const unapplied = new Map<string, { amount: number; bankReferences: string[] }>();
  for (const confirmation of await confirmationsOf(db, paymentIds)) {
    if (confirmation.outcome === 'applied') continue;
    const sum = unapplied.get(confirmation.paymentId) ?? { amount: 0, bankReferences: [] };
    sum.amount += confirmation.amountReceived;
    sum.bankReferences.push(confirmation.bankReference);
    unapplied.set(confirmation.paymentId, sum);
  }
  return unapplied;
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

/**
 * For a retired organization, money finance records is recorded to refund whatever became of the transfer (voided at
 * the retirement, expired, or already to refund), but for a transfer applied before the retirement: that one is 409
 * as for any organization.
 */
function refuseUnlessReceivable(payment: Payment): void {
  if (payment.status === 'succeeded') {
    throw conflict(
      `This transfer was already confirmed (bank reference ${payment.providerReference ?? 'unknown'}): it is applied once`,
    );
  }
  if (payment.status === 'failed') throw conflict(`This transfer is ${payment.status}: it can no longer be confirmed`);
}

/** The 409 for a bank reference already recorded: where, when it is known, and the rule. */
function usedBankReference(bankReference: string, on?: Payment, confirming?: Payment): string {
  const where =
    on === undefined ? 'for another transfer' : on.id === confirming?.id ? 'for this transfer' : `for ${on.reference}`;
  return `The bank reference ${bankReference} was already recorded ${where}: one line of a bank statement is recorded once`;
}
