import { randomUUID } from 'node:crypto';
import { verificationReviewClaims } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { authHeader, createTestApp, insertOrganization, insertUser } from '../../../test/helpers.js';
import { addPlatformMember, type ReviewTestApp, sessionState } from '../../../test/review-fixtures.js';
import { CUSTOMER_OWNER, NEEDS_REVIEWER, useReviewRoutes } from '../../../test/review-routes-fixtures.js';

// Who may call the review routes: reviewers of the platform organization only, and nobody without one.

const suite = useReviewRoutes();
const { as, get, decide, claim, newSession } = suite;
let t: ReviewTestApp;
beforeAll(() => {
  t = suite.t;
});

describe('who may review', () => {
  it('lets only reviewers of the platform organization in: owners and admins there, and reviewers elsewhere, get 403', async () => {
    await addPlatformMember(t, 'user_platform_owner', 'owner');
    await addPlatformMember(t, 'user_platform_admin', 'admin');
    await insertUser(t.db, { id: 'user_reviewer_elsewhere' });
    await insertOrganization(t.db, { members: [{ userId: 'user_reviewer_elsewhere', role: 'reviewer' }] });
    const { sessionId } = await newSession();
    for (const userId of ['user_platform_owner', 'user_platform_admin', 'user_reviewer_elsewhere', CUSTOMER_OWNER]) {
      for (const response of [
        await get('/v1/reviews', userId),
        await get(`/v1/reviews/${sessionId}`, userId),
        await claim(sessionId, userId),
        await decide(sessionId, { decision: 'verified' }, userId),
      ]) {
        expect(response.statusCode, `${userId}: ${response.body}`).toBe(403);
        expect(response.json()).toMatchObject({ success: false, code: 'forbidden', error: NEEDS_REVIEWER });
      }
    }
    expect(await sessionState(t.db, sessionId)).toMatchObject({ status: 'processing' });
    expect(await t.db.$count(verificationReviewClaims, eq(verificationReviewClaims.sessionId, sessionId))).toBe(0);
  });

  it('refuses a request without a token (401) and checks the role before the body (403, not 400)', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/v1/reviews' })).statusCode).toBe(401);
    const response = await decide(randomUUID(), { decision: 'nonsense', extra: true }, CUSTOMER_OWNER);
    expect(response.statusCode).toBe(403);
  });

  it('ignores X-Organization-Id: the platform organization is the one that counts', async () => {
    const headers = { ...(await as(CUSTOMER_OWNER)), 'x-organization-id': suite.customerId };
    const response = await t.app.inject({ method: 'GET', url: '/v1/reviews', headers });
    expect(response.statusCode).toBe(403);
  });
});

describe('without PLATFORM_ORGANIZATION_ID', () => {
  it('answers 403 to everyone, a reviewer of any organization included', async () => {
    const other = await createTestApp();
    try {
      await insertUser(other.db, { id: 'user_lone_reviewer' });
      await insertOrganization(other.db, { members: [{ userId: 'user_lone_reviewer', role: 'reviewer' }] });
      const response = await other.app.inject({
        method: 'GET',
        url: '/v1/reviews',
        headers: await authHeader('user_lone_reviewer'),
      });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ error: NEEDS_REVIEWER });
    } finally {
      await other.close();
    }
  });
});
