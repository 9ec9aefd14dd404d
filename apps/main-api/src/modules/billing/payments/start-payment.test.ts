import { mailSubscriptions, paymentMethods } from '@platform/db/schema';
import { quote } from '@platform/pricing';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  allPayments,
  type BillingTestApp,
  deletePayments,
  liveBalance,
  notificationsOf,
  PAYER_ID,
  paymentByReference,
  transitionsOf,
  untilSettled,
} from '../../../../test/billing-fixtures.js';
import { usePayApp } from '../../../../test/pay-fixtures.js';
import { submitSandboxCheckout } from '../../../../test/sandbox-checkout.js';

// POST /v1/billing/pay end to end on the sandbox: a card checkout, an M-Pesa prompt, a mail subscription purchase.

const suite = usePayApp();
const { pay, getPayment } = suite;
let t: BillingTestApp;
beforeAll(() => {
  t = suite.t;
});

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
    // Without a dashboard (no identity provider), the page after the checkout links nowhere.
    const complete = await t.app.inject({ method: 'GET', url: `/v1/billing/checkout/complete?reference=${reference}` });
    expect(complete.body).toContain('Payment successful');
    expect(complete.body).not.toContain('/dashboard/');
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
