import { beforeAll, describe, expect, it } from 'vitest';
import { allPayments, type BillingTestApp, PAYER_ID, untilSettled } from '../../../../test/billing-fixtures.js';
import { authHeader } from '../../../../test/helpers.js';
import { usePayApp } from '../../../../test/pay-fixtures.js';

// What a pay request may be, who may send it, and a retry of one with its Idempotency-Key: one payment.

const suite = usePayApp();
const { pay } = suite;
let t: BillingTestApp;
beforeAll(() => {
  t = suite.t;
});

describe('POST /v1/billing/pay input checks', () => {
  const invalid: Array<[string, unknown, string]> = [
    ['no body', undefined, ''],
    ['no method', { amount: 100 }, '/method'],
    ['an unknown method', { method: 'bitcoin', amount: 100 }, '/method'],
    ['an amount sent as a string', { method: 'card', amount: '100' }, '/amount'],
    ['a zero amount', { method: 'card', amount: 0 }, '/amount'],
    ['a negative amount', { method: 'card', amount: -1 }, '/amount'],
    ['a fractional amount', { method: 'card', amount: 10.5 }, '/amount'],
    ['no amount for a top-up', { method: 'card' }, '/amount'],
    ['an amount above the card limit', { method: 'card', amount: 500_001 }, '/amount'],
    ['an amount above the M-Pesa limit', { method: 'mobile_money', amount: 70_001, phone: '0712345678' }, '/amount'],
    ['mobile money without a phone', { method: 'mobile_money', amount: 100 }, '/phone'],
    ['a landline', { method: 'mobile_money', amount: 100, phone: '020 2345678' }, '/phone'],
    ['a foreign number', { method: 'mobile_money', amount: 100, phone: '+255712345678' }, '/phone'],
    ['a phone with a card payment', { method: 'card', amount: 100, phone: '0712345678' }, '/phone'],
    ['a saved method without its id', { method: 'saved_method', amount: 100 }, '/paymentMethodId'],
    [
      'a payment method id with a card payment',
      { method: 'card', amount: 100, paymentMethodId: 'x' },
      '/paymentMethodId',
    ],
    ['an unknown field', { method: 'card', amount: 100, currency: 'USD' }, '/currency'],
    ['an unknown metadata type', { method: 'card', amount: 100, metadata: { type: 'donation' } }, '/metadata/type'],
    ['an unknown metadata field', { method: 'card', amount: 100, metadata: { orderId: 'x' } }, '/metadata/orderId'],
    ['plan fields on a top-up', { method: 'card', amount: 100, metadata: { plan: 'core' } }, '/metadata/plan'],
    [
      'a subscription without its plan',
      { method: 'card', metadata: { type: 'mail_subscription', seats: 2, billingCycle: 'monthly' } },
      '/metadata/plan',
    ],
    [
      'a subscription without seats',
      { method: 'card', metadata: { type: 'mail_subscription', plan: 'core', billingCycle: 'monthly' } },
      '/metadata/seats',
    ],
    [
      'zero seats',
      { method: 'card', metadata: { type: 'mail_subscription', plan: 'core', seats: 0, billingCycle: 'monthly' } },
      '/metadata/seats',
    ],
    [
      'an unknown plan',
      { method: 'card', metadata: { type: 'mail_subscription', plan: 'gold', seats: 2, billingCycle: 'monthly' } },
      '/metadata/plan',
    ],
    [
      'an unknown cycle',
      { method: 'card', metadata: { type: 'mail_subscription', plan: 'core', seats: 2, billingCycle: 'weekly' } },
      '/metadata/billingCycle',
    ],
  ];

  it.each(invalid)('refuses %s with 400 and writes nothing', async (_, body, path) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/billing/pay',
      headers: { ...(await t.headers()), 'content-type': 'application/json' },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    expect(response.statusCode).toBe(400);
    const envelope = response.json();
    expect(envelope).toMatchObject({ success: false, code: 'validation_error', error: expect.any(String) });
    if (path !== '') expect(envelope.details.map((detail: { path: string }) => detail.path)).toContain(path);
    expect(await allPayments(t.db)).toEqual([]);
  });

  it('needs a token, an X-Organization-Id and membership of that organization', async () => {
    const body = { method: 'card', amount: 100 };
    const noToken = await t.app.inject({
      method: 'POST',
      url: '/v1/billing/pay',
      headers: { 'x-organization-id': t.organizationId },
      payload: body,
    });
    expect(noToken.statusCode).toBe(401);
    const noOrganization = await t.app.inject({
      method: 'POST',
      url: '/v1/billing/pay',
      headers: await authHeader(PAYER_ID),
      payload: body,
    });
    expect(noOrganization.statusCode).toBe(400);
    expect(noOrganization.json().details).toEqual([{ path: 'headers/x-organization-id', message: 'is required' }]);
    const notMember = await pay(body, { 'x-organization-id': t.otherOrganizationId });
    expect(notMember.statusCode).toBe(403);
    expect(await allPayments(t.db)).toEqual([]);
  });
});

describe('idempotent payment requests', () => {
  it('makes one payment for a double click with the same Idempotency-Key', async () => {
    const body = { method: 'card', amount: 3000 };
    const first = await pay(body, { 'idempotency-key': 'double-click-1' });
    const second = await pay(body, { 'idempotency-key': 'double-click-1' });
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(await allPayments(t.db)).toHaveLength(1);
  });

  it('makes one payment for two simultaneous requests with the same x-idempotency-key', async () => {
    const body = { method: 'mobile_money', amount: 300, phone: '0708374149' };
    const answers = await Promise.all([
      pay(body, { 'x-idempotency-key': 'simultaneous-1' }),
      pay(body, { 'x-idempotency-key': 'simultaneous-1' }),
    ]);
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses[0]).toBe(200);
    expect([200, 409]).toContain(statuses[1]);
    const started = await allPayments(t.db);
    expect(started).toHaveLength(1);
    // The sandbox's callback pays it; the next test empties the tables only after that.
    expect((await untilSettled(t.db, started[0]?.reference ?? '')).status).toBe('succeeded');
  });

  it('refuses the same key for a different payment with 422', async () => {
    await pay({ method: 'card', amount: 3000 }, { 'idempotency-key': 'reused-1' });
    const reused = await pay({ method: 'card', amount: 3001 }, { 'idempotency-key': 'reused-1' });
    expect(reused.statusCode).toBe(422);
    expect(reused.json().code).toBe('idempotency_key_reused');
    expect(await allPayments(t.db)).toHaveLength(1);
  });

  it('makes separate payments without a key', async () => {
    await pay({ method: 'card', amount: 3000 });
    await pay({ method: 'card', amount: 3000 });
    expect(await allPayments(t.db)).toHaveLength(2);
  });
});
