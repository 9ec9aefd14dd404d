import type { Database, MailPlan, MailSubscriptionStatus } from '@platform/db';
import { driveFolders, mailSubscriptions } from '@platform/db/schema';
import { eq } from 'drizzle-orm';

/** Gives the organization a mail subscription (or changes its plan and status). */
export async function setMailPlan(
  db: Database,
  organizationId: string,
  plan: MailPlan,
  status: MailSubscriptionStatus = 'active',
): Promise<void> {
  const values = {
    organizationId,
    plan,
    seats: 5,
    billingCycle: 'monthly' as const,
    status,
    currentPeriodStart: new Date('2026-03-01T00:00:00.000Z'),
    currentPeriodEnd: new Date('2026-04-01T00:00:00.000Z'),
  };
  await db
    .insert(mailSubscriptions)
    .values(values)
    .onConflictDoUpdate({ target: mailSubscriptions.organizationId, set: { plan, status } });
}

/** Inserts `count` top-level folders straight into the database (to reach a quota quickly), all created at `createdAt`. */
export async function insertFolders(
  db: Database,
  organizationId: string,
  environment: 'live' | 'test',
  count: number,
  createdAt = new Date('2026-03-01T12:00:00.000Z'),
): Promise<void> {
  const batch = 1_000;
  for (let offset = 0; offset < count; offset += batch) {
    const size = Math.min(batch, count - offset);
    await db.insert(driveFolders).values(
      Array.from({ length: size }, (_, index) => ({
        organizationId,
        environment,
        name: `Bulk ${offset + index}`,
        createdAt,
      })),
    );
  }
}

export function countFolders(db: Database, organizationId?: string): Promise<number> {
  return db.$count(
    driveFolders,
    organizationId === undefined ? undefined : eq(driveFolders.organizationId, organizationId),
  );
}
