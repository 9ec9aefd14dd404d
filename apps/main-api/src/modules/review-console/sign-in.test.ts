import { describe, expect, it } from 'vitest';
import { cookieOf, csrfOf, FORM, form, SESSION_ID, useReviewConsole } from '../../../test/review-console-fixtures.js';

// Signing in to the review console: the sign-in page and its policy, the token exchanged for the session cookie,
// CSRF before and after sign-in, and the reviewer role at sign-in and on every request. The console runs over a
// recording review service (test/review-console-fixtures.ts).

const c = useReviewConsole();
const { signedIn } = c;

describe('the review console', () => {
  it('asks for sign-in first, with a strict page policy and no caching', async () => {
    const response = await c.app.inject({ method: 'GET', url: '/review' });
    expect(response.statusCode).toBe(401);
    expect(response.body).toContain('<label for="token">Access token</label>');
    expect(response.headers['content-security-policy']).toContain("default-src 'none'");
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
  });

  it('exchanges a reviewer token for an HttpOnly, Secure, SameSite=Strict session cookie and shows the queue', async () => {
    const start = await c.app.inject({ method: 'GET', url: '/review' });
    const response = await c.app.inject({
      method: 'POST',
      url: '/review/sign-in',
      headers: { ...FORM, cookie: cookieOf(start) ?? '' },
      payload: form({ token: 'token-for-user_reviewer', _csrf: csrfOf(start.body) }),
    });
    expect(response.statusCode).toBe(303);
    const line = ([response.headers['set-cookie']].flat() as string[]).find((each) => each.startsWith('__Host-'));
    expect(line).toMatch(/HttpOnly/i);
    expect(line).toMatch(/Secure/i);
    expect(line).toMatch(/SameSite=Strict/i);
    expect(line).toMatch(/Path=\//);
    // The token is not in the cookie: the cookie is sealed and says only who signed in.
    expect(line).not.toContain('token-for-user_reviewer');

    const queue = await c.app.inject({ method: 'GET', url: '/review', headers: { cookie: cookieOf(response) ?? '' } });
    expect(queue.statusCode).toBe(200);
    expect(queue.body).toContain('Duka &lt;Pay&gt;');
    expect(queue.body).toContain('user_other_reviewer');
    expect(queue.body).toContain('/review?cursor=next-page');
  });

  it('refuses a sign-in without the form token, and with a bad access token', async () => {
    const start = await c.app.inject({ method: 'GET', url: '/review' });
    const noCsrf = await c.app.inject({
      method: 'POST',
      url: '/review/sign-in',
      headers: { ...FORM, cookie: cookieOf(start) ?? '' },
      payload: form({ token: 'token-for-user_reviewer' }),
    });
    expect(noCsrf.statusCode).toBe(403);
    expect(noCsrf.body).toContain('This form has expired');
    expect(cookieOf(noCsrf)).toBeUndefined();

    const badToken = await c.app.inject({
      method: 'POST',
      url: '/review/sign-in',
      headers: { ...FORM, cookie: cookieOf(start) ?? '' },
      payload: form({ token: 'forged', _csrf: csrfOf(start.body) }),
    });
    expect(badToken.statusCode).toBe(401);
    expect(badToken.body).toContain('invalid or has expired');
  });

  it('answers 403 to anyone without the reviewer role, at sign-in and when the role is taken away', async () => {
    const start = await c.app.inject({ method: 'GET', url: '/review' });
    const owner = await c.app.inject({
      method: 'POST',
      url: '/review/sign-in',
      headers: { ...FORM, cookie: cookieOf(start) ?? '' },
      payload: form({ token: 'token-for-user_owner', _csrf: csrfOf(start.body) }),
    });
    expect(owner.statusCode).toBe(403);
    expect(owner.body).toContain('This needs the role reviewer');

    const { cookie } = await signedIn();
    c.reviews.reviewers.delete('user_reviewer');
    const after = await c.app.inject({ method: 'GET', url: '/review', headers: { cookie } });
    expect(after.statusCode).toBe(403);
  });

  it('makes a form token taken before sign-in worthless after it', async () => {
    const start = await c.app.inject({ method: 'GET', url: '/review' });
    const before = csrfOf(start.body);
    const response = await c.app.inject({
      method: 'POST',
      url: '/review/sign-in',
      headers: { ...FORM, cookie: cookieOf(start) ?? '' },
      payload: form({ token: 'token-for-user_reviewer', _csrf: before }),
    });
    const decision = await c.app.inject({
      method: 'POST',
      url: `/review/sessions/${SESSION_ID}/decision`,
      headers: { ...FORM, cookie: cookieOf(response) ?? '' },
      payload: form({ _csrf: before, decision: 'verified' }),
    });
    expect(decision.statusCode).toBe(403);
    expect(c.reviews.decided).toEqual([]);
  });
});
