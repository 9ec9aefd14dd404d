import { createHmac } from 'node:crypto';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type BillingTestApp, PAYER_ID } from '../../../../test/billing-fixtures.js';
import { FAKE_PAYSTACK_SECRET, type FakePaystack } from '../../../../test/fake-paystack.js';
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

// Upgrades (change-plan.ts) charged through a fake Paystack that can decline a card or not answer.

const COLLEAGUE_ID = 'user_colleague';
// A charge Paystack leaves unanswered times out at once, not after PROVIDER_TIMEOUT_MS.
const suite = useSubscriptionApp({ paystack: { hangsTimeOut: true }, members: [[COLLEAGUE_ID, 'member']] });
let t: BillingTestApp;
let paystack: FakePaystack;
beforeAll(() => {
  ({ t, paystack } = suite);
});
beforeEach(() => {
  paystack.behaviour('normal');
  t.clock.set(new Date('2024-01-17T10:00:00.000Z'));
});

const core10 = { plan: 'core', seats: 10, cycle: 'monthly', anchor: '2024-01-01' } as const;

async function upgradeToGrowth(paymentMethodId: string) {
  return t.app.inject({
    method: 'POST',
    url: '/v1/billing/upgrade',
    headers: await t.headers(),
    payload: { newPlan: 'growth', newSeats: 25, newCycle: 'monthly', paymentMethodId },
  });
}

describe('an upgrade whose card charge fails', () => {
  it('answers 402 payment_failed for a declined card and changes nothing; the next try can pay', async () => {
    const before = await insertSubscription(t.db, t.organizationId, core10);
    const declined = await insertSavedCard(t.db, t.organizationId, {
      provider: 'paystack',
      authorizationCode: 'AUTH_declined',
    });

    const response = await upgradeToGrowth(declined);
    expect(response.statusCode).toBe(402);
    expect(response.json()).toMatchObject({
      success: false,
      code: 'payment_failed',
      error: expect.stringContaining('Declined'),
    });
    expect(paystack.charges().at(-1)?.body).toMatchObject({
      amount: 133_100,
      currency: 'KES',
      authorization_code: 'AUTH_declined',
    });
    const after = await subscriptionOf(t.db, t.organizationId);
    expect(after).toMatchObject({
      plan: 'core',
      seats: 10,
      billingCycle: 'monthly',
      creditBalance: 0,
      paymentMethodId: null,
    });
    expect(after.currentPeriodEnd).toEqual(before.currentPeriodEnd);
    expect((await changesOf(t.db, t.organizationId)).map((change) => change.status)).toEqual(['failed']);
    expect((await subscriptionChargesOf(t.db, t.organizationId)).map((charge) => charge.status)).toEqual(['failed']);

    paystack.approvedAuthorizations.add('AUTH_approved');
    const approved = await insertSavedCard(t.db, t.organizationId, {
      provider: 'paystack',
      authorizationCode: 'AUTH_approved',
    });
    expect((await upgradeToGrowth(approved)).statusCode).toBe(200);
    expect(await subscriptionOf(t.db, t.organizationId)).toMatchObject({
      plan: 'growth',
      seats: 25,
      paymentMethodId: approved,
    });
    // Every member hears of the change and of its receipt; the payer also of the payment.
    expect(await titlesNotified(t.db, COLLEAGUE_ID)).toEqual(['Mail subscription upgraded', 'Receipt issued']);
    expect(await titlesNotified(t.db, PAYER_ID)).toEqual([
      'Mail subscription upgraded',
      'Payment received',
      'Receipt issued',
    ]);
  });

  it('answers 202 when Paystack does not answer, changes nothing meanwhile, and applies the change once its success comes', async () => {
    await insertSubscription(t.db, t.organizationId, core10);
    paystack.approvedAuthorizations.add('AUTH_slow');
    const card = await insertSavedCard(t.db, t.organizationId, {
      provider: 'paystack',
      authorizationCode: 'AUTH_slow',
    });
    paystack.behaviour('hang');

    // The charge may have reached Paystack: the change stays claimed until Paystack says what happened.
    const response = await upgradeToGrowth(card);
    expect(response.statusCode).toBe(202);
    const [charge] = await subscriptionChargesOf(t.db, t.organizationId);
    expect(response.json()).toEqual({
      success: true,
      message: expect.stringContaining(`(${charge?.reference}) is being confirmed`),
    });
    expect(await subscriptionOf(t.db, t.organizationId)).toMatchObject({ plan: 'core', seats: 10 });
    expect(charge?.status).toBe('pending');
    expect((await changesOf(t.db, t.organizationId)).map((change) => change.status)).toEqual(['charging']);

    // The charge had reached Paystack after all, and its webhook reports the success: the change applies.
    const reference = charge?.reference ?? '';
    paystack.transactions.set(reference, {
      id: 99,
      reference,
      amount: (charge?.amount ?? 0) * 100,
      currency: 'KES',
      email: 'payer@example.com',
      status: 'success',
      callbackUrl: undefined,
      accessCode: '',
      gatewayResponse: 'Approved',
      authorization: null,
    });
    const event = paystack.chargeSuccessEvent(reference);
    const delivered = await t.app.inject({
      method: 'POST',
      url: '/v1/billing/webhooks/paystack',
      headers: {
        'content-type': 'application/json',
        'x-paystack-signature': createHmac('sha512', FAKE_PAYSTACK_SECRET).update(event).digest('hex'),
      },
      payload: event,
    });
    expect(delivered.statusCode).toBe(200);
    expect((await subscriptionChargesOf(t.db, t.organizationId)).map((payment) => payment.status)).toEqual([
      'succeeded',
    ]);
    expect(await subscriptionOf(t.db, t.organizationId)).toMatchObject({
      plan: 'growth',
      seats: 25,
      paymentMethodId: card,
    });
    expect(await creditBalanceOf(t.db, t.organizationId)).toBe(0);
    expect((await changesOf(t.db, t.organizationId)).map((change) => change.status)).toEqual(['applied']);
    expect(await titlesNotified(t.db, COLLEAGUE_ID)).toEqual(['Mail subscription upgraded', 'Receipt issued']);
  });
});
