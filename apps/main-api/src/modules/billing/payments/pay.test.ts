import { mailSubscriptions, paymentEvents, paymentMethods } from '@platform/db/schema';
import { quote } from '@platform/pricing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  allPayments,
  type BillingTestApp,
  deletePayments,
  liveBalance,
  notificationsOf,
  PAYER_ID,
  paymentByReference,
  startBillingApp,
  transitionsOf,
  untilSettled,
} from '../../../../test/billing-fixtures.js';
import { authHeader } from '../../../../test/helpers.js';
import { submitSandboxCheckout } from '../../../../test/sandbox-checkout.js';

let t: BillingTestApp;

beforeAll(async () => {
  t = await startBillingApp({ env: { MAX_AMOUNT_CARD: '500000', MAX_AMOUNT_MOBILE_MONEY: '70000' } });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await deletePayments(t.db);
  await t.db.delete(paymentEvents);
  await t.db.delete(paymentMethods);
  await t.db.delete(mailSubscriptions);
});

async function pay(body: unknown, extraHeaders: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/v1/billing/pay',
    headers: await t.headers(extraHeaders),
    payload: body as object,
  });
}

async function getPayment(reference: string, headers?: Record<string, string>) {
  return t.app.inject({
    method: 'GET',
    url: `/v1/billing/payments/${reference}`,
    headers: headers ?? (await t.headers()),
  });
}

describe('POST /v1/billing/pay with card', () => {
  it('creates a hosted checkout and answers success, checkoutUrl and reference', async () => {
    const response = await pay({ method: 'card', amount: 2500 });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['checkoutUrl', 'reference', 'success']);
    expect(body.success).toBe(true);
    expect(body.reference).toMatch(/^PAY-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(body.checkoutUrl).toBe(`${t.url}/v1/billing/sandbox/checkout/${body.reference}`);

    const payment = await paymentByReference(t.db, body.reference);
    expect(payment).toMatchObject({
      organizationId: t.organizationId,
      userId: PAYER_ID,
      method: 'card',
      channel: 'card',
      purpose: 'wallet_topup',
      provider: 'sandbox',
      status: 'pending',
      amount: 2500,
      providerReference: body.reference,
      checkoutUrl: body.checkoutUrl,
    });
  });

  it('credits the live wallet once the checkout is paid, saves the card and notifies the payer', async () => {
    const before = await liveBalance(t.db, t.organizationId);
    const { reference, checkoutUrl } = (await pay({ method: 'card', amount: 2500 })).json();
    const submitted = await submitSandboxCheckout(t, checkoutUrl, 'pay');
    expect(submitted.statusCode).toBe(303);
    expect(submitted.headers.location).toBe(
      `${t.url}/v1/billing/checkout/complete?trxref=${reference}&reference=${reference}`,
    );

    expect(await liveBalance(t.db, t.organizationId)).toBe(before + 2500);
    const payment = await paymentByReference(t.db, reference);
    expect(payment.status).toBe('succeeded');
    expect(payment.paymentMethodId).not.toBeNull();
    expect(await transitionsOf(t.db, payment.id)).toEqual(['pending->succeeded']);
    const notes = await notificationsOf(t.db, PAYER_ID);
    expect(notes.some((note) => note.type === 'success' && note.message.includes(reference))).toBe(true);

    const methods = await t.app.inject({
      method: 'GET',
      url: '/v1/billing/payment-methods',
      headers: await t.headers(),
    });
    expect(methods.statusCode).toBe(200);
    const [card] = methods.json().data.paymentMethods;
    expect(card).toEqual({
      id: payment.paymentMethodId,
      type: 'card',
      card: { brand: 'visa', last4: '4081', expMonth: 12, expYear: 2030, bank: 'Sandbox Bank' },
      phone: null,
      createdAt: expect.any(String),
      lastUsedAt: expect.any(String),
    });
    expect(methods.body).not.toMatch(/AUTH_|authorization/i);

    const page = await t.app.inject({
      method: 'GET',
      url: `${new URL(submitted.headers.location as string).pathname}?reference=${reference}`,
    });
    expect(page.body).toContain('Payment successful');
  });

  it('records a declined checkout as failed and credits nothing', async () => {
    const before = await liveBalance(t.db, t.organizationId);
    const { reference, checkoutUrl } = (await pay({ method: 'card', amount: 900 })).json();
    expect((await submitSandboxCheckout(t, checkoutUrl, 'decline')).statusCode).toBe(303);
    const view = (await getPayment(reference)).json().data;
    expect(view).toMatchObject({
      status: 'failed',
      failureReason: 'Declined in the sandbox checkout',
      completedAt: expect.any(String),
    });
    expect(await liveBalance(t.db, t.organizationId)).toBe(before);
    expect(await t.db.select().from(paymentMethods)).toEqual([]);
  });

  it('refuses a checkout form without the CSRF cookie and changes nothing', async () => {
    const { reference, checkoutUrl } = (await pay({ method: 'card', amount: 900 })).json();
    const page = await t.app.inject({ method: 'GET', url: new URL(checkoutUrl).pathname });
    const token = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
    const forged = await t.app.inject({
      method: 'POST',
      url: new URL(checkoutUrl).pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `csrf=${encodeURIComponent(token)}&action=pay`,
    });
    expect(forged.statusCode).toBe(403);
    expect((await paymentByReference(t.db, reference)).status).toBe('pending');
  });

  it('shows "not found" for a checkout link that names no payment reference', async () => {
    for (const reference of ['not-a-reference', 'PAY-00000000-0000-4000-8000-000000000000', 'PAY-%E2%80%AE']) {
      const page = await t.app.inject({ method: 'GET', url: `/v1/billing/sandbox/checkout/${reference}` });
      expect(page.statusCode, reference).toBe(404);
      expect(page.body).toContain('Checkout not found');
    }
  });

  it('refuses a checkout link holding U+0000 as any request carrying it is refused (400), never a 500', async () => {
    for (const reference of ['PAY-%00', 'a%00b']) {
      const page = await t.app.inject({ method: 'GET', url: `/v1/billing/sandbox/checkout/${reference}` });
      expect(page.statusCode, reference).toBe(400);
      expect(page.json()).toMatchObject({ code: 'validation_error', details: [{ path: 'params/reference' }] });
    }
  });
});

describe('POST /v1/billing/pay with mobile_money', () => {
  it('prompts the normalised number and answers success, message and reference', async () => {
    const response = await pay({ method: 'mobile_money', amount: 1500, phone: '+254 708 374 149' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['message', 'reference', 'success']);
    expect(body.message).toContain('M-Pesa PIN');
    const payment = await paymentByReference(t.db, body.reference);
    expect(payment).toMatchObject({
      method: 'mobile_money',
      channel: 'mobile_money',
      phone: '254708374149',
      provider: 'sandbox',
    });
    expect(payment.accountReference).toMatch(/^PAY[0-9A-F]{8}$/);
    expect(payment.providerReference).toMatch(/^ws_CO_SANDBOX_/);
    // The sandbox's callback pays it; the next test empties the tables only after that.
    expect((await untilSettled(t.db, body.reference)).status).toBe('succeeded');
  });

  it('credits the wallet when the prompt is paid and saves the number as a payment method', async () => {
    const before = await liveBalance(t.db, t.organizationId);
    const { reference } = (await pay({ method: 'mobile_money', amount: 1500, phone: '0708374149' })).json();
    expect((await untilSettled(t.db, reference)).status).toBe('succeeded');
    expect(await liveBalance(t.db, t.organizationId)).toBe(before + 1500);
    const [method] = await t.db.select().from(paymentMethods);
    expect(method).toMatchObject({ type: 'mobile_money', phone: '254708374149', organizationId: t.organizationId });

    const again = await pay({ method: 'saved_method', amount: 700, paymentMethodId: method?.id });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ success: true, message: expect.stringContaining('M-Pesa PIN') });
    const second = await paymentByReference(t.db, again.json().reference);
    expect(second).toMatchObject({
      method: 'saved_method',
      channel: 'mobile_money',
      phone: '254708374149',
      paymentMethodId: method?.id,
    });
    expect((await untilSettled(t.db, second.reference)).status).toBe('succeeded');
    expect(await liveBalance(t.db, t.organizationId)).toBe(before + 2200);
    expect(await t.db.select().from(paymentMethods)).toHaveLength(1);
  });

  it('refuses numbers of other operators with 400 unsupported_phone_operator and writes nothing', async () => {
    for (const phone of ['0733123456', '0100123456', '0772123456', '0764123456']) {
      const response = await pay({ method: 'mobile_money', amount: 100, phone });
      expect(response.statusCode, phone).toBe(400);
      expect(response.json()).toMatchObject({ success: false, code: 'unsupported_phone_operator' });
    }
    expect(await allPayments(t.db)).toEqual([]);
  });
});

describe('POST /v1/billing/pay with saved_method', () => {
  it('charges a saved card at once and answers success and a message', async () => {
    const first = (await pay({ method: 'card', amount: 1000 })).json();
    await submitSandboxCheckout(t, first.checkoutUrl, 'pay');
    const [card] = await t.db.select().from(paymentMethods);
    const before = await liveBalance(t.db, t.organizationId);

    const response = await pay({ method: 'saved_method', amount: 4000, paymentMethodId: card?.id });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ success: true, message: 'Payment of KES 4,000 successful.' });
    expect(await liveBalance(t.db, t.organizationId)).toBe(before + 4000);
    expect(await paymentByReference(t.db, response.json().reference)).toMatchObject({
      method: 'saved_method',
      channel: 'card',
      status: 'succeeded',
      paymentMethodId: card?.id,
    });
  });

  it("gives 404 for an unknown, removed or another organization's method", async () => {
    const [other] = await t.db
      .insert(paymentMethods)
      .values({
        organizationId: t.otherOrganizationId,
        type: 'mobile_money',
        provider: 'sandbox',
        fingerprint: '254711000000',
        phone: '254711000000',
      })
      .returning();
    for (const id of [other?.id, '6a0c9c52-52c4-4a27-9d1a-0d2a8c3f0b11', 'not-a-uuid']) {
      const response = await pay({ method: 'saved_method', amount: 100, paymentMethodId: id });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'not_found', error: 'Payment method not found' });
    }
    expect(await allPayments(t.db)).toEqual([]);
  });
});

describe('POST /v1/billing/pay for a mail subscription', () => {
  it('charges the price list whatever amount the client sent', async () => {
    const expected = quote({ plan: 'growth', seats: 120, cycle: 'yearly' }).total;
    for (const amount of [0, 1, 999_999, -50, 12.5, undefined]) {
      await deletePayments(t.db);
      const response = await pay({
        method: 'card',
        ...(amount === undefined ? {} : { amount }),
        metadata: { type: 'mail_subscription', plan: 'growth', seats: 120, billingCycle: 'yearly' },
      });
      expect(response.statusCode, String(amount)).toBe(200);
      const view = (await getPayment(response.json().reference)).json().data;
      expect(view).toMatchObject({
        amount: expected,
        purpose: 'mail_subscription',
        subscription: { plan: 'growth', seats: 120, billingCycle: 'yearly' },
      });
    }
  });

  it('starts the subscription when paid, then refuses another purchase with 409', async () => {
    const subscription = { type: 'mail_subscription', plan: 'core', seats: 10, billingCycle: 'monthly' };
    const { reference, checkoutUrl } = (await pay({ method: 'card', amount: 0, metadata: subscription })).json();
    const before = await liveBalance(t.db, t.organizationId);
    await submitSandboxCheckout(t, checkoutUrl, 'pay');
    const payment = await paymentByReference(t.db, reference);
    const [active] = await t.db
      .select()
      .from(mailSubscriptions)
      .where(eq(mailSubscriptions.organizationId, t.organizationId));
    expect(active).toMatchObject({ plan: 'core', seats: 10, billingCycle: 'monthly', status: 'active' });
    // Periods are whole UTC days: the first one starts on the day of payment.
    const paidOn = payment.completedAt?.toISOString().slice(0, 10);
    expect(active?.currentPeriodStart).toEqual(new Date(`${paidOn}T00:00:00.000Z`));
    expect(active?.billingAnchor).toBe(paidOn);
    expect(await liveBalance(t.db, t.organizationId)).toBe(before);

    const again = await pay({ method: 'card', amount: 0, metadata: { ...subscription, plan: 'scale' } });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ success: false, code: 'conflict' });
  });

  it('refuses a price above the limit of the method', async () => {
    // 1,000 scale seats yearly is 1,800,000 KES, above the 500,000 card limit configured here.
    const response = await pay({
      method: 'card',
      amount: 0,
      metadata: { type: 'mail_subscription', plan: 'scale', seats: 1000, billingCycle: 'yearly' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'validation_error', details: [{ path: '/metadata' }] });
    expect(await allPayments(t.db)).toEqual([]);
  });
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

describe('GET /v1/billing/payments/:reference', () => {
  it("shows the organization's own payment", async () => {
    const { reference, checkoutUrl } = (await pay({ method: 'card', amount: 1200 })).json();
    const response = await getPayment(reference);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      data: {
        reference,
        status: 'pending',
        method: 'card',
        channel: 'card',
        purpose: 'wallet_topup',
        amount: 1200,
        currency: 'KES',
        phone: null,
        paymentMethodId: null,
        subscription: null,
        checkoutUrl,
        failureReason: null,
        receiptNumber: null,
        invoiceNumber: null,
        transferReference: null,
        mpesaReceiptNumber: null,
        createdAt: expect.any(String),
        completedAt: null,
      },
    });
  });

  it("gives the same 404 for another organization's payment, an unknown and a malformed reference", async () => {
    const { reference } = (await pay({ method: 'card', amount: 1200 })).json();
    const outsider = { ...(await authHeader('user_outsider')), 'x-organization-id': t.otherOrganizationId };
    const answers = [
      await getPayment(reference, outsider),
      await getPayment('PAY-6a0c9c52-52c4-4a27-9d1a-0d2a8c3f0b11'),
      await getPayment('nonsense'),
    ];
    for (const answer of answers) {
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toMatchObject({ code: 'not_found', error: 'Payment not found' });
    }
  });
});

describe('DELETE /v1/billing/payment-methods/:id', () => {
  it("removes the organization's own method only, and removing it again succeeds", async () => {
    const [own] = await t.db
      .insert(paymentMethods)
      .values({
        organizationId: t.organizationId,
        type: 'mobile_money',
        provider: 'sandbox',
        fingerprint: '254712000000',
        phone: '254712000000',
      })
      .returning();
    const [other] = await t.db
      .insert(paymentMethods)
      .values({
        organizationId: t.otherOrganizationId,
        type: 'mobile_money',
        provider: 'sandbox',
        fingerprint: '254712000000',
        phone: '254712000000',
      })
      .returning();
    const remove = async (id: string | undefined) =>
      t.app.inject({ method: 'DELETE', url: `/v1/billing/payment-methods/${id}`, headers: await t.headers() });

    expect((await remove(other?.id)).statusCode).toBe(404);
    expect((await remove('not-a-uuid')).statusCode).toBe(404);
    const removed = await remove(own?.id);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ success: true, message: 'Payment method removed' });
    expect((await remove(own?.id)).statusCode).toBe(200);

    const list = await t.app.inject({ method: 'GET', url: '/v1/billing/payment-methods', headers: await t.headers() });
    expect(list.json().data.paymentMethods).toEqual([]);
    const [otherAfter] = await t.db
      .select()
      .from(paymentMethods)
      .where(eq(paymentMethods.id, other?.id ?? ''));
    expect(otherAfter?.deletedAt).toBeNull();

    const charge = await pay({ method: 'saved_method', amount: 100, paymentMethodId: own?.id });
    expect(charge.statusCode).toBe(404);
  });
});
