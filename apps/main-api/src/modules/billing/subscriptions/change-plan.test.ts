import { randomUUID } from 'node:crypto';
import { memberships } from '@platform/db/schema';
import { beforeAll, describe, expect, it } from 'vitest';
import { type BillingTestApp, PAYER_ID } from '../../../../test/billing-fixtures.js';
import { insertUser, tokenFor } from '../../../../test/helpers.js';
import {
  changeBody,
  previewChange,
  requestChange,
  type Terms,
  useSubscriptionApp,
} from '../../../../test/subscription-app.js';
import {
  changesOf,
  clearBilling,
  creditBalanceOf,
  insertSavedCard,
  insertSubscription,
  subscriptionChargesOf,
  subscriptionOf,
  titlesNotified,
} from '../../../../test/subscription-fixtures.js';

// POST /v1/billing/upgrade (change-plan.ts) through the API, paid with a saved sandbox card (always approved): an
// upgrade charged, a downgrade scheduled and dropped, the answer, a replay, who may, 409 and 400. Declined and
// unconfirmed charges are in change-plan-card-failures.test.ts and change-plan-confirmation.test.ts.

const suite = useSubscriptionApp({ clearIdempotencyRecords: true });
let t: BillingTestApp;
beforeAll(() => {
  t = suite.t;
});

describe('POST /v1/billing/upgrade', () => {
  const core10 = { plan: 'core', seats: 10, cycle: 'monthly', anchor: '2024-01-01' } as const;
  const growth25: Terms = { plan: 'growth', seats: 25, cycle: 'monthly' };

  it('charges an upgrade; the way back waits for the period end, and asking for the current terms cancels it', async () => {
    await insertSubscription(t.db, t.organizationId, core10);
    const cardId = await insertSavedCard(t.db, t.organizationId);
    t.clock.set(new Date('2024-01-17T10:00:00.000Z'));

    expect((await requestChange(t, changeBody(growth25, cardId))).statusCode).toBe(200);
    const [charge] = await subscriptionChargesOf(t.db, t.organizationId);
    expect(charge?.amount).toBeGreaterThan(0);

    const core10Terms: Terms = { plan: 'core', seats: 10, cycle: 'monthly' };
    const back = await requestChange(t, changeBody(core10Terms));
    expect(back.statusCode).toBe(200);
    expect(back.json().message).toBe(
      'Mail subscription change scheduled. From 2024-02-01 the subscription moves to the core plan, 10 mailboxes, ' +
        'billed monthly, at KES 1,000 a period; until then it stays on the growth plan, 25 mailboxes, billed monthly. ' +
        'Nothing is charged or credited now.',
    );
    expect(await subscriptionChargesOf(t.db, t.organizationId)).toHaveLength(1);
    expect(await creditBalanceOf(t.db, t.organizationId)).toBe(0);
    const shown = await t.app.inject({ method: 'GET', url: '/v1/billing/subscription', headers: await t.headers() });
    expect(shown.json().data).toMatchObject({
      plan: 'growth',
      seats: 25,
      scheduledChange: {
        plan: 'core',
        seats: 10,
        billingCycle: 'monthly',
        effectiveAt: '2024-02-01T00:00:00.000Z',
        price: 1_000,
        requestedAt: expect.stringMatching(/^2024-01-17T10:00/),
      },
    });

    // The current terms again: the scheduled change is dropped, nothing else happens.
    const keep = await previewChange(t, growth25);
    expect(keep.json().data).toMatchObject({
      amountDueToday: 0,
      kind: 'change',
      takesEffect: 'now',
      cancelsScheduledChange: true,
      net: 0,
    });
    const kept = await requestChange(t, changeBody(growth25));
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json().message).toContain('Scheduled subscription change canceled');
    expect(await subscriptionOf(t.db, t.organizationId)).toMatchObject({
      plan: 'growth',
      seats: 25,
      scheduledPlan: null,
      scheduledSeats: null,
      scheduledBillingCycle: null,
      scheduledAt: null,
    });
    // Now nothing is scheduled: the current terms are "nothing to change" again.
    expect((await requestChange(t, changeBody(growth25))).statusCode).toBe(400);
    expect(await subscriptionChargesOf(t.db, t.organizationId)).toHaveLength(1);
    expect(await titlesNotified(t.db, PAYER_ID)).toEqual([
      'Mail subscription upgraded',
      'Payment received',
      'Receipt issued',
      'Mail subscription change scheduled',
      'Scheduled subscription change canceled',
    ]);
  });

  it('replaces a scheduled downgrade with another; the same one again changes and records nothing', async () => {
    await insertSubscription(t.db, t.organizationId, {
      plan: 'scale',
      seats: 40,
      cycle: 'monthly',
      anchor: '2024-01-01',
    });
    t.clock.set(new Date('2024-01-17T10:00:00.000Z'));
    const growth40: Terms = { plan: 'growth', seats: 40, cycle: 'monthly' };
    const core40: Terms = { plan: 'core', seats: 40, cycle: 'monthly' };
    expect((await requestChange(t, changeBody(growth40))).statusCode).toBe(200);
    expect((await previewChange(t, core40)).json().data).toMatchObject({
      kind: 'downgrade',
      cancelsScheduledChange: true,
    });
    expect((await requestChange(t, changeBody(core40))).statusCode).toBe(200);
    expect((await previewChange(t, core40)).json().data).toMatchObject({
      kind: 'downgrade',
      cancelsScheduledChange: false,
    });
    const again = await requestChange(t, changeBody(core40));
    expect(again.statusCode).toBe(200);
    expect(await subscriptionOf(t.db, t.organizationId)).toMatchObject({
      plan: 'scale',
      scheduledPlan: 'core',
      scheduledSeats: 40,
    });
    expect(await titlesNotified(t.db, PAYER_ID)).toEqual([
      'Mail subscription change scheduled',
      'Mail subscription change scheduled',
    ]);
  });

  it('drops a scheduled downgrade when an upgrade is made now, charged as it is today', async () => {
    await insertSubscription(t.db, t.organizationId, core10);
    const cardId = await insertSavedCard(t.db, t.organizationId);
    t.clock.set(new Date('2024-01-17T10:00:00.000Z'));
    expect((await requestChange(t, changeBody({ plan: 'core', seats: 5, cycle: 'monthly' }))).statusCode).toBe(200);
    expect((await previewChange(t, growth25)).json().data).toMatchObject({
      kind: 'upgrade',
      takesEffect: 'now',
      cancelsScheduledChange: true,
      amountDueToday: 1331,
    });
    expect((await requestChange(t, changeBody(growth25, cardId))).statusCode).toBe(200);
    expect(await subscriptionOf(t.db, t.organizationId)).toMatchObject({
      plan: 'growth',
      seats: 25,
      scheduledPlan: null,
    });
    expect((await subscriptionChargesOf(t.db, t.organizationId)).map((charge) => charge.amount)).toEqual([1331]);
  });

  it('answers with the message only, naming what was charged', async () => {
    await insertSubscription(t.db, t.organizationId, core10);
    const cardId = await insertSavedCard(t.db, t.organizationId);
    t.clock.set(new Date('2024-01-17T10:00:00.000Z'));
    const response = await requestChange(t, changeBody(growth25, cardId));
    const [charge] = await subscriptionChargesOf(t.db, t.organizationId);
    expect(response.json()).toEqual({
      success: true,
      message: `Mail subscription upgraded. Now on the growth plan, 25 mailboxes, billed monthly, until 2024-02-01. KES 1,331 charged to the card (${charge?.reference}).`,
    });
    expect((await subscriptionOf(t.db, t.organizationId)).paymentMethodId).toBe(cardId);
  });

  it('moves monthly to yearly at once, and schedules the way back for the end of the year', async () => {
    const growth25Monthly = { plan: 'growth', seats: 25, cycle: 'monthly', anchor: '2024-01-01' } as const;
    await insertSubscription(t.db, t.organizationId, growth25Monthly);
    const cardId = await insertSavedCard(t.db, t.organizationId);
    const yearly: Terms = { plan: 'growth', seats: 25, cycle: 'yearly' };
    const monthly: Terms = { plan: 'growth', seats: 25, cycle: 'monthly' };

    // 17 Jan, period 1 Jan..1 Feb: D 31, r 15. growth 25 = 25 x 150 = 3,750 a month, 37,500 a year.
    // To yearly: a year from today, 37,500, less the unused 15/31 of January, 3,750 x 15 / 31 = 1,814.52 -> 1,815.
    t.clock.set(new Date('2024-01-17T09:00:00.000Z'));
    const toYearly = (await previewChange(t, yearly)).json().data;
    expect(toYearly).toMatchObject({
      amountDueToday: 35_685,
      net: 35_685,
      takesEffect: 'now',
      newPeriod: { start: '2024-01-17', end: '2025-01-17' },
    });
    expect((await requestChange(t, changeBody(yearly, cardId))).statusCode).toBe(200);
    expect((await subscriptionChargesOf(t.db, t.organizationId)).map((charge) => charge.amount)).toEqual([35_685]);

    // Back the same day: a month from today, 3,750, less the whole unused year, 37,500, is priced lower: it waits for
    // the end of the year, and the first monthly period starts then.
    t.clock.set(new Date('2024-01-17T16:00:00.000Z'));
    const back = (await previewChange(t, monthly)).json().data;
    expect(back).toMatchObject({
      amountDueToday: 0,
      kind: 'downgrade',
      takesEffect: 'period_end',
      net: 0,
      creditAdded: 0,
      daysInPeriod: 366,
      daysRemaining: 366,
      cycleChanged: true,
      newPeriod: { start: '2025-01-17', end: '2025-02-17' },
      newPrice: 3_750,
    });
    const response = await requestChange(t, changeBody(monthly));
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toContain('From 2025-01-17 the subscription moves to the growth plan');

    expect((await subscriptionChargesOf(t.db, t.organizationId)).map((charge) => charge.amount)).toEqual([35_685]);
    expect(await creditBalanceOf(t.db, t.organizationId)).toBe(0);
    expect(await subscriptionOf(t.db, t.organizationId)).toMatchObject({
      plan: 'growth',
      seats: 25,
      billingCycle: 'yearly',
      status: 'active',
      billingAnchor: '2024-01-17',
      currentPeriodEnd: new Date('2025-01-17T00:00:00.000Z'),
      scheduledBillingCycle: 'monthly',
    });
    expect(
      (await changesOf(t.db, t.organizationId)).map((change) => [change.status, change.net, change.amountDue]),
    ).toEqual([['applied', 35_685, 35_685]]);
  });

  it('replays a retried upgrade with the same Idempotency-Key without charging again', async () => {
    await insertSubscription(t.db, t.organizationId, core10);
    const cardId = await insertSavedCard(t.db, t.organizationId);
    t.clock.set(new Date('2024-01-17T10:00:00.000Z'));
    const key = { 'idempotency-key': 'upgrade-growth-25' };
    const first = await requestChange(t, changeBody(growth25, cardId), key);
    const second = await requestChange(t, changeBody(growth25, cardId), key);
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toBe(first.body);
    expect(await subscriptionChargesOf(t.db, t.organizationId)).toHaveLength(1);
    const reused = await requestChange(t, changeBody({ ...growth25, seats: 30 }, cardId), key);
    expect(reused.statusCode).toBe(422);
  });

  it.each(['billing', 'admin'] as const)(
    'lets a %s of the organization, not only its owner, upgrade and charge its saved card',
    async (role) => {
      const userId = `user_${role}_${randomUUID().slice(0, 8)}`;
      await insertUser(t.db, { id: userId });
      await t.db.insert(memberships).values({ organizationId: t.organizationId, userId, role });
      await insertSubscription(t.db, t.organizationId, core10);
      const cardId = await insertSavedCard(t.db, t.organizationId);
      t.clock.set(new Date('2024-01-17T10:00:00.000Z'));

      const response = await t.app.inject({
        method: 'POST',
        url: '/v1/billing/upgrade',
        headers: {
          authorization: `Bearer ${await tokenFor(userId, { now: t.clock.now() })}`,
          'x-organization-id': t.organizationId,
        },
        payload: changeBody(growth25, cardId),
      });
      expect(response.statusCode, response.body).toBe(200);
      const charges = await subscriptionChargesOf(t.db, t.organizationId);
      expect(charges.map((charge) => [charge.amount, charge.userId, charge.status])).toEqual([
        [1331, userId, 'succeeded'],
      ]);
    },
  );

  it.each(['developer', 'member'] as const)(
    'refuses a %s the upgrade with 403 naming the roles that may, and charges nothing',
    async (role) => {
      const userId = `user_${role}_${randomUUID().slice(0, 8)}`;
      await insertUser(t.db, { id: userId });
      await t.db.insert(memberships).values({ organizationId: t.organizationId, userId, role });
      await insertSubscription(t.db, t.organizationId, core10);
      const cardId = await insertSavedCard(t.db, t.organizationId);
      t.clock.set(new Date('2024-01-17T10:00:00.000Z'));
      const headers = {
        authorization: `Bearer ${await tokenFor(userId, { now: t.clock.now() })}`,
        'x-organization-id': t.organizationId,
      };

      const response = await t.app.inject({
        method: 'POST',
        url: '/v1/billing/upgrade',
        headers,
        payload: changeBody(growth25, cardId),
      });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({
        code: 'forbidden',
        error: 'This needs the role owner, admin or billing',
      });
      expect(await subscriptionChargesOf(t.db, t.organizationId)).toEqual([]);
      // Reading what an upgrade would cost stays open to every member.
      const preview = await t.app.inject({
        method: 'GET',
        url: '/v1/billing/upgrade/preview?newPlan=growth&newSeats=25&newCycle=monthly',
        headers,
      });
      expect(preview.statusCode, preview.body).toBe(200);
    },
  );

  it('answers 409 without an active subscription, for the preview and the upgrade', async () => {
    t.clock.set(new Date('2024-01-17T10:00:00.000Z'));
    expect((await previewChange(t, growth25)).statusCode).toBe(409);
    expect((await requestChange(t, changeBody(growth25))).json()).toMatchObject({ success: false, code: 'conflict' });

    await insertSubscription(t.db, t.organizationId, { ...core10, status: 'past_due' });
    expect((await previewChange(t, growth25)).statusCode).toBe(409);
    expect((await requestChange(t, changeBody(growth25))).statusCode).toBe(409);
    await clearBilling(t.db);

    // Active, but its period is over and it is waiting for the renewal job.
    await insertSubscription(t.db, t.organizationId, core10);
    t.clock.set(new Date('2024-02-01T00:00:01.000Z'));
    expect((await previewChange(t, growth25)).json()).toMatchObject({
      code: 'conflict',
      error: expect.stringContaining('renewed'),
    });
    expect(await changesOf(t.db, t.organizationId)).toEqual([]);
  });

  it('answers 400 when nothing would change', async () => {
    await insertSubscription(t.db, t.organizationId, core10);
    t.clock.set(new Date('2024-01-17T10:00:00.000Z'));
    const same = { plan: 'core', seats: 10, cycle: 'monthly' } as const;
    expect((await previewChange(t, same)).json()).toMatchObject({
      code: 'validation_error',
      error: expect.stringContaining('Nothing would change'),
    });
    expect((await requestChange(t, changeBody(same))).statusCode).toBe(400);
    expect(await changesOf(t.db, t.organizationId)).toEqual([]);
  });
});
