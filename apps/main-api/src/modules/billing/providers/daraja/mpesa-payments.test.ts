import { paymentEvents, paymentMethods } from '@platform/db/schema';
import { and, eq, isNull } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eventually } from '#test-timing';
import { useBillingAppWithProviders } from '../../../../../test/billing-app-with-providers.js';
import {
  alarmsRaised,
  allPayments,
  type BillingTestApp,
  capturingLogger,
  deletePayments,
  liveBalance,
  paymentByReference,
  promptMpesaPayment,
  topUpsOf,
  transitionsOf,
} from '../../../../../test/billing-fixtures.js';
import { FAKE_DARAJA, type FakeDaraja } from '../../../../../test/fake-daraja.js';

// M-Pesa payments against a fake Daraja that speaks Daraja's formats and posts result callbacks to the
// CallBackURL the service gave it.

const MINUTE = 60_000;
const logs = capturingLogger('warn');
const billing = useBillingAppWithProviders({ logger: logs.logger });
let t: BillingTestApp;
let daraja: FakeDaraja;
beforeAll(() => {
  ({ t, daraja } = billing);
});
beforeEach(async () => {
  daraja.behaviour('normal');
  // A request Daraja leaves unanswered times out at once, not after PROVIDER_TIMEOUT_MS.
  t.timeouts.expireOnHang(daraja.server);
  logs.lines.length = 0;
  await deletePayments(t.db);
  await t.db.delete(paymentEvents);
  await t.db.delete(paymentMethods);
});

/** The provider events recorded for a payment. */
async function providerEventsOf(paymentId: string) {
  return t.db
    .select()
    .from(paymentEvents)
    .where(and(eq(paymentEvents.paymentId, paymentId), eq(paymentEvents.type, 'provider_event')));
}

const alarmLines = (kind: string) => logs.lines.filter((line) => line['level'] === 50 && line['alarm'] === kind);

async function pay(amount: number, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/v1/billing/pay',
    headers: await t.headers(headers),
    payload: { method: 'mobile_money', amount, phone: '0708374149' },
  });
}

const prompt = (amount = 1500, phone?: string) => promptMpesaPayment(t, daraja, amount, phone);

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
      expect(envelope).toMatchObject({
        success: false,
        code: 'not_found',
        error: `Route POST ${new URL(url).pathname} not found`,
      });
    }
    const unknownRoute = await fetch(`${t.url}/v1/billing/webhooks/nowhere`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(unknownRoute.status).toBe(404);
    expect((await paymentByReference(t.db, reference)).status).toBe('pending');
    expect(await t.db.select().from(paymentEvents).where(eq(paymentEvents.type, 'provider_event'))).toEqual([]);
  });

  it('records a failure whose description carries text PostgreSQL cannot store, with U+FFFD in its place', async () => {
    const { reference, checkoutRequestId } = await prompt();
    daraja.answer(checkoutRequestId, 1032);
    const body = daraja.callbackBody(checkoutRequestId) as { Body: { stkCallback: Record<string, unknown> } };
    body.Body.stkCallback['ResultDesc'] = 'Request cancelled\u0000 by user\ud800';
    const answer = await fetch(daraja.lastPrompt().callbackUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(answer.status).toBe(200);
    expect(await paymentByReference(t.db, reference)).toMatchObject({
      status: 'cancelled',
      failureReason: 'Request cancelled\ufffd by user\ufffd',
    });
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

  it("credits a success whose callback does not report the amount (M-Pesa charges the prompt's amount)", async () => {
    const before = await liveBalance(t.db, t.organizationId);
    const { reference, checkoutRequestId } = await prompt(1100);
    daraja.answer(checkoutRequestId, 0);
    expect((await daraja.deliverCallback(checkoutRequestId, undefined, { omitItems: ['Amount'] })).status).toBe(200);
    expect(await paymentByReference(t.db, reference)).toMatchObject({ status: 'succeeded', failureReason: null });
    expect(await liveBalance(t.db, t.organizationId)).toBe(before + 1100);
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
    const payment = await paymentByReference(t.db, reference);
    daraja.answer(checkoutRequestId, 1032);
    daraja.behaviour('server_error');
    t.clock.advance(3 * MINUTE);
    expect(await t.reconcile()).toEqual({ checked: 1, settled: 0 });
    // Daraja's own failure is not its "being processed" answer: nothing was heard from it, nothing recorded.
    expect(await providerEventsOf(payment.id)).toEqual([]);
    expect(logs.lines).toContainEqual(
      expect.objectContaining({ level: 40, reference, msg: 'The provider could not be asked about a pending payment' }),
    );
    daraja.behaviour('normal');
    t.clock.advance(MINUTE);
    expect(await t.reconcile()).toEqual({ checked: 1, settled: 1 });
    expect((await paymentByReference(t.db, reference)).status).toBe('cancelled');
  });

  it('keeps a prompt pending while the query answers ResultCode 4999, still under processing', async () => {
    const { reference, checkoutRequestId } = await prompt(650);
    const payment = await paymentByReference(t.db, reference);
    daraja.answer(checkoutRequestId, 4999);
    t.clock.advance(3 * MINUTE);
    expect(await t.reconcile()).toEqual({ checked: 1, settled: 0 });
    expect((await paymentByReference(t.db, reference)).status).toBe('pending');
    expect((await providerEventsOf(payment.id)).map((event) => event.providerEventKey)).toEqual([
      `daraja:query:${checkoutRequestId}:processing`,
    ]);
    daraja.answer(checkoutRequestId, 0);
    t.clock.advance(MINUTE);
    expect(await t.reconcile()).toEqual({ checked: 1, settled: 1 });
    expect((await paymentByReference(t.db, reference)).status).toBe('succeeded');
  });
});

describe('Daraja unavailable or silent', () => {
  it('keeps a push that got no answer pending, refuses a retry with its key, and expires it once the prompt is over', async () => {
    daraja.behaviour('hang');
    const key = { 'idempotency-key': 'stk-timeout-1' };
    const response = await pay(100, key);
    expect(response.statusCode).toBe(503);
    const [payment] = await allPayments(t.db);
    if (payment === undefined) throw new Error('No payment was recorded');
    expect(response.json()).toMatchObject({
      success: false,
      code: 'provider_unavailable',
      error: expect.stringContaining(payment.reference),
    });
    // Daraja may have sent the prompt: the payment waits for the reconciliation job, which cannot query it
    // (no CheckoutRequestID) and closes it once the prompt can no longer be answered.
    expect(payment).toMatchObject({ status: 'pending', providerReference: null });

    daraja.behaviour('normal');
    const promptsBefore = daraja.prompts.size;
    const retry = await pay(100, key);
    expect(retry.statusCode).toBe(409);
    expect(retry.json()).toMatchObject({
      code: 'idempotency_key_in_use',
      error: expect.stringContaining(payment.reference),
    });
    expect(Number(retry.headers['retry-after'])).toBeGreaterThanOrEqual(60);
    expect(daraja.prompts.size).toBe(promptsBefore);

    t.clock.advance(2 * MINUTE);
    expect(await t.reconcile()).toEqual({ checked: 1, settled: 1 });
    expect(await paymentByReference(t.db, payment.reference)).toMatchObject({
      status: 'expired',
      failureReason: 'The M-Pesa prompt was never confirmed by the provider',
    });
    const again = await pay(100, key);
    expect(again.statusCode).toBe(200);
    expect(daraja.prompts.size).toBe(promptsBefore + 1);
  });

  it('treats a 5xx to the push as an unknown outcome too, not as a failure', async () => {
    daraja.behaviour('server_error');
    const response = await pay(100);
    expect(response.statusCode).toBe(503);
    const [payment] = await allPayments(t.db);
    expect(payment).toMatchObject({ status: 'pending', providerReference: null });
    t.clock.advance(2 * MINUTE);
    await t.reconcile();
    expect((await paymentByReference(t.db, payment?.reference ?? '')).status).toBe('expired');
  });

  it('raises an alarm for a success callback of a push whose answer never came, and keeps it for support', async () => {
    const before = await liveBalance(t.db, t.organizationId);
    const alarmsBefore = await alarmsRaised(t.app, 'unmatched_success');
    daraja.behaviour('hang_after_processing');
    expect((await pay(250)).statusCode).toBe(503);
    daraja.behaviour('normal');

    // The customer saw the prompt all the same, and paid.
    const { checkoutRequestId } = daraja.lastPrompt();
    daraja.answer(checkoutRequestId, 0);
    expect(await daraja.deliverCallback(checkoutRequestId)).toEqual({
      status: 200,
      body: '{"ResultCode":0,"ResultDesc":"Accepted"}',
    });

    const kept = await t.db.select().from(paymentEvents).where(isNull(paymentEvents.paymentId));
    expect(kept).toEqual([
      expect.objectContaining({
        providerEventKey: `daraja:callback:${checkoutRequestId}:0`,
        source: 'daraja_callback',
      }),
    ]);
    expect(await alarmsRaised(t.app, 'unmatched_success')).toBe(alarmsBefore + 1);
    expect(alarmLines('unmatched_success')).toEqual([
      expect.objectContaining({ checkoutRequestId, payer: { phone: '254708374149', amount: 250 } }),
    ]);
    // Nothing guesses which payment it was: support credits it by hand.
    expect(await liveBalance(t.db, t.organizationId)).toBe(before);
    const [payment] = await allPayments(t.db);
    t.clock.advance(2 * MINUTE);
    await t.reconcile();
    expect((await paymentByReference(t.db, payment?.reference ?? '')).status).toBe('expired');
  });

  it('raises the alarm for a success that came while the push was still waiting for its answer, once that answer is lost', async () => {
    const alarmsBefore = await alarmsRaised(t.app, 'unmatched_success');
    daraja.behaviour('hang_after_processing');
    // The push stays unanswered until the test runs its time limit out, after the callback has come.
    daraja.server.onHang = undefined;
    const promptsBefore = daraja.prompts.size;
    const paying = pay(300);
    await eventually(async () => daraja.prompts.size > promptsBefore);
    const { checkoutRequestId } = daraja.lastPrompt();
    daraja.answer(checkoutRequestId, 0);
    // While the push waits, the callback may simply have overtaken Daraja's answer: a warning, no alarm yet.
    expect((await daraja.deliverCallback(checkoutRequestId)).status).toBe(200);
    expect(await alarmsRaised(t.app, 'unmatched_success')).toBe(alarmsBefore);

    t.timeouts.expire(`${daraja.url}/mpesa/stkpush/v1/processrequest`);
    expect((await paying).statusCode).toBe(503);
    const [payment] = await allPayments(t.db);
    expect(await alarmsRaised(t.app, 'unmatched_success')).toBe(alarmsBefore + 1);
    expect(alarmLines('unmatched_success')).toEqual([
      expect.objectContaining({ checkoutRequestId, pushOf: payment?.reference }),
    ]);
  });
});
