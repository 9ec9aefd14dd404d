import type { BillingCycle, MailPlan } from '@platform/db';
import { prorate } from '@platform/pricing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { missing, postgresServer } from '#test-prerequisites';
import { eventually } from '#test-timing';
import { type BillingTestApp, startBillingApp } from '../../../../test/billing-fixtures.js';
import { FAKE_PAYSTACK_SECRET, type FakePaystack, startFakePaystack } from '../../../../test/fake-paystack.js';
import { insertOrganization } from '../../../../test/helpers.js';
import {
  changesOf,
  clearBilling,
  creditBalanceOf,
  insertSavedCard,
  insertSubscription,
  subscriptionChargesOf,
  subscriptionOf,
} from '../../../../test/subscription-fixtures.js';
import { CHANGE_IN_PROGRESS } from './change-claim.js';

// Races need real concurrent connections: PGlite runs one query at a time, so these run on PostgreSQL only
// (CI sets DATABASE_URL). Paystack holds a charge's answer until the test lets it go, so the requests overlap
// while one is charged, however slow the machine.
describe.skipIf(missing(postgresServer))(
  'concurrent upgrades and renewals (PostgreSQL only: PGlite has no concurrent transactions)',
  () => {
    let t: BillingTestApp;
    let paystack: FakePaystack;

    beforeAll(async () => {
      paystack = await startFakePaystack();
      paystack.approvedAuthorizations.add('AUTH_good');
      t = await startBillingApp({
        maxConnections: 12,
        env: { PAYSTACK_SECRET_KEY: FAKE_PAYSTACK_SECRET, PAYSTACK_BASE_URL: paystack.url },
      });
    });
    afterAll(async () => {
      await t?.close();
      await paystack?.close();
    });
    beforeEach(async () => {
      await clearBilling(t.db);
      t.clock.set(new Date('2024-01-17T10:00:00.000Z'));
    });

    interface Terms {
      plan: MailPlan;
      seats: number;
      cycle: BillingCycle;
    }

    async function upgrade(next: Terms, paymentMethodId: string) {
      return t.app.inject({
        method: 'POST',
        url: '/v1/billing/upgrade',
        headers: await t.headers(),
        payload: { newPlan: next.plan, newSeats: next.seats, newCycle: next.cycle, paymentMethodId },
      });
    }

    /** What a change from the subscription as it is now would cost today. */
    async function priceFromNow(next: Terms): Promise<number> {
      const subscription = await subscriptionOf(t.db, t.organizationId);
      return prorate({
        current: {
          plan: subscription.plan,
          seats: subscription.seats,
          cycle: subscription.billingCycle,
          periodStart: subscription.currentPeriodStart,
          periodEnd: subscription.currentPeriodEnd,
        },
        next,
        today: t.clock.now(),
        creditBalance: subscription.creditBalance,
      }).amountDueToday;
    }

    it('charges one of several simultaneous upgrades, priced on the state they all saw; the others get 409', async () => {
      await insertSubscription(t.db, t.organizationId, {
        plan: 'core',
        seats: 10,
        cycle: 'monthly',
        anchor: '2024-01-01',
        credit: 200,
      });
      const card = await insertSavedCard(t.db, t.organizationId, {
        provider: 'paystack',
        authorizationCode: 'AUTH_good',
      });
      // Every target of the second wave costs more than any first-wave result, so each wave's changes all charge.
      const waves: Terms[][] = [
        [
          { plan: 'growth', seats: 25, cycle: 'monthly' },
          { plan: 'growth', seats: 30, cycle: 'monthly' },
          { plan: 'scale', seats: 10, cycle: 'monthly' },
          { plan: 'core', seats: 60, cycle: 'monthly' },
        ],
        [
          { plan: 'scale', seats: 100, cycle: 'monthly' },
          { plan: 'scale', seats: 120, cycle: 'monthly' },
          { plan: 'growth', seats: 200, cycle: 'yearly' },
        ],
      ];

      for (const targets of waves) {
        const prices = await Promise.all(targets.map(priceFromNow));
        const chargesBefore = paystack.charges().length;
        // The first change to claim the subscription is charged; Paystack answers once every other request
        // has had its answer, so they all met the claim while it was held.
        let releaseCharge: () => void = () => undefined;
        paystack.chargeGate = new Promise<void>((resolve) => (releaseCharge = resolve));
        let answered = 0;
        const requests = targets.map((target) => upgrade(target, card).finally(() => (answered += 1)));
        try {
          await eventually(() => answered === targets.length - 1 && paystack.charges().length === chargesBefore + 1, {
            what: 'One charge at Paystack and every other request answered',
          });
        } finally {
          paystack.chargeGate = undefined;
          releaseCharge();
        }
        const answers = await Promise.all(requests);

        const won = answers.flatMap((answer, index) => (answer.statusCode === 200 ? [index] : []));
        expect(won, answers.map((answer) => answer.body).join('\n')).toHaveLength(1);
        for (const answer of answers.filter((candidate) => candidate.statusCode !== 200)) {
          expect(answer.statusCode).toBe(409);
          expect(answer.json().error).toBe(CHANGE_IN_PROGRESS);
        }
        const winner = won[0] ?? -1;
        expect(paystack.charges()).toHaveLength(chargesBefore + 1);
        expect(paystack.charges().at(-1)?.body).toMatchObject({ amount: (prices[winner] ?? 0) * 100 });
        expect(await subscriptionOf(t.db, t.organizationId)).toMatchObject({
          plan: targets[winner]?.plan,
          seats: targets[winner]?.seats,
          billingCycle: targets[winner]?.cycle,
        });
      }
      const charges = await subscriptionChargesOf(t.db, t.organizationId);
      expect(charges.map((charge) => charge.status)).toEqual(['succeeded', 'succeeded']);
      expect((await changesOf(t.db, t.organizationId)).map((change) => change.status)).toEqual(['applied', 'applied']);
      expect(await creditBalanceOf(t.db, t.organizationId)).toBeGreaterThanOrEqual(0);
    });

    it('applies simultaneous downgrades one after another, each priced on the state the previous one left', async () => {
      await insertSubscription(t.db, t.organizationId, {
        plan: 'scale',
        seats: 40,
        cycle: 'monthly',
        anchor: '2024-01-01',
      });
      const targets: Terms[] = [
        { plan: 'growth', seats: 40, cycle: 'monthly' },
        { plan: 'core', seats: 40, cycle: 'monthly' },
        { plan: 'core', seats: 20, cycle: 'monthly' },
      ];
      // A change that would need a card names one that does not exist: 404, nothing applied.
      const answers = await Promise.all(
        targets.map((target) => upgrade(target, '00000000-0000-4000-8000-000000000000')),
      );
      expect(answers.filter((answer) => answer.statusCode === 200).length).toBeGreaterThan(0);
      const changes = await changesOf(t.db, t.organizationId);
      const applied = changes.filter((change) => change.status === 'applied');
      expect(applied.length).toBe(answers.filter((answer) => answer.statusCode === 200).length);
      // Chained: each change starts from the terms the previous one applied, ending at the subscription's terms.
      let terms = { plan: 'scale', seats: 40 };
      const unchained = [...applied];
      while (unchained.length > 0) {
        const next = unchained.findIndex(
          (change) => change.fromPlan === terms.plan && change.fromSeats === terms.seats,
        );
        expect(next, JSON.stringify({ terms, unchained })).toBeGreaterThanOrEqual(0);
        const [change] = unchained.splice(next, 1);
        terms = { plan: change?.plan ?? '', seats: change?.seats ?? 0 };
      }
      expect(await subscriptionOf(t.db, t.organizationId)).toMatchObject(terms);
      // Nothing was charged: downgrades earned credit and any change that cost more was paid from it.
      const credit = applied.reduce((sum, change) => sum - change.net, 0);
      expect(await creditBalanceOf(t.db, t.organizationId)).toBe(credit);
      expect(await subscriptionChargesOf(t.db, t.organizationId)).toEqual([]);
    });

    it('charges each due renewal once when three job instances run at the same time', async () => {
      const organizations: string[] = [];
      for (let index = 0; index < 6; index += 1) {
        const organizationId = await insertOrganization(t.db);
        organizations.push(organizationId);
        const card = await insertSavedCard(t.db, organizationId, {
          provider: 'paystack',
          authorizationCode: 'AUTH_good',
        });
        await insertSubscription(t.db, organizationId, {
          plan: 'growth',
          seats: 5 + index,
          cycle: 'monthly',
          anchor: '2024-01-31',
          paymentMethodId: card,
        });
      }
      const chargesBefore = paystack.charges().length;
      t.clock.set(new Date('2024-02-29T01:00:00.000Z'));

      const rounds = await Promise.all([t.renew(), t.renew(), t.renew()]);
      expect(rounds.reduce((sum, round) => sum + round.renewed, 0)).toBe(6);
      expect(rounds.reduce((sum, round) => sum + round.failed + round.pending, 0)).toBe(0);
      expect(paystack.charges()).toHaveLength(chargesBefore + 6);
      for (const organizationId of organizations) {
        expect(await subscriptionChargesOf(t.db, organizationId)).toHaveLength(1);
        expect(await subscriptionOf(t.db, organizationId)).toMatchObject({ status: 'active', periodIndex: 1 });
      }
      const again = await Promise.all([t.renew(), t.renew()]);
      expect(again.reduce((sum, round) => sum + round.renewed, 0)).toBe(0);
    });
  },
);
