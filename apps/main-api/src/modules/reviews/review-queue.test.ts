import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ReviewTestApp } from '../../../test/review-fixtures.js';
import { SECOND_REVIEWER, useReviewRoutes } from '../../../test/review-routes-fixtures.js';
import { CLAIM_TTL_MS } from './claim-review.js';

// GET /v1/reviews: the sessions waiting for a reviewer, their order, pages and claims.

const suite = useReviewRoutes();
const { get, claim, newSession } = suite;
let t: ReviewTestApp;
beforeAll(() => {
  t = suite.t;
});

describe('GET /v1/reviews', () => {
  beforeEach(async () => {
    await t.db.execute(sql`truncate verification_sessions cascade`);
  });

  it('lists the sessions waiting for a reviewer, oldest submission first, a page at a time', async () => {
    const base = Date.now() - 3_600_000;
    const at = (minutes: number) => new Date(base + minutes * 60_000);
    const third = await newSession({ submittedAt: at(30), type: 'kyb', appName: null });
    const first = await newSession({ submittedAt: at(10) });
    const second = await newSession({ submittedAt: at(20), environment: 'test' });
    // Not waiting for a person: decided by the sandbox, not submitted yet, decided already.
    await newSession({ submittedAt: at(5), decisionSource: 'sandbox' });
    await newSession({ status: 'pending', submittedAt: null });
    await newSession({ status: 'verified', submittedAt: at(1) });

    const page1 = await get('/v1/reviews?limit=2');
    expect(page1.statusCode, page1.body).toBe(200);
    const body1 = page1.json<{ data: { reviews: Array<Record<string, unknown>>; nextCursor: string | null } }>();
    expect(body1.data.reviews).toEqual([
      {
        sessionId: first.sessionId,
        type: 'kyc',
        environment: 'live',
        appName: 'Acme Lending',
        submittedAt: at(10).toISOString(),
        claimedBy: null,
        claimExpiresAt: null,
      },
      expect.objectContaining({ sessionId: second.sessionId, environment: 'test' }),
    ]);
    expect(body1.data.nextCursor).toEqual(expect.any(String));

    const page2 = await get(`/v1/reviews?limit=2&cursor=${body1.data.nextCursor}`);
    const body2 = page2.json<{ data: { reviews: Array<Record<string, unknown>>; nextCursor: string | null } }>();
    expect(body2.data.reviews).toEqual([
      expect.objectContaining({ sessionId: third.sessionId, type: 'kyb', appName: null }),
    ]);
    expect(body2.data.nextCursor).toBeNull();
  });

  it('shows who holds a claim until it expires', async () => {
    const { sessionId } = await newSession();
    expect((await claim(sessionId, SECOND_REVIEWER)).statusCode).toBe(200);
    const listed = async () =>
      (await get('/v1/reviews')).json<{ data: { reviews: Array<Record<string, unknown>> } }>().data.reviews[0];
    expect(await listed()).toMatchObject({
      claimedBy: SECOND_REVIEWER,
      claimExpiresAt: new Date(t.clock.now().getTime() + CLAIM_TTL_MS).toISOString(),
    });
    t.clock.advance(CLAIM_TTL_MS);
    expect(await listed()).toMatchObject({ claimedBy: null, claimExpiresAt: null });
  });

  it('refuses a cursor it did not give and a limit out of range (400)', async () => {
    expect((await get('/v1/reviews?cursor=bm9wZQ')).statusCode).toBe(400);
    expect((await get('/v1/reviews?limit=0')).statusCode).toBe(400);
    expect((await get('/v1/reviews?limit=101')).statusCode).toBe(400);
  });
});
