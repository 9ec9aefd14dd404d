import {
  type DatabaseExecutor,
  isUuid,
  type PaymentMethod,
  type PaymentProvider,
  type Transaction,
} from '@platform/db';
import { paymentMethods } from '@platform/db/schema/payments';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { ReusableCard } from './reusable-card.js';

interface SavedBy {
  organizationId: string;
  userId: string | null;
  provider: PaymentProvider;
  now: Date;
}

/**
 * Saves a card from a reusable authorization; saving the same card again (same provider signature) refreshes
 * the stored authorization instead of adding a second entry. Returns the method's id.
 */
export async function saveCard(tx: Transaction, card: ReusableCard, by: SavedBy): Promise<string> {
  const details = {
    provider: by.provider,
    authorizationCode: card.authorizationCode,
    customerEmail: card.customerEmail,
    brand: card.brand,
    last4: card.last4,
    expMonth: card.expMonth,
    expYear: card.expYear,
    bank: card.bank,
    updatedAt: by.now,
    lastUsedAt: by.now,
  };
  const identity = { organizationId: by.organizationId, type: 'card' as const, fingerprint: card.signature };
  return upsert(tx, { ...identity, createdByUserId: by.userId, ...details }, details);
}

/** Saves the M-Pesa number of a successful payment (once per organization and number). Returns the method's id. */
export async function saveMobileMoneyNumber(tx: Transaction, phone: string, by: SavedBy): Promise<string> {
  const details = { provider: by.provider, updatedAt: by.now, lastUsedAt: by.now };
  const identity = { organizationId: by.organizationId, type: 'mobile_money' as const, fingerprint: phone };
  return upsert(tx, { ...identity, phone, createdByUserId: by.userId, ...details }, details);
}

async function upsert(
  tx: Transaction,
  values: typeof paymentMethods.$inferInsert,
  refresh: Partial<typeof paymentMethods.$inferInsert>,
): Promise<string> {
  const [row] = await tx
    .insert(paymentMethods)
    .values(values)
    .onConflictDoUpdate({
      target: [paymentMethods.organizationId, paymentMethods.type, paymentMethods.fingerprint],
      targetWhere: sql`${paymentMethods.deletedAt} is null`,
      set: refresh,
    })
    .returning({ id: paymentMethods.id });
  if (row === undefined) throw new Error('Saving the payment method returned no row');
  return row.id;
}

/** One of the organization's methods that has not been removed, or undefined (also for ids that are not UUIDs). */
export async function findActivePaymentMethod(
  db: DatabaseExecutor,
  organizationId: string,
  id: string,
): Promise<PaymentMethod | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db
    .select()
    .from(paymentMethods)
    .where(
      and(
        eq(paymentMethods.id, id),
        eq(paymentMethods.organizationId, organizationId),
        isNull(paymentMethods.deletedAt),
      ),
    );
  return row;
}

/** The organization's methods that have not been removed, newest first. */
export function listActivePaymentMethods(db: DatabaseExecutor, organizationId: string): Promise<PaymentMethod[]> {
  return db
    .select()
    .from(paymentMethods)
    .where(and(eq(paymentMethods.organizationId, organizationId), isNull(paymentMethods.deletedAt)))
    .orderBy(desc(paymentMethods.createdAt), desc(paymentMethods.id));
}

/**
 * Removes one of the organization's methods: the method when this call removed it, `already_removed` for one
 * removed before (its first removal time stays), `not_found` when the organization has no method with that id.
 */
export async function markPaymentMethodRemoved(
  db: DatabaseExecutor,
  organizationId: string,
  id: string,
  now: Date,
): Promise<PaymentMethod | 'already_removed' | 'not_found'> {
  if (!isUuid(id)) return 'not_found';
  const ofOrganization = and(eq(paymentMethods.id, id), eq(paymentMethods.organizationId, organizationId));
  const [removed] = await db
    .update(paymentMethods)
    .set({ deletedAt: now, updatedAt: now })
    .where(and(ofOrganization, isNull(paymentMethods.deletedAt)))
    .returning();
  if (removed !== undefined) return removed;
  const [existing] = await db.select({ id: paymentMethods.id }).from(paymentMethods).where(ofOrganization);
  return existing === undefined ? 'not_found' : 'already_removed';
}
