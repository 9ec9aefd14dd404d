import { paymentEvents, paymentMethods, payments } from '@platform/db/schema';
import { desc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { missing, postgresServer } from '#test-prerequisites';
import { eventually } from '#test-timing';
import { useBillingAppWithProviders } from '../../../../test/billing-app-with-providers.js';
import {
  type BillingTestApp,
  CONFIRMATION_DELAY_MS,
  liveBalance,
  notificationsOf,
  PAYER_ID,
  paymentByReference,
  topUpsOf,
  transitionsOf,
} from '../../../../test/billing-fixtures.js';
import type { FakeDaraja } from '../../../../test/fake-daraja.js';
import type { FakePaystack } from '../../../../test/fake-paystack.js';

// Races need real concurrent connections: PGlite runs one query at a time, so these run on PostgreSQL only
// (CI sets DATABASE_URL).
describe.skipIf(missing(postgresServer))(
  'concurrent provider callbacks (PostgreSQL only: PGlite has no concurrent transactions)',
  () => {
    const billing = useBillingAppWithProviders({ paystack: true, maxConnections: 12 });
    let t: BillingTestApp;
    let paystack: FakePaystack;
    let daraja: FakeDaraja;
    beforeAll(() => {
      ({ t, paystack, daraja } = billing);
    });

    async function pay(body: object): Promise<string> {
      const response = await t.app.inject({
        method: 'POST',
        url: '/v1/billing/pay',
        headers: await t.headers(),
        payload: body,
      });
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
      const told = (await notificationsOf(t.db, PAYER_ID)).filter((note) => note.message.includes(reference));
      expect(told.map((note) => note.title).sort()).toEqual(['Payment received', 'Receipt issued']);
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
      const queriesBefore = daraja.server.requests.filter(
        (request) => request.url === '/mpesa/stkpushquery/v1/query',
      ).length;
      t.clock.advance(3 * 60_000);
      const rounds = await Promise.all([t.reconcile(), t.reconcile(), t.reconcile()]);
      expect(rounds.reduce((sum, round) => sum + round.checked, 0)).toBe(6);
      const queries = daraja.server.requests.filter((request) => request.url === '/mpesa/stkpushquery/v1/query').length;
      expect(queries - queriesBefore).toBe(6);
      const stillPending = await t.db.select().from(payments).where(eq(payments.status, 'pending'));
      expect(stillPending.map((payment) => payment.reference).sort()).toEqual([...references].sort());
    });
  },
);

// A saved-card charge whose answer never came (503) may still succeed at Paystack. Retries with the same
// idempotency key, however many and however timed, must not start a second charge while it is unknown, must
// get its success once it is known, and may charge again only once it is known to have failed.
describe.skipIf(missing(postgresServer))(
  'retries of a charge whose outcome is unknown (PostgreSQL only: PGlite has no concurrent transactions)',
  () => {
    const billing = useBillingAppWithProviders({ daraja: false, paystack: true, maxConnections: 12 });
    let t: BillingTestApp;
    let paystack: FakePaystack;
    beforeAll(() => {
      ({ t, paystack } = billing);
    });

    async function savedCard(authorization: 'approved' | 'declined') {
      const checkout = await t.app.inject({
        method: 'POST',
        url: '/v1/billing/pay',
        headers: await t.headers(),
        payload: { method: 'card', amount: 100 },
      });
      const { reference } = checkout.json() as { reference: string };
      paystack.completeCheckout(reference);
      await paystack.deliverWebhook(paystack.chargeSuccessEvent(reference));
      const [card] = await t.db
        .select()
        .from(paymentMethods)
        .where(eq(paymentMethods.organizationId, t.organizationId))
        .orderBy(desc(paymentMethods.updatedAt));
      if (card?.authorizationCode === null || card === undefined) throw new Error('The card was not saved');
      if (authorization === 'approved') paystack.approvedAuthorizations.add(card.authorizationCode);
      else paystack.approvedAuthorizations.delete(card.authorizationCode);
      return card;
    }

    const savedCardPayments = async () =>
      (await t.db.select().from(payments).where(eq(payments.method, 'saved_method'))).sort(
        (a, b) => a.createdAt.getTime() - b.createdAt.getTime(),
      );

    it('charges once, answers 409 while the charge is unknown, and replays its success once the job has confirmed it', async () => {
      const card = await savedCard('approved');
      const before = await liveBalance(t.db, t.organizationId);
      const body = { method: 'saved_method', amount: 2500, paymentMethodId: card.id };
      const pay = async () =>
        t.app.inject({
          method: 'POST',
          url: '/v1/billing/pay',
          headers: await t.headers({ 'idempotency-key': 'race-lost-answer' }),
          payload: body,
        });
      const chargesBefore = paystack.charges().length;
      const charges = () => paystack.charges().length - chargesBefore;

      paystack.behaviour('hang_after_processing');
      const first = pay();
      await eventually(async () => charges() === 1);
      // While the first request waits for Paystack, its key is held: retries get 409 at once. It waits until the
      // test runs its time limit out.
      const during = await Promise.all(Array.from({ length: 6 }, pay));
      expect(during.map((response) => response.statusCode)).toEqual(Array(6).fill(409));
      t.timeouts.expire(`${paystack.url}/transaction/charge_authorization`);
      expect((await first).statusCode).toBe(503);
      paystack.behaviour('normal');
      const [payment] = await savedCardPayments();
      if (payment === undefined) throw new Error('No saved-card payment was recorded');
      expect(payment.status).toBe('pending');

      // The 503 released the key, but the payment it started is still unknown: every retry is refused.
      const after = await Promise.all(Array.from({ length: 8 }, pay));
      for (const response of after) {
        expect(response.statusCode).toBe(409);
        expect(response.json().code).toBe('idempotency_key_in_use');
      }
      expect(
        after.filter((response) => String(response.json().error).includes(payment.reference)).length,
      ).toBeGreaterThanOrEqual(1);
      expect(charges()).toBe(1);
      expect(await savedCardPayments()).toHaveLength(1);

      t.clock.advance(CONFIRMATION_DELAY_MS);
      expect(await t.reconcile()).toEqual({ checked: 1, settled: 1 });
      const confirmed = await Promise.all(Array.from({ length: 8 }, pay));
      for (const response of confirmed) expect([200, 409]).toContain(response.statusCode);
      const answered = confirmed.filter((response) => response.statusCode === 200);
      expect(answered.length).toBeGreaterThanOrEqual(1);
      for (const response of answered) {
        expect(response.headers['idempotent-replayed']).toBe('true');
        expect(response.json()).toEqual({
          success: true,
          message: 'Payment of KES 2,500 successful.',
          reference: payment.reference,
        });
      }

      expect(charges()).toBe(1);
      expect(await savedCardPayments()).toHaveLength(1);
      expect(await topUpsOf(t.db, payment.reference)).toBe(1);
      expect(await liveBalance(t.db, t.organizationId)).toBe(before + 2500);
    });

    it('charges again exactly once when retries race after the unknown charge turned out declined', async () => {
      const card = await savedCard('declined');
      const body = { method: 'saved_method', amount: 1800, paymentMethodId: card.id };
      const pay = async () =>
        t.app.inject({
          method: 'POST',
          url: '/v1/billing/pay',
          headers: await t.headers({ 'idempotency-key': 'race-declined' }),
          payload: body,
        });
      const known = new Set((await savedCardPayments()).map((payment) => payment.reference));

      paystack.behaviour('reset_after_processing');
      expect((await pay()).statusCode).toBe(503);
      paystack.behaviour('normal');
      const lost = (await savedCardPayments()).find((payment) => !known.has(payment.reference));
      if (lost === undefined) throw new Error('No saved-card payment was recorded');
      t.clock.advance(CONFIRMATION_DELAY_MS);
      await t.reconcile();
      expect(await paymentByReference(t.db, lost.reference)).toMatchObject({
        status: 'failed',
        failureReason: 'Declined',
      });

      paystack.approvedAuthorizations.add(card.authorizationCode ?? '');
      const chargesBefore = paystack.charges().length;
      const retries = await Promise.all(Array.from({ length: 8 }, pay));
      for (const response of retries) expect([200, 409]).toContain(response.statusCode);
      const fresh = (await savedCardPayments()).filter(
        (payment) => !known.has(payment.reference) && payment.reference !== lost.reference,
      );
      expect(fresh.map((payment) => payment.status)).toEqual(['succeeded']);
      expect(paystack.charges().length - chargesBefore).toBe(1);
      for (const response of retries.filter((answer) => answer.statusCode === 200)) {
        expect(response.json().reference).toBe(fresh[0]?.reference);
      }
    });
  },
);
