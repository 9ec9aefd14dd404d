import { conflict, validationError } from '@platform/errors';
import { describe, expect, it } from 'vitest';
import { cookieOf, csrfOf, FORM, form, SESSION_ID, useReviewConsole } from '../../../test/review-console-fixtures.js';

// The console's pages and forms for a signed-in reviewer: decisions and their mistakes, the service's conflicts as
// pages, claims, a session's page, and sign-out. The console runs over a recording review service
// (test/review-console-fixtures.ts).

const c = useReviewConsole();
const { signedIn } = c;

describe('the review console', () => {
  it('records a decision with its reason and documents, and refuses one without the form token', async () => {
    const { cookie, csrf } = await signedIn();
    const withoutToken = await c.app.inject({
      method: 'POST',
      url: `/review/sessions/${SESSION_ID}/decision`,
      headers: { ...FORM, cookie },
      payload: form({ decision: 'verified' }),
    });
    expect(withoutToken.statusCode).toBe(403);
    expect(c.reviews.decided).toEqual([]);

    const response = await c.app.inject({
      method: 'POST',
      url: `/review/sessions/${SESSION_ID}/decision`,
      headers: { ...FORM, cookie },
      payload: form({ _csrf: csrf, decision: 'requires_input', reason: ' Blurred ', documents: ['selfie', 'cr12'] }),
    });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/review?notice=decided');
    expect(c.reviews.decided).toEqual([
      {
        sessionId: SESSION_ID,
        reviewerId: 'user_reviewer',
        input: { decision: 'requires_input', reason: 'Blurred', documents: ['selfie', 'cr12'] },
      },
    ]);
  });

  it('sends a mistaken decision back to the page, which says what was wrong, and decides nothing', async () => {
    const { cookie, csrf } = await signedIn();
    const cases: Array<[Record<string, string | string[]>, string, string]> = [
      [{}, 'no_decision', 'Choose a decision.'],
      [{ decision: 'rejected' }, 'no_reason', 'Give a reason'],
      [{ decision: 'verified', documents: 'selfie' }, 'documents_without_request', 'go with'],
      [{ decision: 'requires_input', reason: 'x', documents: 'passport_photo' }, 'unknown_documents', 'from the list'],
    ];
    for (const [values, problem, text] of cases) {
      const response = await c.app.inject({
        method: 'POST',
        url: `/review/sessions/${SESSION_ID}/decision`,
        headers: { ...FORM, cookie },
        payload: form({ _csrf: csrf, ...values }),
      });
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe(`/review/sessions/${SESSION_ID}?error=${problem}`);
      const page = await c.app.inject({ method: 'GET', url: String(response.headers.location), headers: { cookie } });
      expect(page.body).toContain('role="alert"');
      expect(page.body).toContain(text);
    }
    c.reviews.decideError = validationError('The decision cannot be recorded', [
      { path: '/reason', message: 'too long' },
    ]);
    const refused = await c.app.inject({
      method: 'POST',
      url: `/review/sessions/${SESSION_ID}/decision`,
      headers: { ...FORM, cookie },
      payload: form({ _csrf: csrf, decision: 'verified' }),
    });
    expect(refused.headers.location).toBe(`/review/sessions/${SESSION_ID}?error=refused`);
    expect(c.reviews.decided).toEqual([]);
    // An unknown code or notice shows nothing.
    const odd = await c.app.inject({
      method: 'GET',
      url: `/review/sessions/${SESSION_ID}?error=constructor&notice=toString`,
      headers: { cookie },
    });
    expect(odd.statusCode).toBe(200);
    expect(odd.body).not.toContain('role="alert"');
    expect(odd.body).not.toContain('role="status"');
  });

  it('shows a conflict from the review service as a page', async () => {
    const { cookie, csrf } = await signedIn();
    c.reviews.decideError = conflict('Claimed by another reviewer');
    const response = await c.app.inject({
      method: 'POST',
      url: `/review/sessions/${SESSION_ID}/decision`,
      headers: { ...FORM, cookie },
      payload: form({ _csrf: csrf, decision: 'verified' }),
    });
    expect(response.statusCode).toBe(409);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.body).toContain('Claimed by another reviewer');
  });

  it('claims for the signed-in reviewer and signs out', async () => {
    const { cookie, csrf } = await signedIn();
    const claim = await c.app.inject({
      method: 'POST',
      url: `/review/sessions/${SESSION_ID}/claim`,
      headers: { ...FORM, cookie },
      payload: form({ _csrf: csrf }),
    });
    expect(claim.statusCode).toBe(303);
    expect(c.reviews.claimed).toEqual(['user_reviewer']);

    const page = await c.app.inject({ method: 'GET', url: `/review/sessions/${SESSION_ID}`, headers: { cookie } });
    expect(page.body).toContain('alt="Selfie"');
    expect(page.body).toContain('12345678');
    expect(page.body).toContain('<td>The selfie is &lt;blurred&gt;</td>');

    const out = await c.app.inject({
      method: 'POST',
      url: '/review/sign-out',
      headers: { ...FORM, cookie },
      payload: form({ _csrf: csrfOf(page.body) }),
    });
    expect(out.statusCode).toBe(200);
    const after = await c.app.inject({
      method: 'GET',
      url: '/review',
      headers: { cookie: cookieOf(out, cookie) ?? '' },
    });
    expect(after.statusCode).toBe(401);
  });
});
