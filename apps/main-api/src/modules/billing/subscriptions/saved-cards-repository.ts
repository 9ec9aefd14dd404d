import type { DatabaseExecutor, MailSubscription, PaymentMethod, PaymentProvider } from '@platform/db';
import { paymentMethods } from '@platform/db/schema/payments';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { userEmailOf } from '../../accounts/index.js';

/**
 * The organization's saved cards of `provider` that have not been removed, each with the email of the member
 * who saved it: the subscription's card first, then the most recently used.
 */
export function renewalCardsOf(
  db: DatabaseExecutor,
  subscription: Pick<MailSubscription, 'organizationId' | 'paymentMethodId'>,
  provider: PaymentProvider,
): Promise<{ method: PaymentMethod; creatorEmail: string | null }[]> {
  return db
    .select({ method: paymentMethods, creatorEmail: userEmailOf(paymentMethods.createdByUserId) })
    .from(paymentMethods)
    .where(
      and(
        eq(paymentMethods.organizationId, subscription.organizationId),
        eq(paymentMethods.type, 'card'),
        eq(paymentMethods.provider, provider),
        isNull(paymentMethods.deletedAt),
      ),
    )
    .orderBy(
      desc(sql`${paymentMethods.id} = ${subscription.paymentMethodId ?? '00000000-0000-0000-0000-000000000000'}::uuid`),
      desc(sql`coalesce(${paymentMethods.lastUsedAt}, ${paymentMethods.createdAt})`),
      desc(paymentMethods.id),
    );
}
