import { type DatabaseHandle, queryRows } from '@platform/db';
import { mailSubscriptions, organizations } from '@platform/db/schema';
import { createTestDatabase } from '@platform/db/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptionPlanOf } from './repository.js';

const SUBSCRIBED = '7c3a9e5d-4f6b-4c8d-8e1f-2a3b4c5d6e01';
const LAPSED = '7c3a9e5d-4f6b-4c8d-8e1f-2a3b4c5d6e02';
const NONE = '7c3a9e5d-4f6b-4c8d-8e1f-2a3b4c5d6e03';

describe('the plan a drive quota reads', () => {
  let handle: DatabaseHandle;

  beforeAll(async () => {
    handle = await createTestDatabase();
    await handle.db.insert(organizations).values([
      { id: SUBSCRIBED, name: 'Subscribed' },
      { id: LAPSED, name: 'Lapsed' },
      { id: NONE, name: 'None' },
    ]);
    const period = {
      seats: 3,
      billingCycle: 'monthly' as const,
      currentPeriodStart: new Date('2026-03-01T00:00:00.000Z'),
      currentPeriodEnd: new Date('2026-04-01T00:00:00.000Z'),
    };
    await handle.db.insert(mailSubscriptions).values([
      { organizationId: SUBSCRIBED, plan: 'growth', status: 'past_due', ...period },
      { organizationId: LAPSED, plan: 'scale', status: 'expired', ...period },
    ]);
  });
  afterAll(async () => {
    await handle.close();
  });

  const planOf = async (organizationId: string) => {
    const [row] = await queryRows(
      handle.db,
      sql`select ${subscriptionPlanOf(organizationId, ['active', 'past_due'])} as plan`,
    );
    return row?.['plan'];
  };

  it("is the subscription's plan while its status is one asked for, inside another statement", async () => {
    expect(await planOf(SUBSCRIBED)).toBe('growth');
  });

  it('is null for a subscription in another status, and for an organization without one', async () => {
    expect(await planOf(LAPSED)).toBeNull();
    expect(await planOf(NONE)).toBeNull();
  });
});
