import { randomUUID } from 'node:crypto';
import { auditEvents } from '@platform/db/schema';
import { quote } from '@platform/pricing';
import { and, asc, eq, like } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type BillingTestApp, CONFIRMATION_DELAY_MS, PAYER_ID } from '../../../../test/billing-fixtures.js';
import type { FakePaystack } from '../../../../test/fake-paystack.js';
import { tokenFor } from '../../../../test/helpers.js';
import { useSubscriptionApp } from '../../../../test/subscription-app.js';
import {
  changesOf,
  creditBalanceOf,
  insertSavedCard,
  insertSubscription,
  subscriptionChargesOf,
  subscriptionOf,
  titlesNotified,
} from '../../../../test/subscription-fixtures.js';
import { NO_SUBSCRIPTION, NOT_SET_TO_CANCEL, SUBSCRIPTION_ENDED } from './cancel.js';

// POST /v1/billing/subscription/cancel and /resume (cancel.ts, docs/decisions.md#subscription-cancellation): the flag, what
// GET shows, the renewal job ending a canceled subscription without charging, and a cancel that arrives while a
// renewal is being charged. Races on PostgreSQL are in concurrency.test.ts.

const COLLEAGUE_ID = 'user_cancel_colleague';
const MEMBER_ID = 'user_cancel_member';
const suite = useSubscriptionApp({
  paystack: { approved: ['AUTH_good'], pending: ['AUTH_pending'] },
  members: [
    [COLLEAGUE_ID, 'billing'],
    [MEMBER_ID, 'member'],
  ],
  clearIdempotencyRecords: true,
});
let t: BillingTestApp;
let paystack: FakePaystack;
beforeAll(() => {
  ({ t, paystack } = suite);
});
beforeEach(() => {
  t.clock.set(new Date('2024-02-10T09:00:00.000Z'));
});

// Bought on 31 January: the period ends on 29 February.
const growth20 = { plan: 'growth', seats: 20, cycle: 'monthly', anchor: '2024-01-31' } as const;
const PERIOD_END = '2024-02-29T00:00:00.000Z';
const price = quote({ plan: 'growth', seats: 20, cycle: 'monthly' }).total;

async function send(action: 'cancel' | 'resume', headers: Record<string, string> = {}, userId = PAYER_ID) {
  return t.app.inject({
    method: 'POST',
    url: `/v1/billing/subscription/${action}`,
    headers: {
      authorization: `Bearer ${await tokenFor(userId, { now: t.clock.now(), expiresIn: 3600 })}`,
      'x-organization-id': t.organizationId,
      ...headers,
    },
  });
}

async function shown() {
  const response = await t.app.inject({ method: 'GET', url: '/v1/billing/subscription', headers: await t.headers() });
  return response.json().data;
}

/** The audit log's events about this test's subscription (the log is append-only: earlier tests' stay). */
async function lifecycleEvents() {
  const { id } = await subscriptionOf(t.db, t.organizationId);
  return t.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.targetId, id), like(auditEvents.action, 'subscription.%')))
    .orderBy(asc(auditEvents.createdAt));
}

async function subscriptionWithCard(authorizationCode = 'AUTH_good') {
  const card = await insertSavedCard(t.db, t.organizationId, { provider: 'paystack', authorizationCode });
  return insertSubscription(t.db, t.organizationId, { ...growth20, paymentMethodId: card });
}

describe('POST /v1/billing/subscription/cancel', () => {
  it('sets it to end at the period end and answers the subscription as GET shows it', async () => {
    await subscriptionWithCard();
    const response = await send('cancel');
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toEqual({
      success: true,
      message:
        'Mail subscription set to cancel. The growth plan, 20 mailboxes, billed monthly stays active until 2024-02-29 ' +
        'and then ends; it will not be charged again. Nothing is refunded. Resume it before then to keep it.',
      data: expect.objectContaining({
        status: 'active',
        cancelAtPeriodEnd: true,
        canceledAt: expect.stringMatching(/^2024-02-10T09:00/),
        endedAt: null,
        renewsAt: null,
        currentPeriodEnd: PERIOD_END,
      }),
    });
    expect(await shown()).toEqual(body.data);
    expect(await titlesNotified(t.db, COLLEAGUE_ID)).toEqual(['Mail subscription set to cancel']);
    expect(await titlesNotified(t.db, MEMBER_ID)).toEqual(['Mail subscription set to cancel']);
    expect(await lifecycleEvents()).toMatchObject([
      {
        action: 'subscription.cancel_requested',
        actorUserId: PAYER_ID,
        requestId: expect.any(String),
        details: { status: 'active', endsAt: PERIOD_END },
      },
    ]);
  });

  it('changes nothing when asked again, and replays an answer for the same Idempotency-Key', async () => {
    await subscriptionWithCard();
    const key = { 'idempotency-key': randomUUID() };
    const first = await send('cancel', key);
    const replayed = await send('cancel', key);
    expect(replayed.statusCode).toBe(200);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.body).toBe(first.body);
    t.clock.advance(60_000);
    const again = await send('cancel');
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toEqual(first.json().data);
    expect(await titlesNotified(t.db, COLLEAGUE_ID)).toEqual(['Mail subscription set to cancel']);
    expect((await lifecycleEvents()).map((event) => event.action)).toEqual(['subscription.cancel_requested']);
  });

  it('is ended by the renewal job at the period end as canceled, charging nothing', async () => {
    await subscriptionWithCard();
    expect((await send('cancel')).statusCode).toBe(200);
    const chargesBefore = paystack.charges().length;

    // Access is kept until then: still active a minute before, and no reminder of a renewal that will not happen.
    t.clock.set(new Date('2024-02-28T23:59:00.000Z'));
    expect(await t.renew()).toMatchObject({ reminded: 0, renewed: 0, canceled: 0 });
    expect((await subscriptionOf(t.db, t.organizationId)).status).toBe('active');

    t.clock.set(new Date('2024-02-29T00:01:00.000Z'));
    expect(await t.renew()).toMatchObject({ renewed: 0, canceled: 1, failed: 0 });
    expect(paystack.charges()).toHaveLength(chargesBefore);
    expect(await subscriptionChargesOf(t.db, t.organizationId)).toEqual([]);
    expect(await changesOf(t.db, t.organizationId)).toEqual([]);
    expect(await shown()).toMatchObject({
      status: 'canceled',
      cancelAtPeriodEnd: false,
      canceledAt: expect.stringMatching(/^2024-02-10T09:00/),
      endedAt: expect.stringMatching(/^2024-02-29T00:01/),
      renewsAt: null,
      currentPeriodEnd: PERIOD_END,
    });
    expect(await titlesNotified(t.db, COLLEAGUE_ID)).toEqual([
      'Mail subscription set to cancel',
      'Mail subscription ended',
    ]);
    expect((await lifecycleEvents()).at(-1)).toMatchObject({
      action: 'subscription.canceled',
      actorUserId: null,
      details: { from: 'active', to: 'canceled', reason: 'canceled_at_period_end' },
    });

    // Later rounds leave it alone; it can be neither canceled nor resumed any more.
    t.clock.set(new Date('2024-04-01T00:00:00.000Z'));
    expect(await t.renew()).toMatchObject({ renewed: 0, canceled: 0, failed: 0 });
    for (const action of ['cancel', 'resume'] as const) {
      const response = await send(action);
      expect(response.statusCode, action).toBe(409);
      expect(response.json()).toMatchObject({ code: 'conflict', error: SUBSCRIPTION_ENDED });
    }
  });

  it('ends a past_due subscription at its next retry instead of charging it', async () => {
    await subscriptionWithCard('AUTH_declined');
    t.clock.set(new Date('2024-02-29T00:05:00.000Z'));
    expect(await t.renew()).toMatchObject({ failed: 1 });
    const pastDue = await subscriptionOf(t.db, t.organizationId);
    expect(pastDue.status).toBe('past_due');

    const canceled = await send('cancel');
    expect(canceled.statusCode).toBe(200);
    expect(canceled.json().message).toContain(
      'ends at its next payment attempt (2024-03-01), instead of being charged',
    );
    expect(canceled.json().data).toMatchObject({ status: 'past_due', cancelAtPeriodEnd: true, renewsAt: null });

    t.clock.set(new Date((pastDue.renewalDueAt?.getTime() ?? 0) + 60_000));
    expect(await t.renew()).toMatchObject({ canceled: 1, failed: 0 });
    expect(await subscriptionOf(t.db, t.organizationId)).toMatchObject({
      status: 'canceled',
      pastDueSince: null,
      renewalDueAt: null,
    });
    // Only the first, declined attempt was ever charged.
    expect((await subscriptionChargesOf(t.db, t.organizationId)).map((charge) => charge.status)).toEqual(['failed']);
  });

  it('answers 409 without a subscription, and 403 to a member whose role may not write billing', async () => {
    for (const action of ['cancel', 'resume'] as const) {
      const response = await send(action);
      expect(response.statusCode, action).toBe(409);
      expect(response.json()).toMatchObject({ success: false, code: 'conflict', error: NO_SUBSCRIPTION });
    }
    await subscriptionWithCard();
    const refused = await send('cancel', {}, MEMBER_ID);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'forbidden', error: 'This needs the role owner, admin or billing' });
    expect((await subscriptionOf(t.db, t.organizationId)).cancelAtPeriodEnd).toBe(false);
    // The billing role may.
    expect((await send('cancel', {}, COLLEAGUE_ID)).statusCode).toBe(200);
  });
});

describe('POST /v1/billing/subscription/resume', () => {
  it('clears the cancel before the end, so the renewal charges as before', async () => {
    await subscriptionWithCard();
    expect((await send('cancel')).statusCode).toBe(200);
    t.clock.advance(3_600_000);
    const resumed = await send('resume');
    expect(resumed.statusCode, resumed.body).toBe(200);
    expect(resumed.json()).toEqual({
      success: true,
      message:
        'Mail subscription resumed. The growth plan, 20 mailboxes, billed monthly is no longer set to cancel: it ' +
        'renews on 2024-02-29 as before.',
      data: expect.objectContaining({
        status: 'active',
        cancelAtPeriodEnd: false,
        canceledAt: null,
        renewsAt: PERIOD_END,
      }),
    });
    expect(await shown()).toEqual(resumed.json().data);
    expect((await lifecycleEvents()).map((event) => [event.action, event.actorUserId])).toEqual([
      ['subscription.cancel_requested', PAYER_ID],
      ['subscription.resumed', PAYER_ID],
    ]);

    // Resuming what is not set to cancel: 409, nothing recorded.
    const again = await send('resume');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'conflict', error: NOT_SET_TO_CANCEL });
    expect(await lifecycleEvents()).toHaveLength(2);

    t.clock.set(new Date('2024-02-29T00:05:00.000Z'));
    expect(await t.renew()).toMatchObject({ renewed: 1, canceled: 0 });
    expect((await subscriptionChargesOf(t.db, t.organizationId)).map((charge) => charge.amount)).toEqual([price]);
    expect(await titlesNotified(t.db, COLLEAGUE_ID)).toEqual([
      'Mail subscription set to cancel',
      'Mail subscription resumed',
      'Mail subscription renewed',
      'Receipt issued',
    ]);
  });

  it('keeps a scheduled downgrade through cancel and resume; the end of a canceled one drops it', async () => {
    await subscriptionWithCard();
    const scheduled = await t.app.inject({
      method: 'POST',
      url: '/v1/billing/upgrade',
      headers: await t.headers(),
      payload: { newPlan: 'core', newSeats: 20, newCycle: 'monthly' },
    });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    const canceled = await send('cancel');
    expect(canceled.json().data.scheduledChange).toMatchObject({ plan: 'core', seats: 20 });
    const resumed = await send('resume');
    expect(resumed.json().data.scheduledChange).toMatchObject({ plan: 'core', seats: 20 });

    expect((await send('cancel')).statusCode).toBe(200);
    t.clock.set(new Date('2024-02-29T00:05:00.000Z'));
    expect(await t.renew()).toMatchObject({ canceled: 1 });
    expect(await shown()).toMatchObject({ status: 'canceled', plan: 'growth', scheduledChange: null });
  });
});

describe('a cancel that arrives while the renewal is being charged', () => {
  it('lets the renewal apply: the subscription is renewed, and ends at the end of the new period', async () => {
    await subscriptionWithCard('AUTH_pending');
    t.clock.set(new Date('2024-02-29T00:05:00.000Z'));
    expect(await t.renew()).toMatchObject({ pending: 1 });
    const [charge] = await subscriptionChargesOf(t.db, t.organizationId);
    expect(charge?.status).toBe('pending');

    const canceled = await send('cancel');
    expect(canceled.statusCode).toBe(200);
    expect(canceled.json().data).toMatchObject({ cancelAtPeriodEnd: true, changeInProgress: true });

    paystack.settleCharge(charge?.reference ?? '', 'success');
    t.clock.advance(CONFIRMATION_DELAY_MS);
    expect(await t.reconcile()).toMatchObject({ settled: 1 });
    // Renewed and still set to cancel: the money paid for the period it renewed, none went to credit.
    expect(await shown()).toMatchObject({
      status: 'active',
      cancelAtPeriodEnd: true,
      currentPeriodEnd: '2024-03-31T00:00:00.000Z',
      renewsAt: null,
      changeInProgress: false,
    });
    expect(await creditBalanceOf(t.db, t.organizationId)).toBe(0);
    expect((await changesOf(t.db, t.organizationId)).map((change) => change.status)).toEqual(['applied']);

    t.clock.set(new Date('2024-03-31T00:05:00.000Z'));
    expect(await t.renew()).toMatchObject({ canceled: 1, pending: 0, renewed: 0 });
    expect((await subscriptionChargesOf(t.db, t.organizationId)).map((payment) => payment.status)).toEqual([
      'succeeded',
    ]);
    expect((await subscriptionOf(t.db, t.organizationId)).status).toBe('canceled');
  });

  it('ends the subscription as canceled, with no retries, when that charge fails', async () => {
    await subscriptionWithCard('AUTH_pending');
    t.clock.set(new Date('2024-02-29T00:05:00.000Z'));
    expect(await t.renew()).toMatchObject({ pending: 1 });
    const [charge] = await subscriptionChargesOf(t.db, t.organizationId);
    expect((await send('cancel')).statusCode).toBe(200);

    paystack.settleCharge(charge?.reference ?? '', 'failed');
    t.clock.advance(CONFIRMATION_DELAY_MS);
    expect(await t.reconcile()).toMatchObject({ settled: 1 });
    expect(await subscriptionOf(t.db, t.organizationId)).toMatchObject({
      status: 'canceled',
      renewalDueAt: null,
      pastDueSince: null,
    });
    expect(await titlesNotified(t.db, COLLEAGUE_ID)).toEqual([
      'Mail subscription set to cancel',
      'Mail subscription ended',
    ]);
  });
});

describe('OpenAPI', () => {
  it('documents cancel and resume with the subscription they answer', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    for (const path of ['/v1/billing/subscription/cancel', '/v1/billing/subscription/resume']) {
      const operation = document.paths[path]?.post;
      expect(operation, path).toBeDefined();
      expect(JSON.stringify(operation.responses['200'])).toContain('MailSubscriptionUpdatedResponse');
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '409']));
    }
    const subscription = document.components.schemas.MailSubscription;
    expect(Object.keys(subscription.properties)).toEqual(
      expect.arrayContaining(['cancelAtPeriodEnd', 'canceledAt', 'endedAt', 'scheduledChange']),
    );
  });
});
