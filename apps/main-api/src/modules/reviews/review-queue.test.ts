import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ReviewTestApp } from '../../../test/review-fixtures.js';
import { REVIEWER, SECOND_REVIEWER, useReviewRoutes } from '../../../test/review-routes-fixtures.js';
import { CLAIM_TTL_MS } from './claim-review.js';

// GET /v1/reviews: the sessions waiting for a reviewer, their order, pages and claims, each naming its customer; and
// ?state=decided, the sessions given to reviewers that are decided (docs/decisions.md#decided-reviews).

const suite = useReviewRoutes();
const { get, claim, decide, newSession } = suite;

type Page = { data: { reviews: Array<Record<string, unknown>>; nextCursor: string | null } };
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
        organization: { id: suite.customerId, name: 'Customer' },
        appName: 'Acme Lending',
        status: 'processing',
        submittedAt: at(10).toISOString(),
        claimedBy: null,
        claimExpiresAt: null,
        decision: null,
        decidedBy: null,
        decidedAt: null,
        reason: null,
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

  it('lists the decided sessions given to reviewers, newest decision first, a page at a time, in the same shape', async () => {
    const base = Date.now() - 3_600_000;
    const at = (minutes: number) => new Date(base + minutes * 60_000);
    const older = await newSession({ status: 'verified', decidedAt: at(10), submittedAt: at(1) });
    const asked = await newSession({
      status: 'requires_input',
      decidedAt: at(30),
      decidedBy: `reviewer:${SECOND_REVIEWER}`,
      decisionReason: 'Take the selfie again',
    });
    const handedOver = await newSession({
      status: 'rejected',
      handOver: { actor: 'smile_id', reason: 'Smile ID refused the job' },
      decidedAt: at(20),
      decisionReason: 'The ID card is not readable',
    });
    // Not listed: waiting, decided without a reviewer (sandbox, Smile ID), never submitted.
    await newSession();
    await newSession({ decisionSource: 'sandbox', status: 'verified', decidedBy: 'test_value', decidedAt: at(40) });
    await newSession({ decisionSource: 'smile_id', status: 'verified', decidedBy: 'smile_id', decidedAt: at(41) });
    await newSession({ status: 'expired', submittedAt: null });

    const page1 = await get('/v1/reviews?state=decided&limit=2');
    expect(page1.statusCode, page1.body).toBe(200);
    const body1 = page1.json<Page>();
    expect(body1.data.reviews).toEqual([
      {
        sessionId: asked.sessionId,
        type: 'kyc',
        environment: 'live',
        organization: { id: suite.customerId, name: 'Customer' },
        appName: 'Acme Lending',
        status: 'requires_input',
        submittedAt: expect.any(String),
        claimedBy: null,
        claimExpiresAt: null,
        decision: 'requires_input',
        decidedBy: { kind: 'reviewer', userId: SECOND_REVIEWER, name: null, email: `${SECOND_REVIEWER}@example.com` },
        decidedAt: at(30).toISOString(),
        reason: 'Take the selfie again',
      },
      expect.objectContaining({
        sessionId: handedOver.sessionId,
        decision: 'rejected',
        decidedAt: at(20).toISOString(),
      }),
    ]);
    const page2 = await get(`/v1/reviews?state=decided&limit=2&cursor=${body1.data.nextCursor}`);
    const body2 = page2.json<Page>();
    expect(body2.data.reviews).toEqual([
      expect.objectContaining({
        sessionId: older.sessionId,
        submittedAt: at(1).toISOString(),
        decidedBy: expect.objectContaining({ userId: REVIEWER }),
      }),
    ]);
    expect(body2.data.nextCursor).toBeNull();
    // The default is the queue: the waiting session only.
    expect((await get('/v1/reviews?state=waiting')).json<Page>().data.reviews).toHaveLength(1);
    expect((await get('/v1/reviews')).json<Page>().data.reviews).toHaveLength(1);
  });

  it('moves a session from the queue to the decided list when a reviewer decides it', async () => {
    const { sessionId } = await newSession();
    expect((await decide(sessionId, { decision: 'verified' })).statusCode).toBe(200);
    expect((await get('/v1/reviews')).json<Page>().data.reviews).toEqual([]);
    expect((await get('/v1/reviews?state=decided')).json<Page>().data.reviews).toEqual([
      expect.objectContaining({ sessionId, status: 'verified', decision: 'verified', reason: null }),
    ]);
  });

  it('documents the states, the organization, the decision and the checks in OpenAPI', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const state = document.paths['/v1/reviews'].get.parameters.find(
      (parameter: { name: string }) => parameter.name === 'state',
    );
    expect(state.schema).toMatchObject({ enum: ['waiting', 'decided'], default: 'waiting' });
    const { ReviewQueueEntry, ReviewDetail, ReviewActor, ReviewCheck } = document.components.schemas;
    expect(Object.keys(ReviewQueueEntry.properties)).toEqual(
      expect.arrayContaining(['organization', 'decision', 'decidedBy', 'decidedAt', 'reason']),
    );
    expect(Object.keys(ReviewDetail.properties)).toEqual(expect.arrayContaining(['checks', 'personalDataErasedAt']));
    expect(Object.keys(ReviewActor.properties)).toEqual(['kind', 'userId', 'name', 'email']);
    // What the check saw of the person is opened for the reviewer (docs/decisions.md#the-checks-beside-the-documents).
    expect(Object.keys(ReviewCheck.properties)).toEqual(expect.arrayContaining(['code', 'details', 'evidence']));
  });

  it('refuses a cursor it did not give, a limit out of range and an unknown state (400)', async () => {
    expect((await get('/v1/reviews?state=all')).statusCode).toBe(400);
    expect((await get('/v1/reviews?state=decided&cursor=bm9wZQ')).statusCode).toBe(400);
    expect((await get('/v1/reviews?cursor=bm9wZQ')).statusCode).toBe(400);
    expect((await get('/v1/reviews?limit=0')).statusCode).toBe(400);
    expect((await get('/v1/reviews?limit=101')).statusCode).toBe(400);
  });
});
