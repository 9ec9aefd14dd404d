import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { BILLING, DEVELOPER, MEMBER, PLATFORM, useAuditApp } from '../../../test/audit-fixtures.js';
import { PAYER_ID } from '../../../test/billing-fixtures.js';
import { insertSavedCard, insertSubscription } from '../../../test/subscription-fixtures.js';

// What the audit log records of subscription changes and renewals.

const setup = useAuditApp();
const { send, recordedBy, madeBy } = setup;

describe('subscriptions', () => {
  let subscriptionId: string;
  let cardId: string;

  beforeAll(async () => {
    cardId = await insertSavedCard(setup.t.db, setup.t.organizationId);
    const today = setup.t.clock.now().toISOString().slice(0, 10);
    const subscription = await insertSubscription(setup.t.db, setup.t.organizationId, {
      plan: 'core',
      seats: 10,
      cycle: 'monthly',
      anchor: today,
      paymentMethodId: cardId,
    });
    subscriptionId = subscription.id;
  });

  const terms = (plan: string, seats: number, billingCycle: string) => ({ plan, seats, billingCycle });

  it('records an upgrade paid by card: its payment by the member, the change once the payment settles', async () => {
    let upgraded!: Awaited<ReturnType<typeof send>>;
    const events = await recordedBy(async () => {
      upgraded = await send(
        BILLING,
        'POST',
        '/v1/billing/upgrade',
        { newPlan: 'growth', newSeats: 25, newCycle: 'monthly', paymentMethodId: cardId },
        { 'idempotency-key': randomUUID() },
      );
      expect(upgraded.statusCode, upgraded.body).toBe(200);
    });
    const started = events.find((event) => event.action === 'payment.started');
    expect(started).toMatchObject({
      ...madeBy(BILLING, upgraded),
      targetType: 'payment',
      details: { purpose: 'mail_subscription_change', method: 'saved_method', plan: 'growth', seats: 25 },
    });
    expect(events.map((event) => event.action).sort()).toEqual([
      'payment.started',
      'payment.succeeded',
      'subscription.changed',
    ]);
    expect(events.find((event) => event.action === 'payment.succeeded')).toMatchObject({
      ...PLATFORM,
      targetId: started?.targetId,
      details: { from: 'pending', to: 'succeeded', purpose: 'mail_subscription_change' },
    });
    expect(events.find((event) => event.action === 'subscription.changed')).toMatchObject({
      ...PLATFORM,
      targetType: 'subscription',
      targetId: subscriptionId,
      details: {
        kind: 'upgrade',
        before: terms('core', 10, 'monthly'),
        after: terms('growth', 25, 'monthly'),
        paymentReference: started?.targetId,
        requestedByUserId: BILLING,
      },
    });
  });

  it('records a downgrade scheduled for the period end as the member who asked, and nothing for a refused one', async () => {
    let downgraded!: Awaited<ReturnType<typeof send>>;
    const events = await recordedBy(async () => {
      const unknownCard = { newPlan: 'scale', newSeats: 100, newCycle: 'monthly', paymentMethodId: randomUUID() };
      expect((await send(BILLING, 'POST', '/v1/billing/upgrade', unknownCard)).statusCode).toBe(404);
      const refused = { newPlan: 'core', newSeats: 5, newCycle: 'monthly' };
      expect((await send(DEVELOPER, 'POST', '/v1/billing/upgrade', refused)).statusCode).toBe(403);
      downgraded = await send(PAYER_ID, 'POST', '/v1/billing/upgrade', {
        newPlan: 'core',
        newSeats: 5,
        newCycle: 'monthly',
      });
      expect(downgraded.statusCode, downgraded.body).toBe(200);
    });
    expect(events).toEqual([
      expect.objectContaining({
        ...madeBy(PAYER_ID, downgraded),
        action: 'subscription.change_scheduled',
        targetId: subscriptionId,
        details: expect.objectContaining({
          before: terms('growth', 25, 'monthly'),
          after: terms('core', 5, 'monthly'),
          price: 500,
          replaced: null,
        }),
      }),
    ]);
  });

  it('records a cancel and a resume as the member who asked, and nothing for a refused or repeated one', async () => {
    let canceled!: Awaited<ReturnType<typeof send>>;
    let resumed!: Awaited<ReturnType<typeof send>>;
    const events = await recordedBy(async () => {
      expect((await send(MEMBER, 'POST', '/v1/billing/subscription/cancel')).statusCode).toBe(403);
      expect((await send(BILLING, 'POST', '/v1/billing/subscription/resume')).statusCode).toBe(409);
      canceled = await send(BILLING, 'POST', '/v1/billing/subscription/cancel');
      expect(canceled.statusCode, canceled.body).toBe(200);
      expect((await send(PAYER_ID, 'POST', '/v1/billing/subscription/cancel')).statusCode).toBe(200);
      resumed = await send(PAYER_ID, 'POST', '/v1/billing/subscription/resume');
      expect(resumed.statusCode, resumed.body).toBe(200);
    });
    expect(events).toHaveLength(2);
    expect(events).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          ...madeBy(BILLING, canceled),
          action: 'subscription.cancel_requested',
          targetType: 'subscription',
          targetId: subscriptionId,
          details: expect.objectContaining({ status: 'active' }),
        }),
        expect.objectContaining({
          ...madeBy(PAYER_ID, resumed),
          action: 'subscription.resumed',
          targetId: subscriptionId,
        }),
      ]),
    );
  });

  it("records a renewal as the platform's", async () => {
    setup.t.clock.advance(32 * 24 * 60 * 60 * 1000);
    const events = await recordedBy(async () => {
      await setup.t.renew();
    });
    const actions = events.map((event) => event.action).sort();
    expect(actions).toContain('subscription.renewed');
    for (const event of events) expect(event).toMatchObject(PLATFORM);
    expect(events.find((event) => event.action === 'subscription.renewed')).toMatchObject({
      targetId: subscriptionId,
      // The downgrade scheduled above is what the renewal applies.
      details: { kind: 'renewal', before: terms('growth', 25, 'monthly'), after: terms('core', 5, 'monthly') },
    });
  });
});
