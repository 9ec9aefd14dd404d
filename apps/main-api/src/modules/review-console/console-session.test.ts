import { reviewConsoleSessions } from '@platform/db/schema';
import { describe, expect, it } from 'vitest';
import { cookieOf, FORM, form, SESSION_ID, useReviewConsole } from '../../../test/review-console-fixtures.js';

// The console's session: its end after eight hours or at the token's end, the cookie kept after sign-out, every
// session of a reviewer who lost the role, what the server keeps and the cookie holds, forged cookies. The console
// runs over a recording review service (test/review-console-fixtures.ts).

const c = useReviewConsole();
const { signedIn } = c;

describe('the review console', () => {
  it('ends the session after eight hours', async () => {
    const { cookie } = await signedIn();
    c.now = new Date(c.now.getTime() + 8 * 60 * 60 * 1000 - 1);
    expect((await c.app.inject({ method: 'GET', url: '/review', headers: { cookie } })).statusCode).toBe(200);
    c.now = new Date(c.now.getTime() + 1);
    const response = await c.app.inject({ method: 'GET', url: '/review', headers: { cookie } });
    expect(response.statusCode).toBe(401);
  });

  it('ends a session opened with a token expiring in 10 minutes when the token expires', async () => {
    const { cookie } = await signedIn('user_reviewer', 'token-for-user_reviewer:600');
    const [session] = await c.database.db.select().from(reviewConsoleSessions);
    expect(session?.expiresAt).toEqual(new Date(c.now.getTime() + 600_000));
    c.now = new Date(c.now.getTime() + 600_000 - 1);
    expect((await c.app.inject({ method: 'GET', url: '/review', headers: { cookie } })).statusCode).toBe(200);
    c.now = new Date(c.now.getTime() + 1);
    const response = await c.app.inject({ method: 'GET', url: '/review', headers: { cookie } });
    expect(response.statusCode).toBe(401);
    expect(response.body).toContain('<label for="token">Access token</label>');
  });

  it('refuses the cookie of a signed-out session, kept and sent again', async () => {
    const { cookie, csrf } = await signedIn();
    const out = await c.app.inject({
      method: 'POST',
      url: '/review/sign-out',
      headers: { ...FORM, cookie },
      payload: form({ _csrf: csrf }),
    });
    expect(out.statusCode).toBe(200);
    // The browser is told to drop the cookie; whoever kept a copy sends it anyway.
    expect(cookieOf(out, cookie)).toBeUndefined();
    const replayed = await c.app.inject({ method: 'GET', url: '/review', headers: { cookie } });
    expect(replayed.statusCode).toBe(401);
    const decision = await c.app.inject({
      method: 'POST',
      url: `/review/sessions/${SESSION_ID}/decision`,
      headers: { ...FORM, cookie },
      payload: form({ _csrf: csrf, decision: 'verified' }),
    });
    expect(decision.statusCode).toBe(401);
    expect(c.reviews.decided).toEqual([]);
    expect(await c.database.db.select().from(reviewConsoleSessions)).toEqual([]);
  });

  it('ends every session of a reviewer whose role is taken away, so none comes back with the role', async () => {
    const first = await signedIn();
    const second = await signedIn();
    c.reviews.reviewers.delete('user_reviewer');
    const refused = await c.app.inject({ method: 'GET', url: '/review', headers: { cookie: first.cookie } });
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('This needs the role reviewer');
    c.reviews.reviewers.add('user_reviewer');
    for (const { cookie } of [first, second]) {
      expect((await c.app.inject({ method: 'GET', url: '/review', headers: { cookie } })).statusCode).toBe(401);
    }
  });

  it('keeps only the hash of the secret on the server, and neither the secret nor the user in the cookie', async () => {
    const { cookie } = await signedIn();
    const [session] = await c.database.db.select().from(reviewConsoleSessions);
    expect(session).toMatchObject({ userId: 'user_reviewer', secretHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const value = decodeURIComponent(cookie.slice(cookie.indexOf('=') + 1));
    expect(value).not.toContain('user_reviewer');
    expect(value).not.toContain(session?.secretHash);
  });

  it('refuses a forged or foreign cookie', async () => {
    const response = await c.app.inject({
      method: 'GET',
      url: '/review',
      headers: { cookie: '__Host-review_session=AAAA%3BBBBB' },
    });
    expect(response.statusCode).toBe(401);
  });
});
