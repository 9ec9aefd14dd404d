import type { BillingCycle, MailPlan } from '@platform/db';
import { creditBalanceEntries, mailSubscriptionReminders, notifications } from '@platform/db/schema';
import { prorate } from '@platform/pricing';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { missing, postgresServer } from '#test-prerequisites';
import { eventually } from '#test-timing';
import { type BillingTestApp, startBillingApp } from '../../../../test/billing-fixtures.js';
import { FAKE_PAYSTACK_SECRET, type FakePaystack, startFakePaystack } from '../../../../test/fake-paystack.js';
import { insertOrganization, insertUser, tokenFor } from '../../../../test/helpers.js';
import {
  changesOf,
  clearBilling,
  creditBalanceOf,
  insertSavedCard,
  insertSubscription,
  subscriptionChargesOf,
  subscriptionOf,
} from '../../../../test/subscription-fixtures.js';
import { CHANGE_IN_PROGRESS } from './change-plan.js';

// Races need real concurrent connections: PGlite runs one query at a time, so these run on PostgreSQL only
// (CI sets DATABASE_URL). Paystack holds a charge's answer until the test lets it go, so the requests overlap
// while one is charged, however slow the machine. Also here: renewal reminders sent by instances at once, and cancel
// and resume racing renewals (docs/decisions.md#subscription-cancellation).
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

    it('schedules simultaneous downgrades one after another: the last to commit is what the renewal will apply', async () => {
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
      // Downgrades need no card: one that names an unknown one is still scheduled.
      const answers = await Promise.all(
        targets.map((target) => upgrade(target, '00000000-0000-4000-8000-000000000000')),
      );
      expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200]);
      const subscription = await subscriptionOf(t.db, t.organizationId);
      expect(subscription).toMatchObject({ plan: 'scale', seats: 40, billingCycle: 'monthly' });
      const scheduled = {
        plan: subscription.scheduledPlan,
        seats: subscription.scheduledSeats,
        cycle: subscription.scheduledBillingCycle,
      };
      expect(targets).toContainEqual(scheduled);
      // Each took its turn on the locked row: three scheduled in a row, so the version moved three times.
      expect(subscription.version).toBe(3);
      // Nothing charged, nothing credited, nothing applied.
      expect(await changesOf(t.db, t.organizationId)).toEqual([]);
      expect(await creditBalanceOf(t.db, t.organizationId)).toBe(0);
      expect(await subscriptionChargesOf(t.db, t.organizationId)).toEqual([]);
    });

    /** An organization of its own owner, with a saved card and a subscription bought on 31 January (renews 29 February). */
    async function subscribedOrganization(index: number) {
      const ownerId = `user_race_${index}_${Math.random().toString(36).slice(2, 8)}`;
      await insertUser(t.db, { id: ownerId });
      const organizationId = await insertOrganization(t.db, { members: [{ userId: ownerId, role: 'owner' }] });
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
      const lifecycle = async (action: 'cancel' | 'resume') =>
        t.app.inject({
          method: 'POST',
          url: `/v1/billing/subscription/${action}`,
          headers: {
            authorization: `Bearer ${await tokenFor(ownerId, { now: t.clock.now(), expiresIn: 3600 })}`,
            'x-organization-id': organizationId,
          },
        });
      return { organizationId, ownerId, lifecycle };
    }

    /**
     * The one consistent state an organization's subscription may be in after cancels, resumes and renewals raced:
     * ended as canceled with nothing charged for the period, or renewed `periods` times with one charge each (set to
     * cancel or not); never charged and then canceled, never a charge that went to credit instead.
     */
    async function expectConsistent(organizationId: string, periods: number) {
      const subscription = await subscriptionOf(t.db, organizationId);
      const charges = await subscriptionChargesOf(t.db, organizationId);
      const changes = await changesOf(t.db, organizationId);
      const where = JSON.stringify({ subscription, charges: charges.map((charge) => charge.status), changes });
      expect(
        charges.every((charge) => charge.status === 'succeeded'),
        where,
      ).toBe(true);
      expect(
        changes.every((change) => change.status === 'applied' && change.kind === 'renewal'),
        where,
      ).toBe(true);
      expect(charges.length, where).toBe(changes.length);
      expect(
        await t.db.select().from(creditBalanceEntries).where(eq(creditBalanceEntries.organizationId, organizationId)),
      ).toEqual([]);
      if (subscription.status === 'canceled') {
        // Canceled at the end of the last period paid for: nothing was charged for the next.
        expect(charges.length, where).toBe(periods - 1);
        expect(subscription.periodIndex, where).toBe(periods - 1);
        expect(subscription.endedAt, where).not.toBeNull();
        return 'canceled' as const;
      }
      expect(subscription.status, where).toBe('active');
      expect(charges.length, where).toBe(periods);
      expect(subscription.periodIndex, where).toBe(periods);
      return subscription.cancelAtPeriodEnd ? ('renewed, set to cancel' as const) : ('renewed' as const);
    }

    it('sends each renewal reminder once when several job instances run at the same time', async () => {
      const organizations: string[] = [];
      for (let index = 0; index < 6; index += 1)
        organizations.push((await subscribedOrganization(index)).organizationId);
      const remindersOf = async () =>
        t.db
          .select({ organizationId: notifications.organizationId, title: notifications.title })
          .from(notifications)
          .where(inArray(notifications.organizationId, organizations));

      for (const [at, title] of [
        ['2024-02-22T06:00:00.000Z', 'Mail subscription renews in 7 days'],
        ['2024-02-28T06:00:00.000Z', 'Mail subscription renews tomorrow'],
      ] as const) {
        t.clock.set(new Date(at));
        const rounds = await Promise.all([t.renew(), t.renew(), t.renew(), t.renew()]);
        expect(rounds.reduce((sum, round) => sum + round.reminded, 0)).toBe(6);
        const again = await Promise.all([t.renew(), t.renew()]);
        expect(again.reduce((sum, round) => sum + round.reminded, 0)).toBe(0);
        const sent = (await remindersOf()).filter((note) => note.title === title);
        // Each organization has one member: one reminder each, once.
        expect(sent.map((note) => note.organizationId).sort()).toEqual([...organizations].sort());
      }
      expect(await t.db.select().from(mailSubscriptionReminders)).toHaveLength(12);
    });

    it('leaves one consistent state when cancel and resume requests race renewal job rounds', async () => {
      const organizations = [];
      for (let index = 0; index < 8; index += 1) organizations.push(await subscribedOrganization(index));
      // Half the organizations asked to cancel before the renewal; every one now sends cancel and resume at once
      // while three instances run the renewal job.
      for (const organization of organizations.slice(0, 4)) {
        expect((await organization.lifecycle('cancel')).statusCode).toBe(200);
      }
      t.clock.set(new Date('2024-02-29T00:01:00.000Z'));
      const chargesBefore = paystack.charges().length;
      const requests = organizations.flatMap((organization, index) =>
        (index % 2 === 0 ? (['cancel', 'resume', 'cancel'] as const) : (['resume', 'cancel', 'resume'] as const)).map(
          (action) => organization.lifecycle(action),
        ),
      );
      const [answers] = await Promise.all([Promise.all(requests), t.renew(), t.renew(), t.renew()]);
      for (const answer of answers) expect([200, 409], answer.body).toContain(answer.statusCode);
      await t.renew();

      const outcomes = [];
      for (const { organizationId } of organizations) outcomes.push(await expectConsistent(organizationId, 1));
      const charged = outcomes.filter((outcome) => outcome !== 'canceled').length;
      expect(paystack.charges()).toHaveLength(chargesBefore + charged);
    });

    it('renews a subscription canceled while its renewal is charged, then ends it at the next period end without a charge', async () => {
      const organizations = [];
      for (let index = 0; index < 4; index += 1) organizations.push(await subscribedOrganization(index));
      t.clock.set(new Date('2024-02-29T00:01:00.000Z'));
      const chargesBefore = paystack.charges().length;

      // Every renewal is at Paystack, held there, while its organization asks to cancel (and some to resume).
      let releaseCharges: () => void = () => undefined;
      paystack.chargeGate = new Promise<void>((resolve) => (releaseCharges = resolve));
      let rounds: ReturnType<typeof t.renew>[] = [];
      let answers: Awaited<ReturnType<(typeof organizations)[number]['lifecycle']>>[] = [];
      try {
        rounds = organizations.map(() => t.renew());
        await eventually(() => paystack.charges().length === chargesBefore + organizations.length, {
          what: 'Every renewal charge at Paystack',
        });
        answers = await Promise.all(
          organizations.flatMap((organization, index) =>
            index === 0
              ? [organization.lifecycle('cancel'), organization.lifecycle('resume')]
              : [organization.lifecycle('cancel')],
          ),
        );
      } finally {
        paystack.chargeGate = undefined;
        releaseCharges();
      }
      await Promise.all(rounds);
      // Cancels are taken while the renewal is charged; the resume of the first organization is 200 or 409 by order.
      expect(answers.slice(2).map((answer) => answer.statusCode)).toEqual([200, 200, 200]);
      expect([200, 409]).toContain(answers[1]?.statusCode);

      const states = [];
      for (const { organizationId } of organizations) states.push(await expectConsistent(organizationId, 1));
      expect(states.slice(1)).toEqual(['renewed, set to cancel', 'renewed, set to cancel', 'renewed, set to cancel']);
      expect(paystack.charges()).toHaveLength(chargesBefore + organizations.length);

      // The end of the renewed period: those set to cancel end without a charge, while their owners resume at once.
      t.clock.set(new Date('2024-03-31T00:01:00.000Z'));
      const late = await Promise.all([
        ...organizations.map((organization) => organization.lifecycle('resume')),
        t.renew(),
        t.renew(),
      ]);
      for (const answer of late.slice(0, organizations.length) as Awaited<
        ReturnType<(typeof organizations)[number]['lifecycle']>
      >[]) {
        expect([200, 409], answer.body).toContain(answer.statusCode);
      }
      await t.renew();
      for (const { organizationId } of organizations) await expectConsistent(organizationId, 2);
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
