import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditEventsOf, type ReviewTestApp } from '../../../test/review-fixtures.js';
import { REVIEWER, SECOND_REVIEWER, useReviewRoutes } from '../../../test/review-routes-fixtures.js';
import { CLAIM_TTL_MS } from './claim-review.js';

// POST /v1/reviews/:sessionId/claim: 30-minute claims, renewed, taken over, refused.

const suite = useReviewRoutes();
const { claim, newSession } = suite;
let t: ReviewTestApp;
beforeAll(() => {
  t = suite.t;
});

describe('POST /v1/reviews/:sessionId/claim', () => {
  it('claims for 30 minutes: another reviewer gets 409 naming the end, the holder renews, and an expired claim is taken over', async () => {
    const { sessionId } = await newSession();
    const first = await claim(sessionId);
    expect(first.statusCode, first.body).toBe(200);
    const expiresAt = new Date(t.clock.now().getTime() + CLAIM_TTL_MS).toISOString();
    expect(first.json()).toMatchObject({
      success: true,
      message: 'Session claimed',
      data: { sessionId, claimedBy: REVIEWER, expiresAt },
    });

    const other = await claim(sessionId, SECOND_REVIEWER);
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({ code: 'conflict', error: `Claimed by another reviewer until ${expiresAt}` });

    t.clock.advance(10 * 60_000);
    const renewed = await claim(sessionId);
    expect(renewed.json()).toMatchObject({
      data: { expiresAt: new Date(t.clock.now().getTime() + CLAIM_TTL_MS).toISOString() },
    });

    t.clock.advance(CLAIM_TTL_MS);
    const takenOver = await claim(sessionId, SECOND_REVIEWER);
    expect(takenOver.statusCode).toBe(200);
    expect(takenOver.json()).toMatchObject({ data: { claimedBy: SECOND_REVIEWER } });

    const claims = (await auditEventsOf(t.db, t.platformOrganizationId, 'review.claimed')).filter(
      (event) => event.targetId === sessionId,
    );
    expect(claims.map((event) => event.actorUserId)).toEqual([REVIEWER, REVIEWER, SECOND_REVIEWER]);
  });

  it('is 404 for a session no reviewer decides and 409 for one no longer waiting', async () => {
    const sandbox = await newSession({ decisionSource: 'sandbox' });
    expect((await claim(sandbox.sessionId)).statusCode).toBe(404);
    expect((await claim(randomUUID())).statusCode).toBe(404);
    const decided = await newSession({ status: 'verified' });
    const response = await claim(decided.sessionId);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      error: 'This verification session is not waiting for review: it is verified',
    });
  });
});
