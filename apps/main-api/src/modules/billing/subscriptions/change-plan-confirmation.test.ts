import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { missing, postgresServer } from '#test-prerequisites';
import { type BillingTestApp, CONFIRMATION_DELAY_MS, startBillingApp } from '../../../../test/billing-fixtures.js';
import { FAKE_PAYSTACK_SECRET, type FakePaystack } from '../../../../test/fake-paystack.js';
import { useSubscriptionApp } from '../../../../test/subscription-app.js';
import {
  changesOf,
  creditBalanceOf,
  insertSavedCard,
  insertSubscription,
  subscriptionChargesOf,
  subscriptionOf,
} from '../../../../test/subscription-fixtures.js';

// An upgrade (change-plan.ts) whose card charge is not confirmed at once (Paystack answers "pending", or its answer
// never comes): 202, the reconciliation job settles the charge later, the change applies exactly once, and a
// retry with the same Idempotency-Key answers from where the change stands, never charging again.

const core10 = { plan: 'core', seats: 10, cycle: 'monthly', anchor: '2024-01-01' } as const;
const APPLIED =
  'Mail subscription upgraded. Now on the growth plan, 25 mailboxes, billed monthly, until 2024-02-01. KES 1,331 charged to the card';

// A charge Paystack leaves unanswered times out at once, not after PROVIDER_TIMEOUT_MS.
const suite = useSubscriptionApp({ paystack: { hangsTimeOut: true }, clearIdempotencyRecords: true });
let t: BillingTestApp;
let paystack: FakePaystack;
beforeAll(() => {
  ({ t, paystack } = suite);
});
beforeEach(() => {
  paystack.behaviour('normal');
  t.clock.set(new Date('2024-01-17T10:00:00.000Z'));
});

async function upgradeToGrowth(paymentMethodId: string, key: string) {
  return t.app.inject({
    method: 'POST',
    url: '/v1/billing/upgrade',
    headers: await t.headers({ 'idempotency-key': key }),
    payload: { newPlan: 'growth', newSeats: 25, newCycle: 'monthly', paymentMethodId },
  });
}

async function onlyCharge() {
  const charges = await subscriptionChargesOf(t.db, t.organizationId);
  expect(charges).toHaveLength(1);
  const [charge] = charges;
  if (charge === undefined) throw new Error('No charge was recorded');
  return charge;
}

async function reconcileLater() {
  t.clock.advance(CONFIRMATION_DELAY_MS);
  return t.reconcile();
}

describe('an upgrade whose card charge is confirmed later', () => {
  it('answers 202 while Paystack reports the charge pending, and the final answer once the job settles it', async () => {
    await insertSubscription(t.db, t.organizationId, core10);
    paystack.pendingAuthorizations.add('AUTH_pending');
    const card = await insertSavedCard(t.db, t.organizationId, {
      provider: 'paystack',
      authorizationCode: 'AUTH_pending',
    });
    const chargesBefore = paystack.charges().length;

    const first = await upgradeToGrowth(card, 'upgrade-pending-1');
    expect(first.statusCode).toBe(202);
    const charge = await onlyCharge();
    expect(first.json()).toEqual({
      success: true,
      message: `The card payment (${charge.reference}) is being confirmed; the change applies as soon as it succeeds.`,
    });
    expect(charge.status).toBe('pending');

    // A retry while it is being confirmed: the same 202, rebuilt, and no second charge.
    const retried = await upgradeToGrowth(card, 'upgrade-pending-1');
    expect(retried.statusCode).toBe(202);
    expect(retried.json()).toEqual(first.json());
    expect(retried.headers['idempotent-replayed']).toBe('true');
    expect(paystack.charges().length - chargesBefore).toBe(1);
    expect(await subscriptionOf(t.db, t.organizationId)).toMatchObject({ plan: 'core', seats: 10 });

    // The bank answers; the reconciliation job's lookup settles the charge and the change applies.
    paystack.settleCharge(charge.reference, 'success');
    expect(await reconcileLater()).toEqual({ checked: 1, settled: 1 });
    expect(await subscriptionOf(t.db, t.organizationId)).toMatchObject({
      plan: 'growth',
      seats: 25,
      paymentMethodId: card,
    });
    expect((await changesOf(t.db, t.organizationId)).map((change) => change.status)).toEqual(['applied']);

    // The retry now sees the change applied, as the first request would have said had the bank been quick.
    const settled = await upgradeToGrowth(card, 'upgrade-pending-1');
    expect(settled.statusCode).toBe(200);
    expect(settled.headers['idempotent-replayed']).toBe('true');
    expect(settled.json()).toEqual({ success: true, message: `${APPLIED} (${charge.reference}).` });
    const again = await upgradeToGrowth(card, 'upgrade-pending-1');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(settled.json());

    // Exactly once: one charge, one change, nothing left as credit, and later rounds change nothing.
    expect(await reconcileLater()).toEqual({ checked: 0, settled: 0 });
    expect(paystack.charges().length - chargesBefore).toBe(1);
    expect((await subscriptionChargesOf(t.db, t.organizationId)).map((payment) => payment.status)).toEqual([
      'succeeded',
    ]);
    expect(await creditBalanceOf(t.db, t.organizationId)).toBe(0);
  });

  it('answers 202 when the charge got no answer, and applies the change once Paystack confirms it was made', async () => {
    await insertSubscription(t.db, t.organizationId, core10);
    paystack.approvedAuthorizations.add('AUTH_silent');
    const card = await insertSavedCard(t.db, t.organizationId, {
      provider: 'paystack',
      authorizationCode: 'AUTH_silent',
    });

    paystack.behaviour('hang_after_processing');
    const first = await upgradeToGrowth(card, 'upgrade-silent-1');
    expect(first.statusCode).toBe(202);
    const charge = await onlyCharge();
    expect(charge).toMatchObject({ status: 'pending', providerReference: charge.reference });
    expect(paystack.transactions.get(charge.reference)?.status).toBe('success');

    paystack.behaviour('normal');
    expect(await reconcileLater()).toEqual({ checked: 1, settled: 1 });
    expect(await subscriptionOf(t.db, t.organizationId)).toMatchObject({ plan: 'growth', seats: 25 });
    const retried = await upgradeToGrowth(card, 'upgrade-silent-1');
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toEqual({ success: true, message: `${APPLIED} (${charge.reference}).` });
    expect((await changesOf(t.db, t.organizationId)).map((change) => change.status)).toEqual(['applied']);
    expect(await creditBalanceOf(t.db, t.organizationId)).toBe(0);
  });

  it('releases the change when Paystack never saw the charge, and lets a retry with the same key pay', async () => {
    await insertSubscription(t.db, t.organizationId, core10);
    paystack.approvedAuthorizations.add('AUTH_lost');
    const card = await insertSavedCard(t.db, t.organizationId, {
      provider: 'paystack',
      authorizationCode: 'AUTH_lost',
    });

    paystack.behaviour('hang');
    expect((await upgradeToGrowth(card, 'upgrade-lost-1')).statusCode).toBe(202);
    const lost = await onlyCharge();
    expect(paystack.transactions.has(lost.reference)).toBe(false);

    paystack.behaviour('normal');
    expect(await reconcileLater()).toEqual({ checked: 1, settled: 1 });
    expect((await subscriptionChargesOf(t.db, t.organizationId)).map((payment) => payment.status)).toEqual(['failed']);
    expect((await changesOf(t.db, t.organizationId)).map((change) => change.status)).toEqual(['failed']);
    expect(await subscriptionOf(t.db, t.organizationId)).toMatchObject({ plan: 'core', seats: 10 });

    const retried = await upgradeToGrowth(card, 'upgrade-lost-1');
    expect(retried.statusCode).toBe(200);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    const charges = await subscriptionChargesOf(t.db, t.organizationId);
    expect(charges.map((payment) => payment.status)).toEqual(['failed', 'succeeded']);
    expect(retried.json()).toEqual({ success: true, message: `${APPLIED} (${charges[1]?.reference}).` });
    expect((await changesOf(t.db, t.organizationId)).map((change) => change.status)).toEqual(['failed', 'applied']);
  });
});

// Races need real concurrent connections: PGlite runs one query at a time, so this runs on PostgreSQL only
// (CI sets DATABASE_URL).
describe.skipIf(missing(postgresServer))('retries of an unconfirmed upgrade at the same time (PostgreSQL only)', () => {
  let pg: BillingTestApp;

  beforeAll(async () => {
    pg = await startBillingApp({
      maxConnections: 12,
      env: { PAYSTACK_SECRET_KEY: FAKE_PAYSTACK_SECRET, PAYSTACK_BASE_URL: paystack.url },
    });
  });
  afterAll(async () => {
    await pg?.close();
  });

  it('charges once however many retries race while the charge is being confirmed, and answers them all from its state', async () => {
    pg.clock.set(new Date('2024-01-17T10:00:00.000Z'));
    await insertSubscription(pg.db, pg.organizationId, core10);
    paystack.pendingAuthorizations.add('AUTH_race');
    const card = await insertSavedCard(pg.db, pg.organizationId, {
      provider: 'paystack',
      authorizationCode: 'AUTH_race',
    });
    const chargesBefore = paystack.charges().length;
    const upgrade = async () =>
      pg.app.inject({
        method: 'POST',
        url: '/v1/billing/upgrade',
        headers: await pg.headers({ 'idempotency-key': 'upgrade-race-1' }),
        payload: { newPlan: 'growth', newSeats: 25, newCycle: 'monthly', paymentMethodId: card },
      });

    // The first request and its retries at once: one charges, the others wait (409) or see it pending (202).
    const firstWave = await Promise.all(Array.from({ length: 8 }, upgrade));
    for (const response of firstWave) expect([202, 409]).toContain(response.statusCode);
    expect(firstWave.filter((response) => response.statusCode === 202).length).toBeGreaterThanOrEqual(1);
    const [charge, ...others] = await subscriptionChargesOf(pg.db, pg.organizationId);
    expect(others).toEqual([]);
    if (charge === undefined) throw new Error('No charge was recorded');

    const secondWave = await Promise.all(Array.from({ length: 8 }, upgrade));
    for (const response of secondWave) expect([202, 409]).toContain(response.statusCode);

    paystack.settleCharge(charge.reference, 'success');
    pg.clock.advance(CONFIRMATION_DELAY_MS);
    expect(await pg.reconcile()).toEqual({ checked: 1, settled: 1 });
    const thirdWave = await Promise.all(Array.from({ length: 8 }, upgrade));
    for (const response of thirdWave) {
      expect([200, 409]).toContain(response.statusCode);
      if (response.statusCode === 200) expect(response.json().message).toContain(charge.reference);
    }
    expect(thirdWave.filter((response) => response.statusCode === 200).length).toBeGreaterThanOrEqual(1);

    expect(paystack.charges().length - chargesBefore).toBe(1);
    expect((await subscriptionChargesOf(pg.db, pg.organizationId)).map((payment) => payment.status)).toEqual([
      'succeeded',
    ]);
    expect((await changesOf(pg.db, pg.organizationId)).map((change) => change.status)).toEqual(['applied']);
    expect(await subscriptionOf(pg.db, pg.organizationId)).toMatchObject({ plan: 'growth', seats: 25 });
    expect(await creditBalanceOf(pg.db, pg.organizationId)).toBe(0);
  });
});
