import { paymentEvents, paymentMethods, payments } from '@platform/db';
import { eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  allPayments,
  type BillingTestApp,
  liveBalance,
  paymentByReference,
  startBillingApp,
  topUpsOf,
  transitionsOf,
} from '../../../../../test/billing-fixtures.js';
import { FAKE_DARAJA, type FakeDaraja, fakeDarajaEnv, startFakeDaraja } from '../../../../../test/fake-daraja.js';

// M-Pesa payments against a fake Daraja that speaks Daraja's formats and posts result callbacks to the
// CallBackURL the service gave it.

const MINUTE = 60_000;
let t: BillingTestApp;
let daraja: FakeDaraja;

beforeAll(async () => {
  daraja = await startFakeDaraja();
  t = await startBillingApp({ listen: true, env: { ...fakeDarajaEnv(daraja.url), PROVIDER_TIMEOUT_MS: '1000' } });
});
afterAll(async () => {
  await t?.close();
  await daraja?.close();
});
beforeEach(async () => {
  daraja.behaviour('normal');
  await t.db.delete(payments);
  await t.db.delete(paymentEvents);
  await t.db.delete(paymentMethods);
});

async function prompt(amount = 1500, phone = '0708 374 149') {
  const response = await t.app.inject({
    method: 'POST',
    url: '/v1/billing/pay',
    headers: await t.headers(),
    payload: { method: 'mobile_money', amount, phone },
  });
  expect(response.statusCode).toBe(200);
  const { reference } = response.json() as { reference: string };
  return { reference, checkoutRequestId: daraja.lastPrompt().checkoutRequestId, response };
}

describe('M-Pesa Express through Daraja', () => {
  it('prompts the phone with a callback URL carrying the secret token, and settles on the callback', async () => {
    const before = await liveBalance(t.db, t.organizationId);
    const { reference, checkoutRequestId, response } = await prompt();
    expect(response.json()).toEqual({
      success: true,
      message: 'Check your phone (0708374149) and enter your M-Pesa PIN to pay KES 1,500.',
      reference,
    });
    const sent = daraja.lastPrompt();
    expect(sent).toMatchObject({ phone: '254708374149', amount: 1500, transactionDesc: 'Wallet top-up' });
    expect(sent.callbackUrl).toBe(`${t.url}/v1/billing/webhooks/mpesa/${FAKE_DARAJA.callbackToken}`);
    const payment = await paymentByReference(t.db, reference);
    expect(payment).toMatchObject({ status: 'pending', provider: 'daraja', providerReference: checkoutRequestId });
    expect(sent.accountReference).toBe(payment.accountReference);
    expect(sent.accountReference.length).toBeLessThanOrEqual(12);

    daraja.answer(checkoutRequestId, 0);
    const delivered = await daraja.deliverCallback(checkoutRequestId);
    expect(delivered).toEqual({ status: 200, body: '{"ResultCode":0,"ResultDesc":"Accepted"}' });
    expect((await paymentByReference(t.db, reference)).status).toBe('succeeded');
    expect(await liveBalance(t.db, t.organizationId)).toBe(before + 1500);
    const [saved] = await t.db.select().from(paymentMethods);
    expect(saved).toMatchObject({ type: 'mobile_money', phone: '254708374149', provider: 'daraja' });
  });

  it.each([
    [1032, 'cancelled', 'Request cancelled by user'],
    [1037, 'expired', 'DS timeout user cannot be reached'],
    [1019, 'expired', 'Transaction has expired'],
    [1, 'failed', 'The balance is insufficient for the transaction.'],
    [2001, 'failed', 'The initiator information is invalid.'],
  ] as const)('records result code %i as %s, crediting nothing', async (code, status, reason) => {
    const before = await liveBalance(t.db, t.organizationId);
    const { reference, checkoutRequestId } = await prompt();
    daraja.answer(checkoutRequestId, code);
    expect((await daraja.deliverCallback(checkoutRequestId)).status).toBe(200);
    expect(await paymentByReference(t.db, reference)).toMatchObject({ status, failureReason: reason });
    expect(await liveBalance(t.db, t.organizationId)).toBe(before);
    expect(await t.db.select().from(paymentMethods)).toEqual([]);
  });

  it('credits once for duplicate callbacks', async () => {
    const before = await liveBalance(t.db, t.organizationId);
    const { reference, checkoutRequestId } = await prompt(900);
    daraja.answer(checkoutRequestId, 0);
    for (let delivery = 0; delivery < 3; delivery += 1) await daraja.deliverCallback(checkoutRequestId);
    expect(await liveBalance(t.db, t.organizationId)).toBe(before + 900);
    expect(await topUpsOf(t.db, reference)).toBe(1);
  });

  it('answers a callback without the right token like an unknown route, and changes nothing', async () => {
    const { reference, checkoutRequestId } = await prompt();
    daraja.answer(checkoutRequestId, 0);
    const base = `${t.url}/v1/billing/webhooks/mpesa`;
    for (const url of [`${base}/wrong-token-${'x'.repeat(30)}`, `${base}/${FAKE_DARAJA.callbackToken}x`, `${base}/`]) {
      const answer = await daraja.deliverCallback(checkoutRequestId, url);
      expect(answer.status).toBe(404);
      const envelope = JSON.parse(answer.body);
      expect(envelope).toMatchObject({ success: false, code: 'not_found', error: `Route POST ${new URL(url).pathname} not found` });
    }
    const unknownRoute = await fetch(`${t.url}/v1/billing/webhooks/nowhere`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(unknownRoute.status).toBe(404);
    expect((await paymentByReference(t.db, reference)).status).toBe('pending');
    expect(await t.db.select().from(paymentEvents).where(eq(paymentEvents.type, 'provider_event'))).toEqual([]);
  });

  it('keeps an authentic callback for an unknown prompt for support', async () => {
    const { checkoutRequestId } = await prompt();
    daraja.answer(checkoutRequestId, 0);
    const body = daraja.callbackBody(checkoutRequestId) as { Body: { stkCallback: Record<string, unknown> } };
    body.Body.stkCallback['CheckoutRequestID'] = 'ws_CO_unknown';
    const answer = await fetch(daraja.lastPrompt().callbackUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(answer.status).toBe(200);
    expect(await t.db.select().from(paymentEvents).where(isNull(paymentEvents.paymentId))).toHaveLength(1);
  });

  it('counts a success that arrives after the payment expired', async () => {
    const before = await liveBalance(t.db, t.organizationId);
    const { reference, checkoutRequestId } = await prompt(400);
    daraja.answer(checkoutRequestId, 1037);
    await daraja.deliverCallback(checkoutRequestId);
    daraja.answer(checkoutRequestId, 0);
    await daraja.deliverCallback(checkoutRequestId);
    const payment = await paymentByReference(t.db, reference);
    expect(payment.status).toBe('succeeded');
    expect(await transitionsOf(t.db, payment.id)).toEqual(['pending->expired', 'expired->succeeded']);
    expect(await liveBalance(t.db, t.organizationId)).toBe(before + 400);
  });

  it('ignores a failure that arrives after a success', async () => {
    const { reference, checkoutRequestId } = await prompt(400);
    daraja.answer(checkoutRequestId, 0);
    await daraja.deliverCallback(checkoutRequestId);
    daraja.answer(checkoutRequestId, 1032);
    await daraja.deliverCallback(checkoutRequestId);
    expect((await paymentByReference(t.db, reference)).status).toBe('succeeded');
  });
});

describe('reconciliation of M-Pesa prompts through the STK query', () => {
  it('settles a stale pending prompt whose callback never came', async () => {
    const before = await liveBalance(t.db, t.organizationId);
    const { reference, checkoutRequestId } = await prompt(650);
    t.clock.advance(MINUTE);
    expect(await t.reconcile()).toEqual({ checked: 0, settled: 0 });
    daraja.answer(checkoutRequestId, 0);
    t.clock.advance(2 * MINUTE);
    expect(await t.reconcile()).toEqual({ checked: 1, settled: 1 });
    expect((await paymentByReference(t.db, reference)).status).toBe('succeeded');
    expect(await liveBalance(t.db, t.organizationId)).toBe(before + 650);
    // The late callback is a known outcome now and changes nothing.
    await daraja.deliverCallback(checkoutRequestId);
    expect(await topUpsOf(t.db, reference)).toBe(1);
  });

  it('leaves a prompt pending while Daraja says it is being processed, then expires it', async () => {
    const { reference } = await prompt(650);
    t.clock.advance(3 * MINUTE);
    expect(await t.reconcile()).toEqual({ checked: 1, settled: 0 });
    expect((await paymentByReference(t.db, reference)).status).toBe('pending');
    t.clock.advance(30_000);
    expect((await t.reconcile()).checked).toBe(0); // checked again only after a minute
    t.clock.advance(15 * MINUTE);
    expect(await t.reconcile()).toEqual({ checked: 1, settled: 1 });
    expect(await paymentByReference(t.db, reference)).toMatchObject({
      status: 'expired',
      failureReason: 'No result came from M-Pesa in time',
    });
  });

  it('waits for Daraja to come back when the query fails', async () => {
    const { reference, checkoutRequestId } = await prompt(650);
    daraja.answer(checkoutRequestId, 1032);
    daraja.behaviour('server_error');
    t.clock.advance(3 * MINUTE);
    expect(await t.reconcile()).toEqual({ checked: 1, settled: 0 });
    daraja.behaviour('normal');
    t.clock.advance(MINUTE);
    expect(await t.reconcile()).toEqual({ checked: 1, settled: 1 });
    expect((await paymentByReference(t.db, reference)).status).toBe('cancelled');
  });
});

describe('Daraja unavailable', () => {
  it('answers 503 when the STK push times out, leaving no prompt in flight without a CheckoutRequestID', async () => {
    daraja.behaviour('hang');
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/billing/pay',
      headers: await t.headers(),
      payload: { method: 'mobile_money', amount: 100, phone: '0708374149' },
    });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ success: false, code: 'provider_unavailable' });
    expect(await allPayments(t.db)).toEqual([
      expect.objectContaining({ status: 'expired', providerReference: null, failureReason: 'The payment provider did not answer in time' }),
    ]);
  });

  it('answers 503 when Daraja fails, recording the payment as failed', async () => {
    daraja.behaviour('server_error');
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/billing/pay',
      headers: await t.headers(),
      payload: { method: 'mobile_money', amount: 100, phone: '0708374149' },
    });
    expect(response.statusCode).toBe(503);
    expect(await allPayments(t.db)).toEqual([expect.objectContaining({ status: 'failed', providerReference: null })]);
  });
});
