import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '#test-timing';
import { type BillingTestApp, startBillingApp } from '../../../../test/billing-fixtures.js';
import { insertSavedCard, insertSubscription, subscriptionOf } from '../../../../test/subscription-fixtures.js';

// The app runs the renewal job (renew.ts) on its own every RENEWAL_INTERVAL_MS once ready, and stops it on close.

let t: BillingTestApp;

beforeAll(async () => {
  t = await startBillingApp({ env: { RENEWAL_INTERVAL_MS: '50' } });
});
afterAll(async () => {
  await t?.close();
});

describe('the renewal job started by the app', () => {
  it('renews a due subscription without being asked', async () => {
    const card = await insertSavedCard(t.db, t.organizationId);
    await insertSubscription(t.db, t.organizationId, {
      plan: 'core',
      seats: 3,
      cycle: 'monthly',
      anchor: '2024-01-31',
      paymentMethodId: card,
    });
    t.clock.set(new Date('2024-02-29T00:10:00.000Z'));
    await eventually(async () => (await subscriptionOf(t.db, t.organizationId)).periodIndex === 1);
    expect(await subscriptionOf(t.db, t.organizationId)).toMatchObject({
      status: 'active',
      currentPeriodEnd: new Date('2024-03-31T00:00:00.000Z'),
    });
  });
});
