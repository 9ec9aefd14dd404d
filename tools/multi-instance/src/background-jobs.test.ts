import { randomUUID } from 'node:crypto';
import type { Database } from '@platform/db';
import { mailSubscriptions, organizations, payments, webhookEvents } from '@platform/db/schema';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, quietPeriod } from '#test-timing';
import { type CallbackReceiver, startCallbackReceiver } from './callback-receiver.js';
import { insertMonthlySubscription, insertSandboxCard } from './fixtures.js';
import { fleetServersMissing, useFleet } from './fleet-setup.js';

describe.skipIf(fleetServersMissing)(
  'background jobs run by two instances of each service (needs real PostgreSQL and Redis: set DATABASE_URL and REDIS_URL)',
  () => {
    const setup = useFleet();
    const { organizationWithKey, backendPost } = setup;
    let db: Database;
    let receiver: CallbackReceiver;
    beforeAll(async () => {
      db = setup.db;
      receiver = await startCallbackReceiver();
    });
    afterAll(async () => {
      await receiver?.close();
    });

    it('delivers each callback once while both instances’ delivery workers poll the outbox', async () => {
      const { organizationId, secret } = await organizationWithKey();
      const count = 24;
      const created = await Promise.all(
        Array.from({ length: count }, (_, index) =>
          backendPost(
            (index % 2) as 0 | 1,
            secret,
            '/v1/verify/sessions',
            { type: 'kyc', externalEndUserId: `callback-${index}`, callbackUrl: `${receiver.url}/hooks` },
            randomUUID(),
          ),
        ),
      );
      expect(created.map((response) => response.statusCode)).toEqual(Array(count).fill(201));
      const events = await db
        .select({ id: webhookEvents.id })
        .from(webhookEvents)
        .where(eq(webhookEvents.organizationId, organizationId));
      expect(events).toHaveLength(count);
      const ids = events.map((event) => event.id);

      await eventually(async () => ids.every((id) => receiver.deliveries.has(id)));
      // Give a second (wrong) delivery time to arrive before counting.
      await quietPeriod(300);
      expect(ids.map((id) => receiver.deliveries.get(id))).toEqual(Array(count).fill(1));
      const statuses = await db
        .select({ status: webhookEvents.status })
        .from(webhookEvents)
        .where(inArray(webhookEvents.id, ids));
      expect(statuses.every((event) => event.status === 'delivered')).toBe(true);
    });

    it('charges each due mail subscription renewal once while both main instances run the renewal job', async () => {
      const count = 8;
      const subscriptionIds: string[] = [];
      for (let index = 0; index < count; index += 1) subscriptionIds.push(await dueSubscriptionWithCard(db));

      await eventually(async () => {
        const renewed = await db
          .select({ periodIndex: mailSubscriptions.periodIndex })
          .from(mailSubscriptions)
          .where(inArray(mailSubscriptions.id, subscriptionIds));
        return renewed.every((subscription) => subscription.periodIndex === 1);
      });
      // Both jobs keep polling every 50 ms: nothing more may be charged.
      await quietPeriod(300);

      const organizationIds = (
        await db
          .select({ id: mailSubscriptions.organizationId })
          .from(mailSubscriptions)
          .where(inArray(mailSubscriptions.id, subscriptionIds))
      ).map((row) => row.id);
      const charges = await db
        .select({ organizationId: payments.organizationId, status: payments.status })
        .from(payments)
        .where(
          and(inArray(payments.organizationId, organizationIds), eq(payments.purpose, 'mail_subscription_renewal')),
        );
      expect(charges).toHaveLength(count);
      expect(new Set(charges.map((charge) => charge.organizationId)).size).toBe(count);
      expect(charges.every((charge) => charge.status === 'succeeded')).toBe(true);
    });
  },
);

/** An organization whose core subscription's first monthly period has ended, with a saved sandbox card. */
async function dueSubscriptionWithCard(db: Database): Promise<string> {
  const [organization] = await db
    .insert(organizations)
    .values({ name: `Renewing ${randomUUID().slice(0, 8)}`, activatedAt: new Date() })
    .returning();
  const organizationId = organization!.id;
  return insertMonthlySubscription(db, organizationId, await insertSandboxCard(db, organizationId), 40);
}
