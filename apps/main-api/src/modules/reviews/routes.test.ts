import { randomUUID } from 'node:crypto';
import { notifications, users, verificationReviewClaims, webhookEvents } from '@platform/db/schema';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { authHeader, createTestApp, insertOrganization, insertUser, tokenFor } from '../../../test/helpers.js';
import {
  addPlatformMember,
  auditEventsOf,
  createReviewTestApp,
  holdMovements,
  insertSessionToReview,
  type ReviewTestApp,
  sessionState,
} from '../../../test/review-fixtures.js';
import { CLAIM_TTL_MS } from './claim-review.js';
import { INVALID_DOCUMENT_LINK } from './open-document.js';

// The review routes on the test database (PGlite, or PostgreSQL with DATABASE_URL): who may call them, the queue,
// a session's details and documents through signed links, claims and decisions with everything a decision does.
// Races between reviewers are in concurrency.test.ts (PostgreSQL), the whole path through backend-api in
// review-flow.test.ts.

const REVIEWER = 'user_reviewer';
const SECOND_REVIEWER = 'user_second_reviewer';
const CUSTOMER_OWNER = 'user_customer_owner';
const NEEDS_REVIEWER = 'This needs the role reviewer';

let t: ReviewTestApp;
let customerId: string;

beforeAll(async () => {
  t = await createReviewTestApp({ reviewerId: REVIEWER, env: { RATE_LIMIT_PER_MINUTE: '100000' } });
  await addPlatformMember(t, SECOND_REVIEWER, 'reviewer');
  await insertUser(t.db, { id: CUSTOMER_OWNER });
  customerId = await insertOrganization(t.db, { name: 'Customer', members: [{ userId: CUSTOMER_OWNER }] });
});
afterAll(async () => {
  await t?.close();
});

// Tokens are checked against the app's clock, which tests move: sign them at its time.
const as = async (userId: string) => ({
  authorization: `Bearer ${await tokenFor(userId, { now: t.clock.now(), expiresIn: 3600 })}`,
});

function get(url: string, userId = REVIEWER) {
  return as(userId).then((headers) => t.app.inject({ method: 'GET', url, headers }));
}

function post(url: string, payload: unknown, userId = REVIEWER) {
  return as(userId).then((headers) => t.app.inject({ method: 'POST', url, headers, payload: payload as object }));
}

const decide = (sessionId: string, payload: unknown, userId = REVIEWER) =>
  post(`/v1/reviews/${sessionId}/decision`, payload, userId);
const claim = (sessionId: string, userId = REVIEWER) => post(`/v1/reviews/${sessionId}/claim`, {}, userId);

const newSession = (input: Partial<Parameters<typeof insertSessionToReview>[2]> = {}) =>
  insertSessionToReview(t.db, t.vault, { organizationId: customerId, ...input });

interface Detail {
  sessionId: string;
  status: string;
  details: Record<string, unknown> | null;
  documents: Array<{ id: string; kind: string; url: string; urlExpiresAt: string; contentType: string }>;
  history: Array<{ from: string | null; to: string; reason: string | null }>;
  claimedBy: string | null;
}

async function detailOf(sessionId: string, userId = REVIEWER): Promise<Detail> {
  const response = await get(`/v1/reviews/${sessionId}`, userId);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: Detail }>().data;
}

/** The path and query of a document link, for inject. */
const pathOf = (url: string) => url.replace(t.config.publicUrl, '');

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
    const headers = { ...(await as(CUSTOMER_OWNER)), 'x-organization-id': customerId };
    const response = await t.app.inject({ method: 'GET', url: '/v1/reviews', headers });
    expect(response.statusCode).toBe(403);
  });
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

describe('GET /v1/reviews/:sessionId', () => {
  it('answers the submitted details decrypted, the documents with signed links and the history, and logs the reading', async () => {
    const { sessionId, documents } = await newSession();
    const detail = await detailOf(sessionId);
    expect(detail).toMatchObject({
      sessionId,
      status: 'processing',
      details: { type: 'kyc', idType: 'national_id', idNumber: '12345678' },
      claimedBy: null,
      history: [
        { from: null, to: 'pending', reason: null },
        { from: 'pending', to: 'processing', reason: null },
      ],
    });
    expect(detail.documents.map(({ id, kind }) => ({ id, kind }))).toEqual(
      documents.map(({ id, kind }) => ({ id, kind })),
    );
    for (const document of detail.documents) {
      expect(document.url).toMatch(
        new RegExp(
          `^${t.config.publicUrl}/v1/reviews/${sessionId}/documents/${document.id}/content\\?reviewer=${REVIEWER}&expires=\\d+&signature=[A-Za-z0-9_-]{43}$`,
        ),
      );
      expect(Date.parse(document.urlExpiresAt) - t.clock.now().getTime()).toBeLessThanOrEqual(5 * 60_000);
    }
    const [viewed] = await auditEventsOf(t.db, t.platformOrganizationId, 'review.details_viewed').then((rows) =>
      rows.filter((row) => row.targetId === sessionId),
    );
    expect(viewed).toMatchObject({ actorUserId: REVIEWER, targetType: 'verification_session', details: { sessionId } });
    // The ID number is shown to the reviewer, never written to the log.
    expect(JSON.stringify(viewed)).not.toContain('12345678');
  });

  it('shows a kyb session its registration details', async () => {
    const { sessionId } = await newSession({ type: 'kyb' });
    expect((await detailOf(sessionId)).details).toEqual({
      type: 'kyb',
      registrationNumber: 'PVT-AB12CD3',
      companyName: 'Acme Ltd',
    });
  });

  it('is 404 for an unknown session and for any session not waiting for a reviewer; 400 for an id that is not one', async () => {
    const sandbox = await newSession({ decisionSource: 'sandbox' });
    const decided = await newSession({ status: 'rejected' });
    const pending = await newSession({ status: 'pending', submittedAt: null });
    for (const id of [randomUUID(), sandbox.sessionId, decided.sessionId, pending.sessionId]) {
      const response = await get(`/v1/reviews/${id}`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'not_found', error: 'Verification session not found' });
    }
    expect((await get('/v1/reviews/not-a-uuid')).statusCode).toBe(400);
  });
});

describe('document links', () => {
  it('serve a PDF as a download, sandboxed and not sniffed, and an image in place under the same sandbox', async () => {
    const { sessionId, documents } = await newSession({ type: 'kyb', pdfDocuments: ['certificate_of_incorporation'] });
    const detail = await detailOf(sessionId);
    const certificate = detail.documents.find((document) => document.kind === 'certificate_of_incorporation');
    const cr12 = detail.documents.find((document) => document.kind === 'cr12');
    if (certificate === undefined || cr12 === undefined) throw new Error('documents missing');

    const pdf = await t.app.inject({ method: 'GET', url: pathOf(certificate.url) });
    expect(pdf.statusCode, pdf.body).toBe(200);
    expect(pdf.rawPayload.equals(documents[0]?.bytes ?? Buffer.alloc(0))).toBe(true);
    expect(pdf.headers).toMatchObject({
      'content-type': 'application/pdf',
      'content-disposition': 'attachment; filename="certificate_of_incorporation.pdf"',
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
    });
    expect(String(pdf.headers['content-security-policy']).split(/;\s*/)).toContain('sandbox');

    const image = await t.app.inject({ method: 'GET', url: pathOf(cr12.url) });
    expect(image.statusCode, image.body).toBe(200);
    expect(image.headers).toMatchObject({
      'content-type': 'image/png',
      'content-disposition': 'inline',
      'x-content-type-options': 'nosniff',
    });
    expect(String(image.headers['content-security-policy']).split(/;\s*/)).toContain('sandbox');
  });

  it('serve the decrypted document without a bearer token, inert and uncached, and log each view', async () => {
    const { sessionId, documents } = await newSession();
    const detail = await detailOf(sessionId);
    const [link] = detail.documents;
    if (link === undefined) throw new Error('no document');
    const before = (await auditEventsOf(t.db, t.platformOrganizationId, 'review.document_viewed')).length;

    const response = await t.app.inject({ method: 'GET', url: pathOf(link.url) });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.rawPayload.equals(documents[0]?.bytes ?? Buffer.alloc(0))).toBe(true);
    expect(response.headers).toMatchObject({
      'content-type': 'image/png',
      'cache-control': 'no-store',
      'content-disposition': 'inline',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "sandbox; default-src 'none'; frame-ancestors 'self'",
      'cross-origin-resource-policy': 'same-origin',
      'referrer-policy': 'no-referrer',
    });

    const views = await auditEventsOf(t.db, t.platformOrganizationId, 'review.document_viewed');
    expect(views).toHaveLength(before + 1);
    expect(views.at(-1)).toMatchObject({
      actorUserId: REVIEWER,
      targetType: 'verification_document',
      targetId: link.id,
      requestId: response.headers['x-request-id'],
      details: { sessionId, documentId: link.id, kind: link.kind },
    });
  });

  it('refuse a changed, moved or expired link with 403, recording nothing', async () => {
    const { sessionId } = await newSession();
    const [front, selfie] = (await detailOf(sessionId)).documents;
    if (front === undefined || selfie === undefined) throw new Error('documents missing');
    const url = new URL(front.url);
    const signature = url.searchParams.get('signature') ?? '';
    const tampered = (change: (params: URLSearchParams) => void, path = url.pathname) => {
      const params = new URLSearchParams(url.search);
      change(params);
      return `${path}?${params}`;
    };
    const before = (await auditEventsOf(t.db, t.platformOrganizationId, 'review.document_viewed')).length;
    const refused = [
      tampered((params) => params.set('signature', `${signature.slice(0, -2)}AA`)),
      tampered((params) => params.set('expires', String(Number(params.get('expires')) + 60))),
      tampered((params) => params.set('reviewer', SECOND_REVIEWER)),
      tampered(() => {}, url.pathname.replace(front.id, selfie.id)),
      tampered((params) => params.set('signature', '')),
    ];
    for (const link of refused) {
      const response = await t.app.inject({ method: 'GET', url: link });
      expect([400, 403], `${link}: ${response.body}`).toContain(response.statusCode);
      if (response.statusCode === 403) expect(response.json()).toMatchObject({ error: INVALID_DOCUMENT_LINK });
    }
    t.clock.advance(5 * 60_000 + 1_000);
    const expired = await t.app.inject({ method: 'GET', url: pathOf(front.url) });
    expect(expired.statusCode).toBe(403);
    expect((await auditEventsOf(t.db, t.platformOrganizationId, 'review.document_viewed')).length).toBe(before);
  });

  it('stop working when their reviewer loses the role, and once the session is decided', async () => {
    await addPlatformMember(t, 'user_leaving_reviewer', 'reviewer');
    const { sessionId } = await newSession();
    const [byLeaver] = (await detailOf(sessionId, 'user_leaving_reviewer')).documents;
    const [byReviewer] = (await detailOf(sessionId)).documents;
    if (byLeaver === undefined || byReviewer === undefined) throw new Error('no document');
    await t.db.execute(
      sql`update memberships set role = 'member' where user_id = 'user_leaving_reviewer' and organization_id = ${t.platformOrganizationId}`,
    );
    expect((await t.app.inject({ method: 'GET', url: pathOf(byLeaver.url) })).statusCode).toBe(403);

    expect((await decide(sessionId, { decision: 'verified' })).statusCode).toBe(200);
    const afterDecision = await t.app.inject({ method: 'GET', url: pathOf(byReviewer.url) });
    expect(afterDecision.statusCode).toBe(404);
  });

  it('are not served to HEAD, which would count as a view showing nothing', async () => {
    const { sessionId } = await newSession();
    const [link] = (await detailOf(sessionId)).documents;
    if (link === undefined) throw new Error('no document');
    const response = await t.app.inject({ method: 'HEAD', url: pathOf(link.url) });
    expect(response.statusCode).toBe(404);
  });
});

describe('POST /v1/reviews/:sessionId/claim', () => {
  it('claims for 30 minutes: another reviewer gets 409 naming the end, the holder renews, and an expired claim is taken over', async () => {
    const { sessionId } = await newSession();
    const first = await claim(sessionId);
    expect(first.statusCode, first.body).toBe(200);
    const expiresAt = new Date(t.clock.now().getTime() + CLAIM_TTL_MS).toISOString();
    expect(first.json()).toMatchObject({
      success: true,
      message: 'Session claimed',
      data: { sessionId, claimedBy: REVIEWER, expiresAt },
    });

    const other = await claim(sessionId, SECOND_REVIEWER);
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({ code: 'conflict', error: `Claimed by another reviewer until ${expiresAt}` });

    t.clock.advance(10 * 60_000);
    const renewed = await claim(sessionId);
    expect(renewed.json()).toMatchObject({
      data: { expiresAt: new Date(t.clock.now().getTime() + CLAIM_TTL_MS).toISOString() },
    });

    t.clock.advance(CLAIM_TTL_MS);
    const takenOver = await claim(sessionId, SECOND_REVIEWER);
    expect(takenOver.statusCode).toBe(200);
    expect(takenOver.json()).toMatchObject({ data: { claimedBy: SECOND_REVIEWER } });

    const claims = (await auditEventsOf(t.db, t.platformOrganizationId, 'review.claimed')).filter(
      (event) => event.targetId === sessionId,
    );
    expect(claims.map((event) => event.actorUserId)).toEqual([REVIEWER, REVIEWER, SECOND_REVIEWER]);
  });

  it('is 404 for a session no reviewer decides and 409 for one no longer waiting', async () => {
    const sandbox = await newSession({ decisionSource: 'sandbox' });
    expect((await claim(sandbox.sessionId)).statusCode).toBe(404);
    expect((await claim(randomUUID())).statusCode).toBe(404);
    const decided = await newSession({ status: 'verified' });
    const response = await claim(decided.sessionId);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      error: 'This verification session is not waiting for review: it is verified',
    });
  });
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
