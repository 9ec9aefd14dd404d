import { randomUUID } from 'node:crypto';
import type { Database } from '@platform/db';
import { mailSubscriptions, paymentMethods } from '@platform/db/schema';

const DAY = 24 * 60 * 60 * 1000;

/** A card saved with the sandbox provider, which charges it at once. Returns its id. */
export async function insertSandboxCard(db: Database, organizationId: string): Promise<string> {
  const [card] = await db
    .insert(paymentMethods)
    .values({
      organizationId,
      type: 'card',
      provider: 'sandbox',
      fingerprint: `SIG_${randomUUID()}`,
      authorizationCode: `AUTH_${randomUUID().slice(0, 8)}`,
      customerEmail: 'billing@example.com',
      brand: 'visa',
      last4: '4081',
      expMonth: 12,
      expYear: 2040,
    })
    .returning({ id: paymentMethods.id });
  return card!.id;
}

/**
 * An active monthly core subscription (5 seats) paid by `cardId`, whose first period started about
 * `startedDaysAgo` days ago: 10 puts today inside the period, 40 makes its renewal due. Returns its id.
 */
export async function insertMonthlySubscription(
  db: Database,
  organizationId: string,
  cardId: string,
  startedDaysAgo: number,
): Promise<string> {
  // Anchored on a day every month has, so the period is exactly one calendar month of whole UTC days.
  const start = new Date(Date.now() - startedDaysAgo * DAY);
  const anchor = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), Math.min(start.getUTCDate(), 28)));
  const end = new Date(Date.UTC(anchor.getUTCFullYear(), anchor.getUTCMonth() + 1, anchor.getUTCDate()));
  const [subscription] = await db
    .insert(mailSubscriptions)
    .values({
      organizationId,
      plan: 'core',
      seats: 5,
      billingCycle: 'monthly',
      status: 'active',
      billingAnchor: anchor.toISOString().slice(0, 10),
      currentPeriodStart: anchor,
      currentPeriodEnd: end,
      renewalDueAt: end,
      paymentMethodId: cardId,
    })
    .returning({ id: mailSubscriptions.id });
  return subscription!.id;
}
