import { randomUUID } from 'node:crypto';
import type { ApiKeyOwner, DatabaseHandle } from '@platform/db';
import { memberships, notifications, organizations, users, wallets, webhookEvents } from '@platform/db/schema';
import { createTestDatabase } from '@platform/db/testing';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missing, postgresServer } from '#test-prerequisites';
import { InsufficientFundsError } from './errors.js';
import { placeHold, releaseHold, setLowBalanceThreshold, topUpWallet } from './service.js';

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle.close();
});

const inTx = <T>(work: Parameters<typeof handle.db.transaction<T>>[0]) => handle.db.transaction(work);

/** An organization with two members, its live wallet funded with `balance` and alerting below `threshold`. */
async function walletWithThreshold(balance: number, threshold: number | null): Promise<ApiKeyOwner> {
  const [organization] = await handle.db.insert(organizations).values({ name: 'Alerts' }).returning();
  const owner: ApiKeyOwner = { organizationId: organization!.id, environment: 'live' };
  const members = [`owner-${owner.organizationId}`, `member-${owner.organizationId}`];
  await handle.db.insert(users).values(members.map((id) => ({ id, email: `${id}@example.com` })));
  await handle.db.insert(memberships).values([
    { organizationId: owner.organizationId, userId: members[0]!, role: 'owner' },
    { organizationId: owner.organizationId, userId: members[1]!, role: 'billing' },
  ]);
  await inTx((tx) => setLowBalanceThreshold(tx, owner, threshold));
  if (balance > 0) await inTx((tx) => topUpWallet(tx, owner, { amount: balance, reference: `seed:${randomUUID()}` }));
  return owner;
}

const hold = (owner: ApiKeyOwner, amount: number, sessionId = randomUUID(), now?: Date) =>
  inTx((tx) =>
    placeHold(tx, owner, {
      amount,
      reference: `verification_session:${sessionId}`,
      ...(now === undefined ? {} : { now }),
    }),
  ).then(() => sessionId);

const ALERT_TIME = new Date('2026-03-02T09:00:00.000Z');

/** The alerts sent so far: callbacks queued and notifications per member. */
async function alertsOf(owner: ApiKeyOwner) {
  const events = await handle.db
    .select()
    .from(webhookEvents)
    .where(and(eq(webhookEvents.organizationId, owner.organizationId), eq(webhookEvents.type, 'wallet.balance_low')))
    .orderBy(webhookEvents.createdAt);
  const notes = await handle.db
    .select()
    .from(notifications)
    .where(eq(notifications.organizationId, owner.organizationId));
  return { events, notifications: notes, perMember: notes.length / 2 };
}

describe('low-balance alerts', () => {
  it('alert once when a hold takes the available balance from the threshold to below it', async () => {
    const owner = await walletWithThreshold(1_000, 500);
    await hold(owner, 500); // 500 left: at the threshold, not below it
    expect((await alertsOf(owner)).events).toHaveLength(0);

    const crossing = await hold(owner, 50, randomUUID(), ALERT_TIME); // 450
    const alerts = await alertsOf(owner);
    expect(alerts.events).toHaveLength(1);
    const [event] = alerts.events;
    expect(event).toMatchObject({ environment: 'live', targetUrl: null, status: 'pending' });
    expect(event!.payload).toEqual({
      id: event!.id,
      type: 'wallet.balance_low',
      timestamp: ALERT_TIME.toISOString(),
      data: {
        environment: 'live',
        currency: 'KES',
        available: 450,
        held: 550,
        lowBalanceThreshold: 500,
        sessionId: crossing,
      },
    });
    expect(alerts.notifications).toHaveLength(2);
    expect(alerts.notifications[0]).toMatchObject({
      title: 'Wallet balance low',
      type: 'warning',
      actionUrl: '/dashboard/billing',
      message:
        'The live wallet has KES 450 available, below the alert threshold of KES 500. Top it up to keep ' +
        'verifications running.',
    });

    await hold(owner, 50); // 400: still below, no second alert
    expect((await alertsOf(owner)).events).toHaveLength(1);
    const [wallet] = await handle.db.select().from(wallets).where(eq(wallets.organizationId, owner.organizationId));
    expect(wallet!.lowBalanceAlertedAt).toEqual(ALERT_TIME);
  });

  it('does not alert for a hold that starts below the threshold, nor without a threshold', async () => {
    const below = await walletWithThreshold(300, 500);
    await hold(below, 50);
    const none = await walletWithThreshold(300, null);
    await hold(none, 290);
    expect((await alertsOf(below)).events).toHaveLength(0);
    expect((await alertsOf(none)).events).toHaveLength(0);
    expect((await alertsOf(none)).notifications).toHaveLength(0);
  });

  it('is re-armed by a top-up back to the threshold, not by a release nor a top-up that falls short', async () => {
    const owner = await walletWithThreshold(600, 500);
    const first = await hold(owner, 200); // 400: alert 1
    await inTx((tx) => releaseHold(tx, owner, `verification_session:${first}`)); // 600 again, by a release
    await hold(owner, 200); // 400: not re-armed by the release
    expect((await alertsOf(owner)).events).toHaveLength(1);

    await inTx((tx) => topUpWallet(tx, owner, { amount: 50, reference: `short:${randomUUID()}` })); // 450
    await inTx((tx) => topUpWallet(tx, owner, { amount: 50, reference: `reach:${randomUUID()}` })); // 500: re-armed
    await hold(owner, 1); // 499: alert 2
    await hold(owner, 1);
    const alerts = await alertsOf(owner);
    expect(alerts.events.map((event) => (event.payload as { data: { available: number } }).data.available)).toEqual([
      400, 499,
    ]);
    expect(alerts.perMember).toBe(2);
  });

  it('is re-armed by a new threshold, and alerts nothing when the hold rolls back', async () => {
    const owner = await walletWithThreshold(1_000, 900);
    await hold(owner, 200); // 800: alert 1
    expect((await inTx((tx) => setLowBalanceThreshold(tx, owner, 700))).previous).toBe(900);
    const rolledBack = inTx(async (tx) => {
      await placeHold(tx, owner, { amount: 200, reference: `verification_session:${randomUUID()}` }); // 600
      throw new Error('the session insert failed');
    });
    await expect(rolledBack).rejects.toThrow('the session insert failed');
    expect((await alertsOf(owner)).events).toHaveLength(1);
    await hold(owner, 200); // 600: alert 2, below the new threshold
    expect((await alertsOf(owner)).events).toHaveLength(2);
  });

  it('refuses a threshold that is not whole KES of 0 or more, changing nothing', async () => {
    const owner = await walletWithThreshold(0, 100);
    for (const threshold of [-1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1]) {
      await expect(inTx((tx) => setLowBalanceThreshold(tx, owner, threshold))).rejects.toBeInstanceOf(RangeError);
    }
    const [wallet] = await handle.db.select().from(wallets).where(eq(wallets.organizationId, owner.organizationId));
    expect(wallet!.lowBalanceThreshold).toBe(100);
    const cleared = await inTx((tx) => setLowBalanceThreshold(tx, owner, null));
    expect(cleared).toMatchObject({ previous: 100, wallet: { lowBalanceThreshold: null, lowBalanceAlertedAt: null } });
  });
});

describe.skipIf(missing(postgresServer))('low-balance alerts under concurrency (real PostgreSQL)', () => {
  it('concurrent holds crossing the threshold alert exactly once', async () => {
    const owner = await walletWithThreshold(1_000, 500);
    const outcomes = await Promise.allSettled(Array.from({ length: 30 }, () => hold(owner, 50)));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(20);
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') expect(outcome.reason).toBeInstanceOf(InsufficientFundsError);
    }
    const alerts = await alertsOf(owner);
    expect(alerts.events).toHaveLength(1);
    expect((alerts.events[0]!.payload as { data: { available: number } }).data.available).toBe(450);
    expect(alerts.perMember).toBe(1);
  });
});
