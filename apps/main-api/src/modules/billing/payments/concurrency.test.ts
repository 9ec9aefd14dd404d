import { paymentEvents, payments } from '@platform/db';
import { eq } from 'drizzle-orm';
import { missing, postgresServer } from '#test-prerequisites';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BillingTestApp,
  liveBalance,
  notificationsOf,
  PAYER_ID,
  paymentByReference,
  startBillingApp,
  topUpsOf,
  transitionsOf,
} from '../../../../test/billing-fixtures.js';
import { type FakeDaraja, fakeDarajaEnv, startFakeDaraja } from '../../../../test/fake-daraja.js';
import { FAKE_PAYSTACK_SECRET, type FakePaystack, startFakePaystack } from '../../../../test/fake-paystack.js';

// Races need real concurrent connections: PGlite runs one query at a time, so these run on PostgreSQL only
// (CI sets DATABASE_URL).
describe.skipIf(missing(postgresServer))('concurrent provider callbacks (PostgreSQL only: PGlite has no concurrent transactions)', () => {
  let t: BillingTestApp;
  let paystack: FakePaystack;
  let daraja: FakeDaraja;

  beforeAll(async () => {
    paystack = await startFakePaystack();
    daraja = await startFakeDaraja();
    t = await startBillingApp({
      listen: true,
      maxConnections: 12,
      env: { PAYSTACK_SECRET_KEY: FAKE_PAYSTACK_SECRET, PAYSTACK_BASE_URL: paystack.url, ...fakeDarajaEnv(daraja.url) },
    });
    paystack.webhookUrl = `${t.url}/v1/billing/webhooks/paystack`;
  });
  afterAll(async () => {
    await t?.close();
    await paystack?.close();
    await daraja?.close();
  });

  async function pay(body: object): Promise<string> {
    const response = await t.app.inject({ method: 'POST', url: '/v1/billing/pay', headers: await t.headers(), payload: body });
    expect(response.statusCode).toBe(200);
    return (response.json() as { reference: string }).reference;
  }

  it('credits the wallet once for 10 identical M-Pesa success callbacks sent at once', async () => {
    const before = await liveBalance(t.db, t.organizationId);
    const reference = await pay({ method: 'mobile_money', amount: 1234, phone: '0712345678' });
    const { checkoutRequestId } = daraja.lastPrompt();
    daraja.answer(checkoutRequestId, 0);

    const answers = await Promise.all(Array.from({ length: 10 }, () => daraja.deliverCallback(checkoutRequestId)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));

    expect(await liveBalance(t.db, t.organizationId)).toBe(before + 1234);
    expect(await topUpsOf(t.db, reference)).toBe(1);
    const payment = await paymentByReference(t.db, reference);
    expect(await transitionsOf(t.db, payment.id)).toEqual(['pending->succeeded']);
    const events = await t.db.select().from(paymentEvents).where(eq(paymentEvents.paymentId, payment.id));
    expect(events.filter((event) => event.type === 'provider_event')).toHaveLength(1);
    const receipts = (await notificationsOf(t.db, PAYER_ID)).filter((note) => note.message.includes(reference));
    expect(receipts).toHaveLength(1);
  });

  it('credits the wallet once for 10 identical signed Paystack webhooks sent at once', async () => {
    const before = await liveBalance(t.db, t.organizationId);
    const reference = await pay({ method: 'card', amount: 4321 });
    paystack.completeCheckout(reference);
    const event = paystack.chargeSuccessEvent(reference);

    const answers = await Promise.all(Array.from({ length: 10 }, () => paystack.deliverWebhook(event)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));

    expect(await liveBalance(t.db, t.organizationId)).toBe(before + 4321);
    expect(await topUpsOf(t.db, reference)).toBe(1);
    const payment = await paymentByReference(t.db, reference);
    expect(await transitionsOf(t.db, payment.id)).toEqual(['pending->succeeded']);
  });

  it('checks each stale payment once when several reconcilers run at the same time', async () => {
    const references: string[] = [];
    for (let index = 0; index < 6; index += 1) {
      references.push(await pay({ method: 'mobile_money', amount: 100 + index, phone: '0712345678' }));
    }
    const queriesBefore = daraja.server.requests.filter((request) => request.url === '/mpesa/stkpushquery/v1/query').length;
    t.clock.advance(3 * 60_000);
    const rounds = await Promise.all([t.reconcile(), t.reconcile(), t.reconcile()]);
    expect(rounds.reduce((sum, round) => sum + round.checked, 0)).toBe(6);
    const queries = daraja.server.requests.filter((request) => request.url === '/mpesa/stkpushquery/v1/query').length;
    expect(queries - queriesBefore).toBe(6);
    const stillPending = await t.db.select().from(payments).where(eq(payments.status, 'pending'));
    expect(stillPending.map((payment) => payment.reference).sort()).toEqual([...references].sort());
  });
});
