import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditEventsOf, type ReviewTestApp } from '../../../test/review-fixtures.js';
import { REVIEWER, useReviewRoutes } from '../../../test/review-routes-fixtures.js';

// GET /v1/reviews/:sessionId: the submitted details decrypted, the documents with signed links, the history, the
// reading in the audit log.

const suite = useReviewRoutes();
const { get, newSession, detailOf } = suite;
let t: ReviewTestApp;
beforeAll(() => {
  t = suite.t;
});

describe('GET /v1/reviews/:sessionId', () => {
  it('answers the submitted details decrypted, the documents with signed links and the history, and logs the reading', async () => {
    const { sessionId, documents } = await newSession();
    const detail = await detailOf(sessionId);
    expect(detail).toMatchObject({
      sessionId,
      status: 'processing',
      details: { type: 'kyc', idType: 'national_id', idNumber: '12345678' },
      claimedBy: null,
      history: [
        { from: null, to: 'pending', reason: null },
        { from: 'pending', to: 'processing', reason: null },
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
    const [viewed] = await auditEventsOf(t.db, t.platformOrganizationId, 'review.details_viewed').then((rows) =>
      rows.filter((row) => row.targetId === sessionId),
    );
    expect(viewed).toMatchObject({ actorUserId: REVIEWER, targetType: 'verification_session', details: { sessionId } });
    // The ID number is shown to the reviewer, never written to the log.
    expect(JSON.stringify(viewed)).not.toContain('12345678');
  });

  it('shows a kyb session its registration details', async () => {
    const { sessionId } = await newSession({ type: 'kyb' });
    expect((await detailOf(sessionId)).details).toEqual({
      type: 'kyb',
      registrationNumber: 'PVT-AB12CD3',
      companyName: 'Acme Ltd',
    });
  });

  it('is 404 for an unknown session and for any session not waiting for a reviewer; 400 for an id that is not one', async () => {
    const sandbox = await newSession({ decisionSource: 'sandbox' });
    const decided = await newSession({ status: 'rejected' });
    const pending = await newSession({ status: 'pending', submittedAt: null });
    for (const id of [randomUUID(), sandbox.sessionId, decided.sessionId, pending.sessionId]) {
      const response = await get(`/v1/reviews/${id}`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'not_found', error: 'Verification session not found' });
    }
    expect((await get('/v1/reviews/not-a-uuid')).statusCode).toBe(400);
  });
});
