import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { DatabaseHandle } from '@platform/db';
import { reviewConsoleSessions, users } from '@platform/db/schema';
import { createTestDatabase } from '@platform/db/testing';
import { conflict, validationError } from '@platform/errors';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { consoleSessionStoreOf } from '../console-sessions/index.js';
import type { OpenedDocument, ReviewDecisionInput, ReviewDetail, Reviewer, ReviewService } from '../reviews/index.js';
import { reviewConsoleRoutes } from './routes.js';

// The console's sign-in, session cookie, CSRF and forms over a review service that records what it is asked, with
// its sessions in a real database; the real review service is tested in ../reviews, the sessions with the whole app
// (role changes, the operators' route) in sessions.test.ts, and the whole flow in a browser in tools/e2e.

const SESSION_ID = '0b4f8a52-5a4e-4d55-8f0e-1c2d3e4f5a6b';
const SECRET = 'a-console-secret-of-at-least-32-characters';

function review(overrides: Partial<ReviewDetail> = {}): ReviewDetail {
  return {
    sessionId: SESSION_ID,
    type: 'kyc',
    environment: 'live',
    appName: 'Duka <Pay>',
    submittedAt: '2026-03-02T09:00:00.000Z',
    claimedBy: null,
    status: 'processing',
    claimExpiresAt: null,
    requiredDocuments: ['id_document_front', 'id_document_back', 'selfie'],
    details: { type: 'kyc', idType: 'national_id', idNumber: '12345678' },
    documents: [
      {
        id: 'd1',
        kind: 'selfie',
        contentType: 'image/jpeg',
        sizeBytes: 2048,
        uploadedAt: '2026-03-02T08:50:00.000Z',
        url: 'https://api.example.test/v1/reviews/x/documents/d1/content?s=1',
        urlExpiresAt: '2026-03-02T10:05:00.000Z',
      },
    ],
    history: [
      { from: null, to: 'pending', reason: null, at: '2026-03-02T08:00:00.000Z' },
      { from: 'processing', to: 'requires_input', reason: 'The selfie is <blurred>', at: '2026-03-02T08:30:00.000Z' },
    ],
    ...overrides,
  };
}

/** A review service that records what it is asked, and answers one session. */
class RecordingReviews implements ReviewService {
  reviewers = new Set(['user_reviewer']);
  decided: Array<{ sessionId: string; reviewerId: string; input: ReviewDecisionInput }> = [];
  claimed: string[] = [];
  decideError: Error | undefined;
  async listQueue() {
    const { sessionId, type, environment, appName, submittedAt, claimExpiresAt } = review();
    const entry = { sessionId, type, environment, appName, submittedAt, claimExpiresAt };
    return { reviews: [{ ...entry, claimedBy: 'user_other_reviewer' }], nextCursor: 'next-page' };
  }
  async getReview() {
    return review();
  }
  async claimReview(reviewer: Reviewer, sessionId: string) {
    this.claimed.push(reviewer.userId);
    return { sessionId, claimedBy: reviewer.userId, claimedAt: '', expiresAt: '' };
  }
  async decideReview(reviewer: Reviewer, sessionId: string, input: ReviewDecisionInput) {
    if (this.decideError !== undefined) throw this.decideError;
    this.decided.push({ sessionId, reviewerId: reviewer.userId, input });
    const decided = { status: input.decision, previousStatus: 'processing', reason: null, decidedAt: '' } as const;
    return { sessionId, ...decided, resubmitDocuments: null };
  }
  async openDocument(): Promise<OpenedDocument> {
    throw new Error('the console serves no document: the links go to /v1/reviews');
  }
  async isReviewer(userId: string) {
    return this.reviewers.has(userId);
  }
}

let app: FastifyInstance;
let reviews: RecordingReviews;
let now: Date;
let database: DatabaseHandle;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

/** How long the tokens the test identity provider issues are valid. */
const TOKEN_LIFETIME_MS = 24 * 60 * 60 * 1000;

beforeEach(async () => {
  await database.db.delete(users);
  await database.db.insert(users).values([
    { id: 'user_reviewer', email: 'reviewer@example.test' },
    { id: 'user_owner', email: 'owner@example.test' },
  ]);
  reviews = new RecordingReviews();
  now = new Date('2026-03-02T10:00:00Z');
  app = Fastify().withTypeProvider<TypeBoxTypeProvider>();
  await app.register(reviewConsoleRoutes, {
    reviews,
    sessions: consoleSessionStoreOf(database.db),
    secret: SECRET,
    publicUrl: 'https://api.example.test',
    now: () => now,
    // `token-for-<user>`, valid a day; `token-for-<user>:<seconds>`, valid that many seconds from now.
    verifyToken: async (token) => {
      const match = /^token-for-([a-z_]+)(?::(\d+))?$/.exec(token);
      if (match?.[1] === undefined) throw new Error('bad token');
      const lifetime = match[2] === undefined ? TOKEN_LIFETIME_MS : Number(match[2]) * 1000;
      return { id: match[1], expiresAt: new Date(now.getTime() + lifetime) };
    },
  });
});
afterEach(async () => {
  await app.close();
});

/** A browser's cookie jar, reduced to the one cookie. */
function cookieOf(response: { headers: Record<string, unknown> }, previous?: string): string | undefined {
  const set = [response.headers['set-cookie'] ?? []].flat() as string[];
  const session = set.find((line) => line.startsWith('__Host-review_session='));
  if (session === undefined) return previous;
  const value = session.split(';')[0] ?? '';
  return value.endsWith('=') ? undefined : value;
}

function csrfOf(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (match?.[1] === undefined) throw new Error('the page has no CSRF field');
  return match[1];
}

function form(values: Record<string, string | string[]>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) for (const each of [value].flat()) params.append(key, each);
  return params.toString();
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

async function signedIn(
  userId = 'user_reviewer',
  token = `token-for-${userId}`,
): Promise<{ cookie: string; csrf: string }> {
  const start = await app.inject({ method: 'GET', url: '/review' });
  let cookie = cookieOf(start);
  const response = await app.inject({
    method: 'POST',
    url: '/review/sign-in',
    headers: { ...FORM, cookie: cookie ?? '' },
    payload: form({ token, _csrf: csrfOf(start.body) }),
  });
  expect(response.statusCode).toBe(303);
  cookie = cookieOf(response, cookie);
  const queue = await app.inject({ method: 'GET', url: '/review', headers: { cookie: cookie ?? '' } });
  expect(queue.statusCode).toBe(200);
  // The first page after sign-in makes a new CSRF secret, so the cookie changes once more.
  return { cookie: cookieOf(queue, cookie) ?? '', csrf: csrfOf(queue.body) };
}

describe('the review console', () => {
  it('asks for sign-in first, with a strict page policy and no caching', async () => {
    const response = await app.inject({ method: 'GET', url: '/review' });
    expect(response.statusCode).toBe(401);
    expect(response.body).toContain('<label for="token">Access token</label>');
    expect(response.headers['content-security-policy']).toContain("default-src 'none'");
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
  });

  it('exchanges a reviewer token for an HttpOnly, Secure, SameSite=Strict session cookie and shows the queue', async () => {
    const start = await app.inject({ method: 'GET', url: '/review' });
    const response = await app.inject({
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

    const queue = await app.inject({ method: 'GET', url: '/review', headers: { cookie: cookieOf(response) ?? '' } });
    expect(queue.statusCode).toBe(200);
    expect(queue.body).toContain('Duka &lt;Pay&gt;');
    expect(queue.body).toContain('user_other_reviewer');
    expect(queue.body).toContain('/review?cursor=next-page');
  });

  it('refuses a sign-in without the form token, and with a bad access token', async () => {
    const start = await app.inject({ method: 'GET', url: '/review' });
    const noCsrf = await app.inject({
      method: 'POST',
      url: '/review/sign-in',
      headers: { ...FORM, cookie: cookieOf(start) ?? '' },
      payload: form({ token: 'token-for-user_reviewer' }),
    });
    expect(noCsrf.statusCode).toBe(403);
    expect(noCsrf.body).toContain('This form has expired');
    expect(cookieOf(noCsrf)).toBeUndefined();

    const badToken = await app.inject({
      method: 'POST',
      url: '/review/sign-in',
      headers: { ...FORM, cookie: cookieOf(start) ?? '' },
      payload: form({ token: 'forged', _csrf: csrfOf(start.body) }),
    });
    expect(badToken.statusCode).toBe(401);
    expect(badToken.body).toContain('invalid or has expired');
  });

  it('answers 403 to anyone without the reviewer role, at sign-in and when the role is taken away', async () => {
    const start = await app.inject({ method: 'GET', url: '/review' });
    const owner = await app.inject({
      method: 'POST',
      url: '/review/sign-in',
      headers: { ...FORM, cookie: cookieOf(start) ?? '' },
      payload: form({ token: 'token-for-user_owner', _csrf: csrfOf(start.body) }),
    });
    expect(owner.statusCode).toBe(403);
    expect(owner.body).toContain('This needs the role reviewer');

    const { cookie } = await signedIn();
    reviews.reviewers.delete('user_reviewer');
    const after = await app.inject({ method: 'GET', url: '/review', headers: { cookie } });
    expect(after.statusCode).toBe(403);
  });

  it('makes a form token taken before sign-in worthless after it', async () => {
    const start = await app.inject({ method: 'GET', url: '/review' });
    const before = csrfOf(start.body);
    const response = await app.inject({
      method: 'POST',
      url: '/review/sign-in',
      headers: { ...FORM, cookie: cookieOf(start) ?? '' },
      payload: form({ token: 'token-for-user_reviewer', _csrf: before }),
    });
    const decision = await app.inject({
      method: 'POST',
      url: `/review/sessions/${SESSION_ID}/decision`,
      headers: { ...FORM, cookie: cookieOf(response) ?? '' },
      payload: form({ _csrf: before, decision: 'verified' }),
    });
    expect(decision.statusCode).toBe(403);
    expect(reviews.decided).toEqual([]);
  });

  it('ends the session after eight hours', async () => {
    const { cookie } = await signedIn();
    now = new Date(now.getTime() + 8 * 60 * 60 * 1000 - 1);
    expect((await app.inject({ method: 'GET', url: '/review', headers: { cookie } })).statusCode).toBe(200);
    now = new Date(now.getTime() + 1);
    const response = await app.inject({ method: 'GET', url: '/review', headers: { cookie } });
    expect(response.statusCode).toBe(401);
  });

  it('ends a session opened with a token expiring in 10 minutes when the token expires', async () => {
    const { cookie } = await signedIn('user_reviewer', 'token-for-user_reviewer:600');
    const [session] = await database.db.select().from(reviewConsoleSessions);
    expect(session?.expiresAt).toEqual(new Date(now.getTime() + 600_000));
    now = new Date(now.getTime() + 600_000 - 1);
    expect((await app.inject({ method: 'GET', url: '/review', headers: { cookie } })).statusCode).toBe(200);
    now = new Date(now.getTime() + 1);
    const response = await app.inject({ method: 'GET', url: '/review', headers: { cookie } });
    expect(response.statusCode).toBe(401);
    expect(response.body).toContain('<label for="token">Access token</label>');
  });

  it('refuses the cookie of a signed-out session, kept and sent again', async () => {
    const { cookie, csrf } = await signedIn();
    const out = await app.inject({
      method: 'POST',
      url: '/review/sign-out',
      headers: { ...FORM, cookie },
      payload: form({ _csrf: csrf }),
    });
    expect(out.statusCode).toBe(200);
    // The browser is told to drop the cookie; whoever kept a copy sends it anyway.
    expect(cookieOf(out, cookie)).toBeUndefined();
    const replayed = await app.inject({ method: 'GET', url: '/review', headers: { cookie } });
    expect(replayed.statusCode).toBe(401);
    const decision = await app.inject({
      method: 'POST',
      url: `/review/sessions/${SESSION_ID}/decision`,
      headers: { ...FORM, cookie },
      payload: form({ _csrf: csrf, decision: 'verified' }),
    });
    expect(decision.statusCode).toBe(401);
    expect(reviews.decided).toEqual([]);
    expect(await database.db.select().from(reviewConsoleSessions)).toEqual([]);
  });

  it('ends every session of a reviewer whose role is taken away, so none comes back with the role', async () => {
    const first = await signedIn();
    const second = await signedIn();
    reviews.reviewers.delete('user_reviewer');
    const refused = await app.inject({ method: 'GET', url: '/review', headers: { cookie: first.cookie } });
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('This needs the role reviewer');
    reviews.reviewers.add('user_reviewer');
    for (const { cookie } of [first, second]) {
      expect((await app.inject({ method: 'GET', url: '/review', headers: { cookie } })).statusCode).toBe(401);
    }
  });

  it('keeps only the hash of the secret on the server, and neither the secret nor the user in the cookie', async () => {
    const { cookie } = await signedIn();
    const [session] = await database.db.select().from(reviewConsoleSessions);
    expect(session).toMatchObject({ userId: 'user_reviewer', secretHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const value = decodeURIComponent(cookie.slice(cookie.indexOf('=') + 1));
    expect(value).not.toContain('user_reviewer');
    expect(value).not.toContain(session?.secretHash);
  });

  it('refuses a forged or foreign cookie', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/review',
      headers: { cookie: '__Host-review_session=AAAA%3BBBBB' },
    });
    expect(response.statusCode).toBe(401);
  });

  it('records a decision with its reason and documents, and refuses one without the form token', async () => {
    const { cookie, csrf } = await signedIn();
    const withoutToken = await app.inject({
      method: 'POST',
      url: `/review/sessions/${SESSION_ID}/decision`,
      headers: { ...FORM, cookie },
      payload: form({ decision: 'verified' }),
    });
    expect(withoutToken.statusCode).toBe(403);
    expect(reviews.decided).toEqual([]);

    const response = await app.inject({
      method: 'POST',
      url: `/review/sessions/${SESSION_ID}/decision`,
      headers: { ...FORM, cookie },
      payload: form({ _csrf: csrf, decision: 'requires_input', reason: ' Blurred ', documents: ['selfie', 'cr12'] }),
    });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/review?notice=decided');
    expect(reviews.decided).toEqual([
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
      const response = await app.inject({
        method: 'POST',
        url: `/review/sessions/${SESSION_ID}/decision`,
        headers: { ...FORM, cookie },
        payload: form({ _csrf: csrf, ...values }),
      });
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe(`/review/sessions/${SESSION_ID}?error=${problem}`);
      const page = await app.inject({ method: 'GET', url: String(response.headers.location), headers: { cookie } });
      expect(page.body).toContain('role="alert"');
      expect(page.body).toContain(text);
    }
    reviews.decideError = validationError('The decision cannot be recorded', [
      { path: '/reason', message: 'too long' },
    ]);
    const refused = await app.inject({
      method: 'POST',
      url: `/review/sessions/${SESSION_ID}/decision`,
      headers: { ...FORM, cookie },
      payload: form({ _csrf: csrf, decision: 'verified' }),
    });
    expect(refused.headers.location).toBe(`/review/sessions/${SESSION_ID}?error=refused`);
    expect(reviews.decided).toEqual([]);
    // An unknown code or notice shows nothing.
    const odd = await app.inject({
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
    reviews.decideError = conflict('Claimed by another reviewer');
    const response = await app.inject({
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
    const claim = await app.inject({
      method: 'POST',
      url: `/review/sessions/${SESSION_ID}/claim`,
      headers: { ...FORM, cookie },
      payload: form({ _csrf: csrf }),
    });
    expect(claim.statusCode).toBe(303);
    expect(reviews.claimed).toEqual(['user_reviewer']);

    const page = await app.inject({ method: 'GET', url: `/review/sessions/${SESSION_ID}`, headers: { cookie } });
    expect(page.body).toContain('alt="Selfie"');
    expect(page.body).toContain('12345678');
    expect(page.body).toContain('requires_input (The selfie is &lt;blurred&gt;)');

    const out = await app.inject({
      method: 'POST',
      url: '/review/sign-out',
      headers: { ...FORM, cookie },
      payload: form({ _csrf: csrfOf(page.body) }),
    });
    expect(out.statusCode).toBe(200);
    const after = await app.inject({ method: 'GET', url: '/review', headers: { cookie: cookieOf(out, cookie) ?? '' } });
    expect(after.statusCode).toBe(401);
  });
});
