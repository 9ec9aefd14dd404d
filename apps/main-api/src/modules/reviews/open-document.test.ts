import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  addPlatformMember,
  auditEventsOf,
  eraseAsRetention,
  type ReviewTestApp,
} from '../../../test/review-fixtures.js';
import {
  REVIEW_LINK_SECRET,
  REVIEWER,
  SECOND_REVIEWER,
  useReviewRoutes,
} from '../../../test/review-routes-fixtures.js';
import { documentContentPath, documentLinkKeyOf, signDocumentLink } from './document-links.js';
import { INVALID_DOCUMENT_LINK } from './open-document.js';

// A document through its signed link: the bytes and headers, each view in the audit log, and every link that no
// longer works.

const suite = useReviewRoutes();
const { decide, newSession, detailOf, pathOf } = suite;
let t: ReviewTestApp;
beforeAll(() => {
  t = suite.t;
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

  it('stop working when their reviewer loses the role', async () => {
    await addPlatformMember(t, 'user_leaving_reviewer', 'reviewer');
    const { sessionId } = await newSession();
    const [byLeaver] = (await detailOf(sessionId, 'user_leaving_reviewer')).documents;
    const [byReviewer] = (await detailOf(sessionId)).documents;
    if (byLeaver === undefined || byReviewer === undefined) throw new Error('no document');
    await t.db.execute(
      sql`update memberships set role = 'member' where user_id = 'user_leaving_reviewer' and organization_id = ${t.platformOrganizationId}`,
    );
    expect((await t.app.inject({ method: 'GET', url: pathOf(byLeaver.url) })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: pathOf(byReviewer.url) })).statusCode).toBe(200);
  });

  it('keep working after the decision while the document is stored, and stop once retention erased it', async () => {
    const { sessionId, documents } = await newSession();
    const [link] = (await detailOf(sessionId)).documents;
    if (link === undefined) throw new Error('no document');
    expect((await decide(sessionId, { decision: 'verified' })).statusCode).toBe(200);
    const afterDecision = await t.app.inject({ method: 'GET', url: pathOf(link.url) });
    expect(afterDecision.statusCode, afterDecision.body).toBe(200);
    expect(afterDecision.rawPayload.equals(documents[0]?.bytes ?? Buffer.alloc(0))).toBe(true);
    // A link made for the decided session works too.
    const [fresh] = (await detailOf(sessionId)).documents;
    if (fresh === undefined) throw new Error('no document after the decision');
    expect((await t.app.inject({ method: 'GET', url: pathOf(fresh.url) })).statusCode).toBe(200);

    await eraseAsRetention(t.db, sessionId, t.clock.now());
    const before = (await auditEventsOf(t.db, t.platformOrganizationId, 'review.document_viewed')).length;
    const erased = await t.app.inject({ method: 'GET', url: pathOf(fresh.url) });
    expect(erased.statusCode).toBe(404);
    expect(erased.json()).toMatchObject({ error: 'Document not found' });
    expect((await auditEventsOf(t.db, t.platformOrganizationId, 'review.document_viewed')).length).toBe(before);
  });

  it('are 404 for a session never given to a reviewer, even signed', async () => {
    const { sessionId, documents } = await newSession({ decisionSource: 'sandbox', status: 'verified' });
    const [document] = documents;
    if (document === undefined) throw new Error('no document');
    const query = signDocumentLink(
      documentLinkKeyOf({ secret: REVIEW_LINK_SECRET }),
      { sessionId, documentId: document.id, reviewerId: REVIEWER },
      t.clock.now(),
    ).query;
    const response = await t.app.inject({
      method: 'GET',
      url: `${documentContentPath(sessionId, document.id)}?${query}`,
    });
    expect(response.statusCode).toBe(404);
  });

  it('are not served to HEAD, which would count as a view showing nothing', async () => {
    const { sessionId } = await newSession();
    const [link] = (await detailOf(sessionId)).documents;
    if (link === undefined) throw new Error('no document');
    const response = await t.app.inject({ method: 'HEAD', url: pathOf(link.url) });
    expect(response.statusCode).toBe(404);
  });
});
