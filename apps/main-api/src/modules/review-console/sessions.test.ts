import { reviewConsoleSessions } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queueStatus, signInToConsole, signOutOfConsole } from '../../../test/console-sign-in.js';
import { authHeader, tokenFor } from '../../../test/helpers.js';
import { addPlatformMember, createReviewTestApp, type ReviewTestApp } from '../../../test/review-fixtures.js';

// Console sessions on the server (docs/decisions.md#console-sessions), through the whole app: real tokens verified
// by the app's verifier on the app's clock, the role changed through the members routes.

const OWNER = 'user_console_platform_owner';

let t: ReviewTestApp;

beforeAll(async () => {
  t = await createReviewTestApp();
  await addPlatformMember(t, OWNER, 'owner');
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.db.delete(reviewConsoleSessions);
});

const reviewerToken = (options: { expiresIn?: number } = {}) =>
  tokenFor(t.reviewerId, { now: t.clock.now(), ...options });

async function setReviewerRole(role: string) {
  const response = await t.app.inject({
    method: 'PATCH',
    url: `/v1/organizations/${t.platformOrganizationId}/members/${t.reviewerId}`,
    headers: await authHeader(OWNER),
    payload: { role },
  });
  expect(response.statusCode).toBe(200);
}

describe('console sessions', () => {
  it('refuses the old cookie after sign-out', async () => {
    const session = await signInToConsole(t, await reviewerToken());
    expect(await queueStatus(t, session.cookie)).toBe(200);
    expect((await signOutOfConsole(t, session)).statusCode).toBe(200);
    expect(await queueStatus(t, session.cookie)).toBe(401);
  });

  it('refuses a session opened with a token expiring in 10 minutes once the clock passes its expiry', async () => {
    const { cookie } = await signInToConsole(t, await reviewerToken({ expiresIn: 600 }));
    t.clock.advance(599_000);
    expect(await queueStatus(t, cookie)).toBe(200);
    t.clock.advance(1_000);
    expect(await queueStatus(t, cookie)).toBe(401);
  });

  it('refuses a reviewer whose role is removed at once, and does not let the role bring the session back', async () => {
    const { cookie } = await signInToConsole(t, await reviewerToken());
    const other = await signInToConsole(t, await reviewerToken());
    expect(await queueStatus(t, cookie)).toBe(200);

    await setReviewerRole('member');
    // Ended with the role: both browsers are back at the sign-in page.
    expect(await Promise.all([cookie, other.cookie].map((each) => queueStatus(t, each)))).toEqual([401, 401]);
    expect(await t.db.select().from(reviewConsoleSessions)).toEqual([]);

    await setReviewerRole('reviewer');
    expect(await queueStatus(t, cookie)).toBe(401);
    expect(await queueStatus(t, other.cookie)).toBe(401);
    // A new sign-in works again.
    expect(await queueStatus(t, (await signInToConsole(t, await reviewerToken())).cookie)).toBe(200);
  });

  it('ends the sessions of a reviewer removed from the platform organization', async () => {
    const removed = 'user_console_removed_reviewer';
    await addPlatformMember(t, removed, 'reviewer');
    const { cookie } = await signInToConsole(t, await tokenFor(removed, { now: t.clock.now() }));
    const response = await t.app.inject({
      method: 'DELETE',
      url: `/v1/organizations/${t.platformOrganizationId}/members/${removed}`,
      headers: await authHeader(OWNER),
    });
    expect(response.statusCode).toBe(200);
    expect(await t.db.select().from(reviewConsoleSessions).where(eq(reviewConsoleSessions.userId, removed))).toEqual(
      [],
    );
    expect(await queueStatus(t, cookie)).toBe(401);
  });
});
