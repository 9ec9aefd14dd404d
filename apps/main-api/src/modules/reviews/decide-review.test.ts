import { notifications, users, verificationReviewClaims, webhookEvents } from '@platform/db/schema';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { insertUser } from '../../../test/helpers.js';
import {
  auditEventsOf,
  holdMovements,
  insertSessionToReview,
  type ReviewTestApp,
  sessionState,
} from '../../../test/review-fixtures.js';
import { CUSTOMER_OWNER, REVIEWER, SECOND_REVIEWER, useReviewRoutes } from '../../../test/review-routes-fixtures.js';
import { CLAIM_TTL_MS } from './claim-review.js';

// POST /v1/reviews/:sessionId/decision: everything a decision does through the lifecycle, its rules and refusals.
// Races between reviewers are in concurrency.test.ts (PostgreSQL), the whole path through backend-api in
// review-flow.test.ts.

const suite = useReviewRoutes();
const { decide, claim, newSession } = suite;
let t: ReviewTestApp;
beforeAll(() => {
  t = suite.t;
});

describe('POST /v1/reviews/:sessionId/decision', () => {
  it('verifies through the lifecycle: price captured, callback queued, members notified, claim released, all logged', async () => {
    const { sessionId } = await newSession({ callbackUrl: 'https://customer.example/callbacks' });
    const response = await decide(sessionId, { decision: 'verified' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      success: true,
      message: 'Session verified',
      data: { sessionId, status: 'verified', previousStatus: 'processing', reason: null, resubmitDocuments: null },
    });
    expect(await sessionState(t.db, sessionId)).toMatchObject({ status: 'verified' });
    expect(await holdMovements(t.db, sessionId)).toEqual(['capture', 'hold']);
    const [event] = await t.db
      .select()
      .from(webhookEvents)
      .where(
        sql`${webhookEvents.payload} -> 'data' ->> 'sessionId' = ${sessionId} and ${webhookEvents.type} = 'verification_session.verified'`,
      );
    expect(event).toMatchObject({ targetUrl: 'https://customer.example/callbacks', environment: 'live' });
    const notified = await t.db.select().from(notifications).where(eq(notifications.userId, CUSTOMER_OWNER));
    expect(notified.map((notification) => notification.title)).toContain('Verification completed');
    // Deciding without a claim claimed it; the decision released it.
    expect(await t.db.$count(verificationReviewClaims, eq(verificationReviewClaims.sessionId, sessionId))).toBe(0);
    const [decided] = (await auditEventsOf(t.db, t.platformOrganizationId, 'review.decided')).filter(
      (row) => row.targetId === sessionId,
    );
    expect(decided).toMatchObject({
      actorUserId: REVIEWER,
      details: { sessionId, decision: 'verified', type: 'kyc', environment: 'live' },
    });
  });

  it('rejects with the reason, which becomes lastError and is sent in the callback', async () => {
    const { sessionId } = await newSession();
    const response = await decide(sessionId, { decision: 'rejected', reason: '  The photo does not match the ID  ' });
    expect(response.statusCode, response.body).toBe(200);
    expect(await sessionState(t.db, sessionId)).toMatchObject({
      status: 'rejected',
      lastError: 'The photo does not match the ID',
    });
    expect(await holdMovements(t.db, sessionId)).toEqual(['capture', 'hold']);
  });

  it('asks for documents again: requires_input keeps the kinds on the session and the price held', async () => {
    const { sessionId } = await newSession();
    const response = await decide(sessionId, {
      decision: 'requires_input',
      reason: 'The selfie is blurred',
      documents: ['selfie'],
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ data: { status: 'requires_input', resubmitDocuments: ['selfie'] } });
    expect(await sessionState(t.db, sessionId)).toMatchObject({
      status: 'requires_input',
      lastError: 'The selfie is blurred',
      resubmitDocuments: ['selfie'],
    });
    expect(await holdMovements(t.db, sessionId)).toEqual(['hold']);
    const [decided] = (await auditEventsOf(t.db, t.platformOrganizationId, 'review.decided')).filter(
      (row) => row.targetId === sessionId,
    );
    expect(decided?.details).toMatchObject({ decision: 'requires_input', documents: ['selfie'] });
  });

  it.each([
    [{ decision: 'rejected' }, '/reason'],
    [{ decision: 'rejected', reason: '   ' }, '/reason'],
    [{ decision: 'requires_input' }, '/reason'],
    [{ decision: 'verified', documents: ['selfie'] }, '/documents'],
    [{ decision: 'requires_input', reason: 'More', documents: ['cr12'] }, '/documents'],
    [{ decision: 'maybe' }, '/decision'],
    [{ decision: 'verified', note: 'x' }, '/note'],
  ])('refuses %j with 400 naming %s and changes nothing', async (body, path) => {
    const { sessionId } = await newSession();
    const response = await decide(sessionId, body);
    expect(response.statusCode, response.body).toBe(400);
    const answer = response.json<{ code: string; details: Array<{ path: string }> }>();
    expect(answer.code).toBe('validation_error');
    expect(answer.details.map((detail) => detail.path).join(' ')).toContain(path);
    expect(await sessionState(t.db, sessionId)).toMatchObject({ status: 'processing' });
    expect(await holdMovements(t.db, sessionId)).toEqual(['hold']);
    expect(await t.db.$count(verificationReviewClaims, eq(verificationReviewClaims.sessionId, sessionId))).toBe(0);
  });

  it("is 409 while another reviewer's claim holds, and allowed once it expired", async () => {
    const { sessionId } = await newSession();
    expect((await claim(sessionId, SECOND_REVIEWER)).statusCode).toBe(200);
    const refused = await decide(sessionId, { decision: 'verified' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ error: string }>().error).toMatch(/^Claimed by another reviewer until /);
    expect(await sessionState(t.db, sessionId)).toMatchObject({ status: 'processing' });
    t.clock.advance(CLAIM_TTL_MS);
    expect((await decide(sessionId, { decision: 'verified' })).statusCode).toBe(200);
  });

  it('is 409 for a session already decided (a second decision changes nothing) and 404 for one no reviewer decides', async () => {
    const { sessionId } = await newSession();
    expect((await decide(sessionId, { decision: 'verified' })).statusCode).toBe(200);
    const again = await decide(sessionId, { decision: 'rejected', reason: 'Changed my mind' }, SECOND_REVIEWER);
    expect(again.statusCode).toBe(409);
    expect(await sessionState(t.db, sessionId)).toMatchObject({ status: 'verified' });
    expect(await holdMovements(t.db, sessionId)).toEqual(['capture', 'hold']);
    const sandbox = await newSession({ decisionSource: 'sandbox' });
    expect((await decide(sandbox.sessionId, { decision: 'verified' })).statusCode).toBe(404);
  });

  it("sets a platform user's kycStatus from the platform organization's own live kyc session", async () => {
    const person = 'user_verified_person';
    await insertUser(t.db, { id: person, kycStatus: 'pending' });
    const { sessionId } = await insertSessionToReview(t.db, t.vault, {
      organizationId: t.platformOrganizationId,
      externalEndUserId: person,
    });
    expect((await decide(sessionId, { decision: 'verified' })).statusCode).toBe(200);
    const [user] = await t.db.select({ kycStatus: users.kycStatus }).from(users).where(eq(users.id, person));
    expect(user?.kycStatus).toBe('verified');
  });

  it('observes the time from submission to decision in verification_decision_duration_seconds, source manual', async () => {
    const { sessionId } = await newSession({ type: 'kyb', environment: 'test', submittedAt: t.clock.now() });
    t.clock.advance(90_000);
    expect((await decide(sessionId, { decision: 'rejected', reason: 'Wrong papers' })).statusCode).toBe(200);
    const metrics = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    const labels = 'type="kyb",environment="test",outcome="rejected",source="manual"';
    expect(metrics).toContain(`verification_decision_duration_seconds_count{${labels}} 1`);
    expect(metrics).toContain(`verification_decision_duration_seconds_bucket{le="60",${labels}} 0`);
    expect(metrics).toContain(`verification_decision_duration_seconds_bucket{le="300",${labels}} 1`);
  });
});
