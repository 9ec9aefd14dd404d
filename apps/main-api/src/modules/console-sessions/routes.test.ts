import { auditEvents, reviewConsoleSessions } from '@platform/db/schema';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queueStatus, signInToConsole } from '../../../test/console-sign-in.js';
import { authHeader, tokenFor } from '../../../test/helpers.js';
import { addPlatformMember, createReviewTestApp, type ReviewTestApp } from '../../../test/review-fixtures.js';

// DELETE /v1/review-console/users/:userId/sessions: the platform organization's owners and admins end every console
// session of a user (docs/decisions.md#console-sessions). Which roles may is walked by src/security/role-matrix.test.ts.

const ADMIN = 'user_console_sessions_admin';

let t: ReviewTestApp;

beforeAll(async () => {
  t = await createReviewTestApp();
  await addPlatformMember(t, ADMIN, 'admin');
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.db.delete(reviewConsoleSessions);
});

async function endSessionsOf(userId: string, caller = ADMIN) {
  return t.app.inject({
    method: 'DELETE',
    url: `/v1/review-console/users/${encodeURIComponent(userId)}/sessions`,
    headers: await authHeader(caller),
  });
}

const endedEvents = () =>
  t.db
    .select()
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.organizationId, t.platformOrganizationId),
        eq(auditEvents.action, 'review_console.sessions_ended'),
      ),
    );

describe('DELETE /v1/review-console/users/:userId/sessions', () => {
  it("ends every console session of the user at once, and records it in the platform organization's log", async () => {
    const token = await tokenFor(t.reviewerId, { now: t.clock.now() });
    const sessions = [await signInToConsole(t, token), await signInToConsole(t, token)];
    for (const { cookie } of sessions) expect(await queueStatus(t, cookie)).toBe(200);

    const response = await endSessionsOf(t.reviewerId);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      message: 'Console sessions ended',
      data: { userId: t.reviewerId, ended: 2 },
    });
    for (const { cookie } of sessions) expect(await queueStatus(t, cookie)).toBe(401);
    const [event, ...more] = await endedEvents();
    expect(more).toEqual([]);
    expect(event).toMatchObject({
      actorUserId: ADMIN,
      targetType: 'user',
      targetId: t.reviewerId,
      details: { ended: 2 },
    });

    // Nothing left to end: 0, and nothing more in the log. The reviewer may sign in again.
    expect((await endSessionsOf(t.reviewerId)).json().data).toEqual({ userId: t.reviewerId, ended: 0 });
    expect(await endedEvents()).toHaveLength(1);
    expect(await queueStatus(t, (await signInToConsole(t, token)).cookie)).toBe(200);
  });

  it('answers 403 to a reviewer, who cannot end anyone’s sessions, and ends nothing', async () => {
    const { cookie } = await signInToConsole(t, await tokenFor(t.reviewerId, { now: t.clock.now() }));
    const response = await endSessionsOf(t.reviewerId, t.reviewerId);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ success: false, code: 'forbidden' });
    expect(await queueStatus(t, cookie)).toBe(200);
  });
});
