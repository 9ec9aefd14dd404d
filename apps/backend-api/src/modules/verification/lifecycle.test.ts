import { unitOfWork, type VerificationStatus, type VerificationType, verificationStatuses } from '@platform/db';
import {
  memberships,
  notifications,
  organizations,
  users,
  verificationSessions,
  verificationSessionTransitions,
  webhookEvents,
} from '@platform/db/schema';
import { allowedMoves, canMove, type LifecycleOptions, moveSession } from '@platform/verification-lifecycle';
import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../../test/app-fixtures.js';
import {
  fundWallet,
  holdMovements,
  transitionsOf,
  truncateVerificationData,
  walletState,
} from '../../../test/verification-fixtures.js';
import { knownPrices } from './known-prices.js';
import { createSession } from './service.js';

const NOW = new Date('2026-03-02T09:00:00.000Z');
const LATER = new Date('2026-03-02T09:30:00.000Z');

describe('the verification session lifecycle', () => {
  const database = useTestDatabase();
  let organizationId: string;
  let otherOrganizationId: string;

  beforeEach(async () => {
    await truncateVerificationData(database.db);
    await database.db.delete(organizations);
    await database.db.delete(users);
    [{ id: organizationId }, { id: otherOrganizationId }] = (await database.db
      .insert(organizations)
      .values([{ name: 'Platform' }, { name: 'Customer' }])
      .returning({ id: organizations.id })) as [{ id: string }, { id: string }];
    for (const id of [organizationId, otherOrganizationId]) {
      await fundWallet(database.db, id, 'live', 1_000);
      await fundWallet(database.db, id, 'test', 1_000);
    }
  });

  const newSession = async (
    options: LifecycleOptions & {
      type?: VerificationType;
      environment?: 'live' | 'test';
      externalEndUserId?: string;
      organization?: string;
    } = {},
  ) =>
    unitOfWork(database.db, (work) =>
      createSession(
        work,
        {
          type: options.type ?? 'kyc',
          externalEndUserId: options.externalEndUserId ?? 'end-user',
          appName: null,
          callbackUrl: null,
          locale: 'en',
          returnUrl: null,
          privacyNoticeUrl: null,
        },
        {
          owner: { organizationId: options.organization ?? organizationId, environment: options.environment ?? 'live' },
          actor: 'test',
          apiKeyId: null,
          now: NOW,
          ttlMs: 24 * 60 * 60 * 1000,
          prices: { kyc: 50, kyb: 200 },
          decisions: { test: { kyc: 'sandbox', kyb: 'sandbox' }, live: { kyc: 'manual', kyb: 'manual' } },
          platformOrganizationId: options.platformOrganizationId,
          pricesSeen: knownPrices(),
        },
      ),
    );

  const move = (
    sessionId: string,
    to: VerificationStatus,
    options: LifecycleOptions & { reason?: string; at?: Date } = {},
  ) =>
    unitOfWork(database.db, (work) =>
      moveSession(
        work,
        { sessionId, to, actor: 'tester', reason: options.reason ?? null, now: options.at ?? LATER },
        options,
      ),
    );

  /** Puts a fresh session straight into `status` (with its hold still in place), as a starting point. */
  const sessionIn = async (status: VerificationStatus) => {
    const session = await newSession();
    await database.db.update(verificationSessions).set({ status }).where(eq(verificationSessions.id, session.id));
    return session.id;
  };

  const legalMoves = verificationStatuses.flatMap((from) => allowedMoves[from].map((to) => [from, to] as const));
  const illegalMoves = verificationStatuses.flatMap((from) =>
    verificationStatuses.filter((to) => !canMove(from, to)).map((to) => [from, to] as const),
  );

  // docs/decisions.md#session-lifecycle; the moves are listed in apps/backend-api/README.md (Lifecycle).
  it('knows exactly the moves of the session lifecycle', () => {
    expect(legalMoves).toEqual([
      ['pending', 'processing'],
      ['pending', 'expired'],
      ['pending', 'canceled'],
      ['processing', 'verified'],
      ['processing', 'rejected'],
      ['processing', 'requires_input'],
      ['requires_input', 'processing'],
      ['requires_input', 'expired'],
      ['requires_input', 'canceled'],
    ]);
    expect(illegalMoves).toHaveLength(7 * 7 - 9);
  });

  const holdAfter: Record<VerificationStatus, string[]> = {
    pending: ['hold'],
    processing: ['hold'],
    requires_input: ['hold'],
    verified: ['capture', 'hold'],
    rejected: ['capture', 'hold'],
    expired: ['hold', 'release'],
    canceled: ['hold', 'release'],
  };

  it.each(legalMoves)(
    'moves %s -> %s with a transition, an event and the hold settled as it should',
    async (from, to) => {
      const id = await sessionIn(from);
      const { session, previousStatus } = await move(id, to, { reason: 'Blurry photo' });
      expect(previousStatus).toBe(from);
      expect(session).toMatchObject({ status: to, updatedAt: LATER });
      const final = ['verified', 'rejected', 'expired', 'canceled'].includes(to);
      expect(session.completedAt).toEqual(final ? LATER : null);
      if (to === 'rejected' || to === 'requires_input') expect(session.lastError).toBe('Blurry photo');
      if (to === 'processing') expect(session.lastError).toBeNull();

      expect((await transitionsOf(database.db, id)).at(-1)).toEqual({ from, to, actor: 'tester' });
      const events = await database.db
        .select()
        .from(webhookEvents)
        .where(eq(webhookEvents.type, `verification_session.${to}`));
      expect(events).toHaveLength(1);
      expect(events[0]?.payload).toMatchObject({ data: { sessionId: id, status: to, previousStatus: from } });
      expect(await holdMovements(database.db, id)).toEqual(holdAfter[to]);
      const wallet = await walletState(database.db, organizationId, 'live');
      expect(wallet.ledger).toEqual({ available: wallet.available, held: wallet.held });
    },
  );

  it.each(illegalMoves)('refuses %s -> %s with 409 and changes nothing', async (from, to) => {
    const id = await sessionIn(from);
    const before = await database.db.select().from(verificationSessions).where(eq(verificationSessions.id, id));
    await expect(move(id, to)).rejects.toMatchObject({
      statusCode: 409,
      code: 'conflict',
      message: `Cannot move a verification session from ${from} to ${to}`,
    });
    expect(await database.db.select().from(verificationSessions).where(eq(verificationSessions.id, id))).toEqual(
      before,
    );
    expect(await transitionsOf(database.db, id)).toHaveLength(1);
    expect(await holdMovements(database.db, id)).toEqual(['hold']);
  });

  it('gives rejections and resubmission requests a default reason', async () => {
    const rejected = await sessionIn('processing');
    expect((await move(rejected, 'rejected')).session.lastError).toBe('The documents could not be verified');
    const resubmit = await sessionIn('processing');
    expect((await move(resubmit, 'requires_input')).session.lastError).toBe('Please submit your documents again');
  });

  it('answers 404 for an unknown session', async () => {
    await expect(move(crypto.randomUUID(), 'canceled')).rejects.toMatchObject({ statusCode: 404, code: 'not_found' });
  });

  it('answers 404 when the session belongs to another owner than the one asking', async () => {
    const id = await sessionIn('pending');
    const asOther = unitOfWork(database.db, (work) =>
      moveSession(
        work,
        {
          sessionId: id,
          to: 'canceled',
          actor: 'x',
          now: LATER,
          owner: { organizationId: otherOrganizationId, environment: 'live' },
        },
        {},
      ),
    );
    await expect(asOther).rejects.toMatchObject({ statusCode: 404 });
    const asTest = unitOfWork(database.db, (work) =>
      moveSession(
        work,
        { sessionId: id, to: 'canceled', actor: 'x', now: LATER, owner: { organizationId, environment: 'test' } },
        {},
      ),
    );
    await expect(asTest).rejects.toMatchObject({ statusCode: 404 });
  });

  it('rolls the whole move back when the transaction fails afterwards', async () => {
    const id = await sessionIn('processing');
    await expect(
      unitOfWork(database.db, async (work) => {
        await moveSession(work, { sessionId: id, to: 'verified', actor: 'x', now: LATER }, {});
        throw new Error('later failure');
      }),
    ).rejects.toThrow('later failure');
    const [session] = await database.db.select().from(verificationSessions).where(eq(verificationSessions.id, id));
    expect(session?.status).toBe('processing');
    expect(await holdMovements(database.db, id)).toEqual(['hold']);
    expect(await database.db.$count(webhookEvents, eq(webhookEvents.type, 'verification_session.verified'))).toBe(0);
  });

  // docs/decisions.md#kycstatus-follows-live-sessions
  describe("a platform user's kycStatus", () => {
    const platform = (): LifecycleOptions => ({ platformOrganizationId: organizationId });
    const kycStatusOf = async (userId: string) =>
      (await database.db.select({ kycStatus: users.kycStatus }).from(users).where(eq(users.id, userId)))[0]?.kycStatus;

    beforeEach(async () => {
      await database.db.insert(users).values({ id: 'user_amina', email: 'amina@example.com' });
    });

    it('follows the live kyc sessions of the platform organization that name the user', async () => {
      const first = await newSession({ ...platform(), externalEndUserId: 'user_amina' });
      expect(await kycStatusOf('user_amina')).toBe('pending');
      await move(first.id, 'processing', platform());
      expect(await kycStatusOf('user_amina')).toBe('pending');
      await move(first.id, 'requires_input', platform());
      expect(await kycStatusOf('user_amina')).toBe('pending');
      await move(first.id, 'processing', platform());
      await move(first.id, 'rejected', platform());
      expect(await kycStatusOf('user_amina')).toBe('rejected');

      const second = await newSession({ ...platform(), externalEndUserId: 'user_amina' });
      expect(await kycStatusOf('user_amina')).toBe('pending');
      await move(second.id, 'processing', platform());
      await move(second.id, 'verified', platform());
      expect(await kycStatusOf('user_amina')).toBe('verified');
    });

    it.each(['expired', 'canceled'] as const)('is left as it is when a session is %s', async (end) => {
      const session = await newSession({ ...platform(), externalEndUserId: 'user_amina' });
      await database.db.update(users).set({ kycStatus: 'verified' }).where(eq(users.id, 'user_amina'));
      await move(session.id, end, platform());
      expect(await kycStatusOf('user_amina')).toBe('verified');
    });

    it.each([
      ['a test session', { environment: 'test' as const }],
      ['a kyb session', { type: 'kyb' as const }],
      ["another organization's session", { otherOrganization: true }],
    ])(
      'is not touched by %s',
      async (_label, variant: { environment?: 'test'; type?: 'kyb'; otherOrganization?: boolean }) => {
        const session = await newSession({
          ...platform(),
          ...(variant.environment === undefined ? {} : { environment: variant.environment }),
          ...(variant.type === undefined ? {} : { type: variant.type }),
          organization: variant.otherOrganization ? otherOrganizationId : organizationId,
          externalEndUserId: 'user_amina',
        });
        await move(session.id, 'processing', platform());
        await move(session.id, 'verified', platform());
        expect(await kycStatusOf('user_amina')).toBe('unverified');
      },
    );

    it('is not touched without a platform organization configured, and ignores ids that are not users', async () => {
      const session = await newSession({ externalEndUserId: 'user_amina' });
      await move(session.id, 'processing');
      await move(session.id, 'verified');
      expect(await kycStatusOf('user_amina')).toBe('unverified');

      const stranger = await newSession({ ...platform(), externalEndUserId: 'not-a-user' });
      await move(stranger.id, 'processing', platform());
      await expect(move(stranger.id, 'verified', platform())).resolves.toBeDefined();
    });
  });

  describe('notifications to the organization members', () => {
    beforeEach(async () => {
      await database.db.insert(users).values([
        { id: 'user_owner', email: 'owner@example.com' },
        { id: 'user_member', email: 'member@example.com' },
        { id: 'user_outsider', email: 'outsider@example.com' },
      ]);
      await database.db.insert(memberships).values([
        { organizationId, userId: 'user_owner', role: 'owner' },
        { organizationId, userId: 'user_member' },
        { organizationId: otherOrganizationId, userId: 'user_outsider' },
      ]);
    });
    const notificationsOf = (userId: string) =>
      database.db
        .select({
          title: notifications.title,
          message: notifications.message,
          type: notifications.type,
          organizationId: notifications.organizationId,
          actionUrl: notifications.actionUrl,
        })
        .from(notifications)
        .where(eq(notifications.userId, userId));

    it('tells every member when a session is verified', async () => {
      const session = await newSession({ externalEndUserId: 'customer-9' });
      await move(session.id, 'processing');
      expect(await notificationsOf('user_owner')).toEqual([]);
      await move(session.id, 'verified');
      for (const member of ['user_owner', 'user_member']) {
        expect(await notificationsOf(member)).toEqual([
          {
            title: 'Verification completed',
            message: 'The KYC verification of "customer-9" (live) was verified.',
            type: 'success',
            organizationId,
            // The dashboard's list of that end user, not the session's page: its id is the hosted page's credential.
            actionUrl: '/dashboard/verifications?type=kyc&externalEndUserId=customer-9&env=live',
          },
        ]);
      }
      expect(await notificationsOf('user_outsider')).toEqual([]);
    });

    it('tells every member when a session is rejected, with the reason', async () => {
      const session = await newSession({ type: 'kyb', environment: 'test', externalEndUserId: 'company-3' });
      await move(session.id, 'processing');
      await move(session.id, 'rejected', { reason: 'CR12 is out of date' });
      expect(await notificationsOf('user_member')).toEqual([
        {
          title: 'Verification rejected',
          message: 'The KYB verification of "company-3" (test) was rejected: CR12 is out of date',
          type: 'error',
          organizationId,
          actionUrl: '/dashboard/verifications?type=kyb&externalEndUserId=company-3&env=test',
        },
      ]);
    });

    it.each(['expired', 'canceled'] as const)('says nothing when a session is %s', async (end) => {
      const session = await newSession();
      await move(session.id, end);
      expect(await database.db.$count(notifications)).toBe(0);
    });
  });

  it('writes one transition per move, in order', async () => {
    const session = await newSession();
    const steps = ['processing', 'requires_input', 'processing', 'verified'] as const;
    for (const [index, to] of steps.entries())
      await move(session.id, to, { at: new Date(LATER.getTime() + index * 1000) });
    expect(await transitionsOf(database.db, session.id)).toEqual([
      { from: null, to: 'pending', actor: 'test' },
      { from: 'pending', to: 'processing', actor: 'tester' },
      { from: 'processing', to: 'requires_input', actor: 'tester' },
      { from: 'requires_input', to: 'processing', actor: 'tester' },
      { from: 'processing', to: 'verified', actor: 'tester' },
    ]);
    expect(await database.db.$count(verificationSessionTransitions)).toBe(5);
  });
});
