import { randomUUID } from 'node:crypto';
import { users } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditEventsOf, eraseAsRetention, insertCheck, type ReviewTestApp } from '../../../test/review-fixtures.js';
import { REVIEWER, SECOND_REVIEWER, useReviewRoutes } from '../../../test/review-routes-fixtures.js';

// GET /v1/reviews/:sessionId: the submitted details decrypted, the customer organization, the documents with signed
// links, the history with who moved the session, the reading in the audit log; and a decided session, which stays
// readable to reviewers (docs/decisions.md#decided-reviews).

const suite = useReviewRoutes();
const { get, decide, newSession, detailOf } = suite;
let t: ReviewTestApp;
beforeAll(async () => {
  t = suite.t;
  await t.db.update(users).set({ firstName: 'Amina', lastName: 'Otieno' }).where(eq(users.id, REVIEWER));
});

const viewsOf = async (sessionId: string) =>
  (await auditEventsOf(t.db, t.platformOrganizationId, 'review.details_viewed')).filter(
    (row) => row.targetId === sessionId,
  );

const nobody = { kind: 'hosted_page', userId: null, name: null, email: null };

describe('GET /v1/reviews/:sessionId', () => {
  it('answers the submitted details decrypted, the documents with signed links and the history, and logs the reading', async () => {
    const { sessionId, documents } = await newSession();
    const detail = await detailOf(sessionId);
    expect(detail).toMatchObject({
      sessionId,
      status: 'processing',
      organization: { id: suite.customerId, name: 'Customer' },
      details: { type: 'kyc', idType: 'national_id', idNumber: '12345678' },
      claimedBy: null,
      decision: null,
      decidedBy: null,
      decidedAt: null,
      reason: null,
      personalDataErasedAt: null,
      history: [
        // The customer's key is named by its kind only: a reviewer has no use for its id.
        { from: null, to: 'pending', reason: null, actor: { kind: 'api_key', userId: null, name: null, email: null } },
        { from: 'pending', to: 'processing', reason: null, actor: nobody },
      ],
    });
    expect(detail.documents.map(({ id, kind }) => ({ id, kind }))).toEqual(
      documents.map(({ id, kind }) => ({ id, kind })),
    );
    for (const document of detail.documents) {
      expect(document.url).toMatch(
        new RegExp(
          `^${t.config.publicUrl}/v1/reviews/${sessionId}/documents/${document.id}/content\\?reviewer=${REVIEWER}&expires=\\d+&signature=[A-Za-z0-9_-]{43}$`,
        ),
      );
      expect(Date.parse(document.urlExpiresAt) - t.clock.now().getTime()).toBeLessThanOrEqual(5 * 60_000);
    }
    const [viewed] = await viewsOf(sessionId);
    expect(viewed).toMatchObject({ actorUserId: REVIEWER, targetType: 'verification_session', details: { sessionId } });
    // The ID number is shown to the reviewer, never written to the log.
    expect(JSON.stringify(viewed)).not.toContain('12345678');
  });

  it('answers what the person stated beside the number (names, date of birth, passport lines)', async () => {
    const stated = {
      type: 'kyc',
      idType: 'passport',
      idNumber: 'AK1234567',
      firstName: 'Amani',
      middleName: 'Wanjiru',
      lastName: 'Otieno',
      dateOfBirth: '1994-05-17',
      documentExpiry: '2031-02-28',
      nationality: 'KEN',
      mrz: `P<KENOTIENO<<AMANI<WANJIRU${'<'.repeat(18)}\nAK12345674KEN9405171F3102283${'<'.repeat(14)}06`,
    };
    const { sessionId } = await newSession({ details: stated });
    expect((await detailOf(sessionId)).details).toEqual(stated);
  });

  it('shows a kyb session its registration details', async () => {
    const { sessionId } = await newSession({ type: 'kyb' });
    expect((await detailOf(sessionId)).details).toEqual({
      type: 'kyb',
      registrationNumber: 'PVT-AB12CD3',
      companyName: 'Acme Ltd',
    });
  });

  it('keeps a session readable after its decision: who decided, when and why, with the documents, and logs the reading', async () => {
    const { sessionId, documents } = await newSession();
    const decided = await decide(sessionId, { decision: 'rejected', reason: 'The ID card is expired' });
    expect(decided.statusCode, decided.body).toBe(200);
    const decidedAt = decided.json<{ data: { decidedAt: string } }>().data.decidedAt;

    const detail = await detailOf(sessionId, SECOND_REVIEWER);
    const amina = { kind: 'reviewer', userId: REVIEWER, name: 'Amina Otieno', email: `${REVIEWER}@example.com` };
    expect(detail).toMatchObject({
      status: 'rejected',
      organization: { id: suite.customerId, name: 'Customer' },
      decision: 'rejected',
      decidedBy: amina,
      decidedAt,
      reason: 'The ID card is expired',
      claimedBy: null,
      details: { type: 'kyc', idNumber: '12345678' },
      personalDataErasedAt: null,
    });
    expect(detail.history.at(-1)).toEqual({
      from: 'processing',
      to: 'rejected',
      reason: 'The ID card is expired',
      at: decidedAt,
      actor: amina,
    });
    expect(detail.documents.map((document) => document.id)).toEqual(documents.map((document) => document.id));
    expect(await viewsOf(sessionId)).toEqual([expect.objectContaining({ actorUserId: SECOND_REVIEWER })]);
  });

  it('shows a hand-over and the decision that followed, naming a reviewer without a profile by id', async () => {
    const { sessionId } = await newSession({
      status: 'verified',
      handOver: { actor: 'smile_id', reason: 'Smile ID gave no result within 6 hours of the submission' },
      decidedBy: 'reviewer:user_gone',
    });
    const detail = await detailOf(sessionId);
    const gone = { kind: 'reviewer', userId: 'user_gone', name: null, email: null };
    expect(detail).toMatchObject({ decision: 'verified', decidedBy: gone, reason: null });
    expect(detail.history.slice(2)).toEqual([
      expect.objectContaining({
        from: 'processing',
        to: 'processing',
        reason: 'Smile ID gave no result within 6 hours of the submission',
        actor: { kind: 'smile_id', userId: null, name: null, email: null },
      }),
      expect.objectContaining({ from: 'processing', to: 'verified', actor: gone }),
    ]);
  });

  it('says when retention erased the documents and details of a decided session, and shows neither', async () => {
    const { sessionId } = await newSession({ status: 'verified' });
    const erasedAt = new Date('2026-04-01T00:00:00.000Z');
    await eraseAsRetention(t.db, sessionId, erasedAt);
    const detail = await detailOf(sessionId);
    expect(detail).toMatchObject({
      status: 'verified',
      decision: 'verified',
      personalDataErasedAt: erasedAt.toISOString(),
      details: null,
      documents: [],
    });
    expect(detail.history.map((change) => change.to)).toEqual(['pending', 'processing', 'verified']);
  });

  it("shows the checks of the session's submissions beside the documents, with what they saw opened", async () => {
    const submittedAt = new Date(Date.now() - 120_000);
    const { sessionId } = await newSession({ submittedAt });
    const at = (seconds: number) => new Date(submittedAt.getTime() + seconds * 1000);
    const registry = await insertCheck(
      t.db,
      sessionId,
      {
        kind: 'id_registry',
        source: 'smile_id',
        outcome: 'attention',
        code: 'id_number_mismatch',
        summary: 'The typed ID number differs from the one the registry gave',
        details: { mismatched: ['idNumber'], consequence: { decision: 'rejected', reason: 'Not the same.' } },
        submittedAt,
        createdAt: at(10),
      },
      { vault: t.vault, type: 'kyc', evidence: { fullName: 'Jane Wanjiku Doe', idNumber: '23456789' } },
    );
    const expiry = await insertCheck(t.db, sessionId, {
      kind: 'document_expiry',
      source: 'service',
      outcome: 'passed',
      summary: 'The document has not expired',
      submittedAt,
      createdAt: at(5),
    });
    const response = await get(`/v1/reviews/${sessionId}`);
    expect(response.statusCode, response.body).toBe(200);
    const { checks } = response.json<{ data: { checks: unknown[] } }>().data;
    expect(checks).toEqual([
      {
        id: expiry,
        kind: 'document_expiry',
        source: 'service',
        outcome: 'passed',
        code: null,
        summary: 'The document has not expired',
        details: {},
        evidence: null,
        submittedAt: submittedAt.toISOString(),
        createdAt: at(5).toISOString(),
      },
      {
        id: registry,
        kind: 'id_registry',
        source: 'smile_id',
        outcome: 'attention',
        code: 'id_number_mismatch',
        summary: 'The typed ID number differs from the one the registry gave',
        // The consequence a failure named is the policy's, not shown.
        details: { mismatched: ['idNumber'] },
        evidence: { fullName: 'Jane Wanjiku Doe', idNumber: '23456789' },
        submittedAt: submittedAt.toISOString(),
        createdAt: at(10).toISOString(),
      },
    ]);

    // The checks' words outlive the documents: a decided session erased by retention still shows them.
    const decided = await decide(sessionId, { decision: 'verified' });
    expect(decided.statusCode, decided.body).toBe(200);
    await eraseAsRetention(t.db, sessionId, t.clock.now());
    const erased = await detailOf(sessionId);
    expect(erased.documents).toEqual([]);
    expect(erased).toMatchObject({ checks: [{ id: expiry }, { id: registry, evidence: null }] });
  });

  it('is 404 for an unknown session and any never given to a reviewer or never submitted; 400 for an id that is not one', async () => {
    const sandbox = await newSession({ decisionSource: 'sandbox', status: 'verified', decidedBy: 'test_value' });
    const smileId = await newSession({ decisionSource: 'smile_id', status: 'rejected', decidedBy: 'smile_id' });
    const waitingOnSandbox = await newSession({ decisionSource: 'sandbox' });
    const pending = await newSession({ status: 'pending', submittedAt: null });
    const expiredUnsubmitted = await newSession({ status: 'expired', submittedAt: null });
    const refused = [sandbox, smileId, waitingOnSandbox, pending, expiredUnsubmitted].map(
      (session) => session.sessionId,
    );
    for (const id of [randomUUID(), ...refused]) {
      const response = await get(`/v1/reviews/${id}`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'not_found', error: 'Verification session not found' });
      expect(await viewsOf(id)).toEqual([]);
    }
    expect((await get('/v1/reviews/not-a-uuid')).statusCode).toBe(400);
  });
});
