import type { DatabaseExecutor } from '@platform/db';
import { mailSubscriptions } from '@platform/db/schema';
import { and, eq, gt } from 'drizzle-orm';

/** Whether the organization has a mail subscription that is active and inside its period at `now`. */
export async function hasActiveSubscription(db: DatabaseExecutor, organizationId: string, now: Date): Promise<boolean> {
  const [active] = await db
    .select({ id: mailSubscriptions.id })
    .from(mailSubscriptions)
    .where(
      and(
        eq(mailSubscriptions.organizationId, organizationId),
        eq(mailSubscriptions.status, 'active'),
        gt(mailSubscriptions.currentPeriodEnd, now),
      ),
    );
  return active !== undefined;
}
