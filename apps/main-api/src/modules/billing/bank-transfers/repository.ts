import type {
  BankTransferConfirmation,
  DatabaseExecutor,
  NewBankTransferConfirmation,
  Payment,
  PaymentStatus,
  Transaction,
  TransferConfirmationOutcome,
} from '@platform/db';
import { invoices, receipts } from '@platform/db/schema/billing-documents';
import { bankTransferConfirmations, payments } from '@platform/db/schema/payments';
import { organizationNameOf } from '@platform/organizations';
import { afterPosition, cursorTimeOf, type PagePosition } from '@platform/pagination';
import { and, asc, desc, eq, inArray, isNull, lte, type SQL } from 'drizzle-orm';

/** How finance names a bank transfer: by its payment reference (PAY-...), or the reference written on the transfer. */
export type TransferMatch = { reference: string } | { transferReference: string };

function matching(match: TransferMatch): SQL | undefined {
  return and(
    eq(payments.channel, 'bank_transfer'),
    'reference' in match
      ? eq(payments.reference, match.reference)
      : eq(payments.accountReference, match.transferReference),
  );
}

/**
 * The bank transfer, locked until the transaction ends (`FOR UPDATE`): confirmations of one transfer, and its expiry,
 * take their turns, so however many arrive at once it is applied once (docs/decisions.md#bank-transfer-confirmation).
 */
export async function lockTransfer(tx: Transaction, match: TransferMatch): Promise<Payment | undefined> {
  const [found] = await tx.select().from(payments).where(matching(match)).for('update');
  return found;
}

/**
 * The bank transfer a bank reference was recorded for, whatever the outcome, and the outcome (the first record, should
 * the history kept from before references were recorded once hold it more than once). Undefined when it was never
 * recorded: one line of a bank statement is recorded once (docs/decisions.md#split-bank-transfers).
 */
export async function findBankReferenceUse(
  tx: Transaction,
  bankReference: string,
): Promise<{ payment: Payment; outcome: TransferConfirmationOutcome } | undefined> {
  const [found] = await tx
    .select({ payment: payments, outcome: bankTransferConfirmations.outcome })
    .from(bankTransferConfirmations)
    .innerJoin(payments, eq(payments.id, bankTransferConfirmations.paymentId))
    .where(eq(bankTransferConfirmations.bankReference, bankReference))
    .orderBy(asc(bankTransferConfirmations.createdAt))
    .limit(1);
  return found;
}

/**
 * The bank transfer, unlocked: which organization it is of, so that the organization's row is locked before the
 * transfer's (docs/decisions.md#retired-organizations-take-no-money).
 */
export async function findTransfer(db: DatabaseExecutor, match: TransferMatch): Promise<Payment | undefined> {
  const [found] = await db.select().from(payments).where(matching(match));
  return found;
}

/**
 * The organization's bank transfers still awaited, locked (`FOR UPDATE SKIP LOCKED`: one a confirmation or the expiry
 * job holds is left to it, which then finds the organization retired), for its retirement to void.
 */
export async function lockPendingTransfersOf(tx: Transaction, organizationId: string): Promise<Payment[]> {
  return tx
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.organizationId, organizationId),
        eq(payments.channel, 'bank_transfer'),
        eq(payments.status, 'pending'),
      ),
    )
    .for('update', { skipLocked: true });
}

export async function insertConfirmation(
  tx: Transaction,
  confirmation: NewBankTransferConfirmation,
): Promise<BankTransferConfirmation> {
  const [inserted] = await tx.insert(bankTransferConfirmations).values(confirmation).returning();
  if (inserted === undefined) throw new Error('Inserting the transfer confirmation returned no row');
  return inserted;
}

/**
 * Stores the bank's reference of the transfer as the payment's provider reference, before its success is applied
 * (its receipt copies it). Unique per provider, so one transfer cannot confirm two payments.
 */
export async function storeBankReference(tx: Transaction, paymentId: string, bankReference: string): Promise<Payment> {
  const [stored] = await tx
    .update(payments)
    .set({ providerReference: bankReference })
    .where(and(eq(payments.id, paymentId), isNull(payments.providerReference)))
    .returning();
  if (stored === undefined) throw new Error(`Bank transfer ${paymentId} already has a bank reference`);
  return stored;
}

/**
 * One bank transfer whose time ran out while pending, locked (`FOR UPDATE SKIP LOCKED`: one another instance, or a
 * confirmation, holds is left to it), with the number of its invoice and how many transfers of another amount were
 * recorded for it.
 */
export async function claimExpiredTransfer(
  tx: Transaction,
  now: Date,
): Promise<{ payment: Payment; invoiceNumber: string | null } | undefined> {
  const [due] = await tx
    .select({ payment: payments, invoiceNumber: invoices.number })
    .from(payments)
    .leftJoin(invoices, eq(invoices.paymentId, payments.id))
    .where(and(eq(payments.status, 'pending'), eq(payments.channel, 'bank_transfer'), lte(payments.nextCheckAt, now)))
    .orderBy(asc(payments.nextCheckAt))
    .limit(1)
    .for('update', { of: payments, skipLocked: true });
  return due;
}

/** What finance recorded about the transfers, oldest first. */
export async function confirmationsOf(db: DatabaseExecutor, paymentIds: string[]): Promise<BankTransferConfirmation[]> {
  if (paymentIds.length === 0) return [];
  return db
    .select()
    .from(bankTransferConfirmations)
    .where(inArray(bankTransferConfirmations.paymentId, paymentIds))
    .orderBy(asc(bankTransferConfirmations.createdAt), asc(bankTransferConfirmations.id));
}

/** A bank transfer as finance sees it: the payment, its organization, its invoice and its receipt. */
export interface TransferRow {
  payment: Payment;
  organizationName: string;
  invoiceNumber: string | null;
  dueAt: Date | null;
  receiptNumber: string | null;
}

export interface TransferListQuery {
  status: PaymentStatus | undefined;
  match: TransferMatch | undefined;
  after: PagePosition | undefined;
  limit: number;
}

/** Bank transfers with their organization's name, invoice and receipt (what finance sees of each), and their position. */
function selectTransferRows(db: DatabaseExecutor) {
  return db
    .select({
      payment: payments,
      organizationName: organizationNameOf(payments.organizationId),
      invoiceNumber: invoices.number,
      dueAt: invoices.dueAt,
      receiptNumber: receipts.number,
      position: cursorTimeOf(payments.createdAt),
    })
    .from(payments)
    .leftJoin(invoices, eq(invoices.paymentId, payments.id))
    .leftJoin(receipts, eq(receipts.paymentId, payments.id));
}

/** Bank transfers of every organization, newest first, with their position for the next page's cursor. */
export function listTransferRows(
  db: DatabaseExecutor,
  query: TransferListQuery,
): Promise<Array<TransferRow & { position: string }>> {
  const conditions: Array<SQL | undefined> = [eq(payments.channel, 'bank_transfer')];
  if (query.status !== undefined) conditions.push(eq(payments.status, query.status));
  if (query.match !== undefined) conditions.push(matching(query.match));
  if (query.after !== undefined) conditions.push(afterPosition(payments, query.after));
  return selectTransferRows(db)
    .where(and(...conditions))
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(query.limit);
}

/** One bank transfer as finance sees it. */
export async function findTransferRow(db: DatabaseExecutor, paymentId: string): Promise<TransferRow | undefined> {
  const [found] = await selectTransferRows(db).where(eq(payments.id, paymentId));
  return found;
}
