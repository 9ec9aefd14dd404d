import { notifications } from '@platform/db/schema';
import { quote } from '@platform/pricing';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { missing, postgresServer } from '#test-prerequisites';
import {
  allInvoices,
  confirmTransfer,
  payByTransfer,
  SELLER_WITH_BANK,
  startTransferApp,
  type TransferTestApp,
} from '../../../../test/bank-transfer-fixtures.js';
import { PAYER_ID, paymentByReference } from '../../../../test/billing-fixtures.js';
import {
  changesOf,
  clearBilling,
  subscriptionChargesOf,
  subscriptionOf,
} from '../../../../test/subscription-fixtures.js';

// Renewals paid by bank transfer (renew-invoice.ts, docs/decisions.md#renewal-invoices), on PostgreSQL with the app's clock moved: a
// subscription bought by bank transfer has its renewal invoiced 14 days ahead, once however many instances run the
// job; finance's confirmation renews it once, on the renewal date; unpaid, it is retried on days 1, 3 and 5 and then
// expires; a cancel voids the invoice and a resume issues it again.

const MINUTE = 60 * 1000;
const DAY = 24 * 60 * MINUTE;
const PURCHASE = { type: 'mail_subscription', plan: 'growth', seats: 5_001, billingCycle: 'yearly' } as const;
const PRICE = quote({ plan: 'growth', seats: 5_001, cycle: 'yearly' }).total;
const BOUGHT_AT = new Date('2026-01-10T09:00:00.000Z');

describe.skipIf(missing(postgresServer))('renewal invoices for subscriptions paid by bank transfer', () => {
  let t: TransferTestApp;
  let renewsAt: number;
  let bankReferences = 0;

  beforeAll(async () => {
    t = await startTransferApp({ env: SELLER_WITH_BANK });
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(async () => {
    await clearBilling(t.db);
    t.clock.set(BOUGHT_AT);
    const paid = await payByTransfer(t, { amount: 0, metadata: PURCHASE });
    expect(paid.statusCode, paid.body).toBe(200);
    await confirmExact(paid.json().reference, PRICE);
    const subscription = await subscriptionOf(t.db, t.organizationId);
    expect(subscription).toMatchObject({ status: 'active', seats: 5_001, paymentMethodId: null });
    renewsAt = subscription.currentPeriodEnd.getTime();
  });

  async function confirmExact(reference: string, amount: number) {
    bankReferences += 1;
    return confirmTransfer(t, reference, { amountReceived: amount, bankReference: `FT${bankReferences}RENEW` });
  }

  async function renewAt(at: number) {
    t.clock.set(new Date(at));
    return t.renew();
  }

  async function messagesTitled(title: string) {
    const rows = await t.db
      .select({ message: notifications.message })
      .from(notifications)
      .where(and(eq(notifications.userId, PAYER_ID), eq(notifications.title, title)));
    return rows.map((row) => row.message);
  }

  async function renewalInvoices() {
    return (await subscriptionChargesOf(t.db, t.organizationId)).filter(
      (payment) => payment.purpose === 'mail_subscription_renewal',
    );
  }

  async function issueInvoice() {
    expect(await renewAt(renewsAt - 14 * DAY + MINUTE)).toMatchObject({ invoiced: 1 });
    const [payment] = await renewalInvoices();
    if (payment === undefined) throw new Error('No renewal invoice');
    return payment;
  }

  it('issues the renewal invoice 14 days ahead, once, with several job instances at once', async () => {
    expect(await renewAt(renewsAt - 14 * DAY - MINUTE)).toMatchObject({ invoiced: 0 });
    t.clock.set(new Date(renewsAt - 14 * DAY + MINUTE));
    const rounds = await Promise.all([t.renew(), t.renew(), t.renew(), t.renew()]);
    expect(rounds.reduce((sum, round) => sum + round.invoiced, 0)).toBe(1);
    expect(await renewAt(renewsAt - 10 * DAY)).toMatchObject({ invoiced: 0 });

    const [payment, ...others] = await renewalInvoices();
    expect(others).toHaveLength(0);
    expect(payment).toMatchObject({
      status: 'pending',
      method: 'bank_transfer',
      amount: PRICE,
      plan: 'growth',
      seats: 5_001,
      billingCycle: 'yearly',
    });
    const invoices = await allInvoices(t.db);
    const [purchaseNumber, renewalNumber] = invoices.map((invoice) => invoice.number);
    expect(Number(renewalNumber?.slice(4))).toBe(Number(purchaseNumber?.slice(4)) + 1);
    expect(invoices[1]).toMatchObject({ paymentReference: payment?.reference, total: PRICE });
    expect(invoices[1]?.dueAt.getTime()).toBe(renewsAt);
    expect(await messagesTitled('Invoice issued')).toEqual([
      expect.stringContaining(`Invoice ${purchaseNumber}`),
      expect.stringContaining(`Invoice ${renewalNumber}`),
    ]);
    // Its page dates the period and the payment from the renewal, not from the confirmation.
    const page = await t.app.inject({
      method: 'GET',
      url: `/v1/billing/payments/${payment?.reference}/invoice`,
      headers: await t.headers(),
    });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.body).toContain('Mail subscription renewal');
    expect(page.body).toMatch(/One year from the renewal on \d/);
    expect(page.body).toMatch(/Payable by the renewal on \d/);
    expect(page.body).not.toContain('from the day the transfer is confirmed');
    // The reminders that follow name the invoice rather than a card.
    await renewAt(renewsAt - 7 * DAY + MINUTE);
    expect(await messagesTitled('Mail subscription renews in 7 days')).toEqual([
      expect.stringContaining(`KES 4,500,900 is due by bank transfer on invoice ${renewalNumber}`),
    ]);
  });

  it('renews once when finance confirms the exact amount, on the renewal date', async () => {
    const payment = await issueInvoice();
    t.clock.set(new Date(renewsAt - 10 * DAY));
    const confirmed = await confirmExact(payment.reference, PRICE);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().data.outcome).toBe('applied');
    expect(await paymentByReference(t.db, payment.reference)).toMatchObject({ status: 'succeeded' });
    // Paid ahead: the current period runs its course.
    expect((await subscriptionOf(t.db, t.organizationId)).currentPeriodEnd.getTime()).toBe(renewsAt);

    await renewAt(renewsAt - DAY + MINUTE);
    expect(await messagesTitled('Mail subscription renews tomorrow')).toEqual([
      expect.stringMatching(/: invoice INV-\d{6} \(KES 4,500,900\) is paid\./),
    ]);
    expect(await renewAt(renewsAt + MINUTE)).toMatchObject({ renewed: 1, failed: 0 });
    expect(await messagesTitled('Mail subscription renewed')).toEqual([
      expect.stringContaining(`paid by bank transfer (${payment.reference})`),
    ]);
    const renewed = await subscriptionOf(t.db, t.organizationId);
    expect(renewed).toMatchObject({ status: 'active', seats: 5_001, periodIndex: 1 });
    expect(renewed.currentPeriodStart.getTime()).toBe(renewsAt);
    expect(await renewAt(renewsAt + 2 * MINUTE)).toMatchObject({ renewed: 0, invoiced: 0 });
    const renewals = (await changesOf(t.db, t.organizationId)).filter((change) => change.kind === 'renewal');
    expect(renewals.map((change) => change.status)).toEqual(['applied']);
    expect((await confirmExact(payment.reference, PRICE)).statusCode).toBe(409);
  });

  it('confirmed on the renewal date while job instances run, renews once', async () => {
    const payment = await issueInvoice();
    t.clock.set(new Date(renewsAt + MINUTE));
    const [confirmed] = await Promise.all([confirmExact(payment.reference, PRICE), t.renew(), t.renew()]);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    await renewAt(renewsAt + 2 * MINUTE);
    const renewed = await subscriptionOf(t.db, t.organizationId);
    // Either the job counted a failure first (past_due, then the confirmation renewed it) or the confirmation came
    // first: renewed once, to the next period, either way.
    expect(renewed).toMatchObject({ status: 'active', periodIndex: 1, renewalFailures: 0 });
    const renewals = (await changesOf(t.db, t.organizationId)).filter((change) => change.kind === 'renewal');
    expect(renewals.map((change) => change.status)).toEqual(['applied']);
    expect(await paymentByReference(t.db, payment.reference)).toMatchObject({ status: 'succeeded' });
  });

  it('unpaid on the renewal date: past_due, retried on days 1, 3 and 5, then expired and the invoice voided', async () => {
    const payment = await issueInvoice();
    expect(await renewAt(renewsAt + MINUTE)).toMatchObject({ failed: 1 });
    expect(await subscriptionOf(t.db, t.organizationId)).toMatchObject({ status: 'past_due', renewalFailures: 1 });
    expect(await renewAt(renewsAt + DAY - 2 * MINUTE)).toMatchObject({ failed: 0 });
    expect(await renewAt(renewsAt + DAY + 2 * MINUTE)).toMatchObject({ failed: 1 });
    expect(await renewAt(renewsAt + 3 * DAY + 2 * MINUTE)).toMatchObject({ failed: 1 });
    expect(await paymentByReference(t.db, payment.reference)).toMatchObject({ status: 'pending' });
    expect(await renewAt(renewsAt + 5 * DAY + 2 * MINUTE)).toMatchObject({ expired: 1 });
    expect(await subscriptionOf(t.db, t.organizationId)).toMatchObject({ status: 'expired' });
    expect(await paymentByReference(t.db, payment.reference)).toMatchObject({ status: 'cancelled' });
    expect((await confirmExact(payment.reference, PRICE)).statusCode).toBe(409);
  });

  it('confirmed while past_due, renews at once', async () => {
    const payment = await issueInvoice();
    expect(await renewAt(renewsAt + MINUTE)).toMatchObject({ failed: 1 });
    await renewAt(renewsAt + DAY + 2 * MINUTE);
    t.clock.set(new Date(renewsAt + 2 * DAY));
    const confirmed = await confirmExact(payment.reference, PRICE);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const renewed = await subscriptionOf(t.db, t.organizationId);
    expect(renewed).toMatchObject({ status: 'active', periodIndex: 1, renewalFailures: 0, pastDueSince: null });
    expect(renewed.currentPeriodStart.getTime()).toBe(renewsAt);
    expect(await renewAt(renewsAt + 3 * DAY + 2 * MINUTE)).toMatchObject({ failed: 0, renewed: 0, expired: 0 });
  });

  it('a cancel voids the invoice; a resume issues a new one while the renewal is still ahead', async () => {
    const payment = await issueInvoice();
    t.clock.set(new Date(renewsAt - 5 * DAY));
    const canceled = await t.app.inject({
      method: 'POST',
      url: '/v1/billing/subscription/cancel',
      headers: await t.headers(),
    });
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect(await paymentByReference(t.db, payment.reference)).toMatchObject({ status: 'cancelled' });
    expect((await confirmExact(payment.reference, PRICE)).statusCode).toBe(409);
    expect(await renewAt(renewsAt - 5 * DAY + MINUTE)).toMatchObject({ invoiced: 0 });

    t.clock.set(new Date(renewsAt - 4 * DAY));
    const resumed = await t.app.inject({
      method: 'POST',
      url: '/v1/billing/subscription/resume',
      headers: await t.headers(),
    });
    expect(resumed.statusCode, resumed.body).toBe(200);
    expect(await renewAt(renewsAt - 4 * DAY + MINUTE)).toMatchObject({ invoiced: 1 });
    const pending = (await renewalInvoices()).filter((renewal) => renewal.status === 'pending');
    expect(pending).toHaveLength(1);
    expect(pending[0]?.reference).not.toBe(payment.reference);
  });

  it('a cancel set before the renewal date ends it then, charging nothing', async () => {
    await issueInvoice();
    t.clock.set(new Date(renewsAt - DAY));
    const canceled = await t.app.inject({
      method: 'POST',
      url: '/v1/billing/subscription/cancel',
      headers: await t.headers(),
    });
    expect(canceled.statusCode).toBe(200);
    expect(await renewAt(renewsAt + MINUTE)).toMatchObject({ canceled: 1, invoiced: 0 });
    expect(await subscriptionOf(t.db, t.organizationId)).toMatchObject({ status: 'canceled' });
  });
});
