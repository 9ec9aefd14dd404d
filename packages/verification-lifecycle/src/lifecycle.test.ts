import { type DatabaseHandle, unitOfWork, type VerificationStatus } from '@platform/db';
import {
  organizations,
  verificationSessions,
  verificationSessionTransitions,
  webhookEvents,
} from '@platform/db/schema';
import { createTestDatabase } from '@platform/db/testing';
import { ensureWallet } from '@platform/ledger';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowedMoves, canMove, handOverSession, moveSession } from './lifecycle.js';
import { lastMovedTo } from './repository.js';

// The moves themselves, their holds, callbacks and kycStatus are walked through backend-api's services in
// apps/backend-api/src/modules/verification/lifecycle.test.ts; here: the table, and what a decision that asks for
// documents again leaves on the session (docs/decisions.md#manual-review).

const NOW = new Date('2026-03-02T09:00:00.000Z');

let handle: DatabaseHandle;
let organizationId: string;
beforeAll(async () => {
  handle = await createTestDatabase();
  const [organization] = await handle.db.insert(organizations).values({ name: 'Lifecycle' }).returning();
  organizationId = organization?.id ?? '';
});
afterAll(async () => {
  await handle.close();
});

async function sessionIn(
  status: VerificationStatus,
  type: 'kyc' | 'kyb' = 'kyc',
  decisionSource: 'manual' | 'smile_id' = 'manual',
): Promise<string> {
  const wallet = await ensureWallet(handle.db, { organizationId, environment: 'live' });
  const [session] = await handle.db
    .insert(verificationSessions)
    .values({
      organizationId,
      environment: 'live',
      walletId: wallet.id,
      type,
      status,
      externalEndUserId: 'person-1',
      decisionSource,
      price: 0,
      requiredDocuments: type === 'kyc' ? ['national_id_or_passport', 'selfie'] : ['cr12'],
      expiresAt: new Date(NOW.getTime() + 86_400_000),
    })
    .returning();
  return session?.id ?? '';
}

function move(sessionId: string, to: VerificationStatus, extra: Record<string, unknown> = {}) {
  return unitOfWork(handle.db, (work) =>
    moveSession(work, { sessionId, to, actor: 'reviewer:r1', now: NOW, ...extra }, {}),
  );
}

describe('the lifecycle', () => {
  it('lets final statuses go nowhere and every other status somewhere', () => {
    expect(allowedMoves.verified).toEqual([]);
    expect(canMove('processing', 'requires_input')).toBe(true);
    expect(canMove('requires_input', 'verified')).toBe(false);
  });

  it('keeps the documents a requires_input decision asks for, once each, until the next submission', async () => {
    const id = await sessionIn('processing');
    const { session, decision } = await move(id, 'requires_input', {
      reason: 'The selfie is blurred',
      resubmitDocuments: ['selfie', 'selfie'],
    });
    expect(session.resubmitDocuments).toEqual(['selfie']);
    expect(session.lastError).toBe('The selfie is blurred');
    expect(decision).toMatchObject({ outcome: 'requires_input', source: 'manual' });

    const resubmitted = await move(id, 'processing', { actor: 'hosted_page' });
    expect(resubmitted.session.resubmitDocuments).toBeNull();
    expect(resubmitted.session.lastError).toBeNull();
  });

  it('asks for nothing in particular when the decision names no documents', async () => {
    const id = await sessionIn('processing');
    const { session } = await move(id, 'requires_input', { resubmitDocuments: [] });
    expect(session.resubmitDocuments).toBeNull();
    expect(session.lastError).toBe('Please submit your documents again');
  });

  it('refuses a document kind the session does not take, and changes nothing', async () => {
    const id = await sessionIn('processing', 'kyb');
    await expect(move(id, 'requires_input', { resubmitDocuments: ['selfie'] })).rejects.toMatchObject({
      code: 'validation_error',
    });
    const [after] = await handle.db.select().from(verificationSessions).where(eq(verificationSessions.id, id));
    expect(after?.status).toBe('processing');
    const transitions = await handle.db
      .select()
      .from(verificationSessionTransitions)
      .where(eq(verificationSessionTransitions.sessionId, id));
    expect(transitions).toEqual([]);
  });

  it('records the move and its callback event in the same transaction', async () => {
    const id = await sessionIn('processing');
    await move(id, 'verified');
    const events = await handle.db.select().from(webhookEvents).where(eq(webhookEvents.organizationId, organizationId));
    expect(events.some((event) => (event.payload as { data?: { sessionId?: string } }).data?.sessionId === id)).toBe(
      true,
    );
    await expect(move(id, 'rejected')).rejects.toMatchObject({ code: 'conflict' });
  });

  it('hands a processing session to a reviewer once, with the reason in its history and no status change', async () => {
    const id = await sessionIn('processing', 'kyc', 'smile_id');
    const handOver = () =>
      handle.db.transaction((tx) =>
        handOverSession(tx, {
          sessionId: id,
          from: 'smile_id',
          to: 'manual',
          actor: 'smile_id_job',
          reason: 'Smile ID did not answer in time',
          now: NOW,
        }),
      );
    const handed = await handOver();
    expect(handed).toMatchObject({ status: 'processing', decisionSource: 'manual' });
    expect(await handOver()).toBeUndefined();
    const transitions = await handle.db
      .select()
      .from(verificationSessionTransitions)
      .where(eq(verificationSessionTransitions.sessionId, id));
    expect(transitions).toEqual([
      expect.objectContaining({
        fromStatus: 'processing',
        toStatus: 'processing',
        reason: 'Smile ID did not answer in time',
      }),
    ]);
    // A hand-over is not a move to processing.
    expect(await lastMovedTo(handle.db, id, 'processing')).toBeUndefined();
  });
});
