import { captureLogs, secretsIn } from '@platform/http/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertOrganization } from '../../../test/helpers.js';
import {
  createReviewTestApp,
  headersOf,
  insertSessionToReview,
  type ReviewTestApp,
} from '../../../test/review-fixtures.js';

// A reviewer's document link is a credential (it works without the bearer token), and a session id is its hosted
// page's: neither may reach a log line, at any level, whatever the reviewer does (docs/decisions.md#manual-review).

const logs = captureLogs();
let t: ReviewTestApp;

beforeAll(async () => {
  t = await createReviewTestApp({ logger: logs.logger });
});
afterAll(async () => {
  await t?.close();
});

describe('the review routes in the logs', () => {
  it('name routes by their pattern: no document link, signature, session id or submitted detail', async () => {
    const customerId = await insertOrganization(t.db, { name: 'Customer' });
    const { sessionId } = await insertSessionToReview(t.db, t.vault, { organizationId: customerId });
    const headers = await headersOf(t, t.reviewerId);
    const queue = await t.app.inject({ method: 'GET', url: '/v1/reviews?limit=1', headers });
    expect(queue.statusCode).toBe(200);
    const detail = await t.app.inject({ method: 'GET', url: `/v1/reviews/${sessionId}`, headers });
    expect(detail.statusCode).toBe(200);
    const [document] = detail.json<{ data: { documents: Array<{ url: string }> } }>().data.documents;
    const link = new URL(document?.url ?? '');
    const signature = link.searchParams.get('signature') ?? '';
    const path = `${link.pathname}${link.search}`;
    expect((await t.app.inject({ method: 'GET', url: path })).statusCode).toBe(200);
    // A changed link, a look-alike URL and a wrong method still carry the link's secret.
    // The first character: all six of its bits are the signature's (a last one may differ only in padding bits).
    const tampered = path.replace(signature, `${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`);
    expect((await t.app.inject({ method: 'GET', url: tampered })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `${path}&extra=1` })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'POST', url: path })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: `/v1/reviews/${sessionId}/claim`, headers })).statusCode).toBe(
      200,
    );
    const decided = await t.app.inject({
      method: 'POST',
      url: `/v1/reviews/${sessionId}/decision`,
      headers,
      payload: { decision: 'rejected', reason: 'The ID photo is unreadable' },
    });
    expect(decided.statusCode).toBe(200);

    const text = logs.text();
    expect(
      secretsIn(text, {
        'a document link signature': signature,
        'a session id (its hosted page credential)': sessionId,
        'the submitted ID number': '12345678',
      }),
    ).toEqual([]);
    const logged = logs.lines
      .filter((line) => line['msg'] === 'request completed')
      .map((line) => `${String(line['method'])} ${String(line['url'])} ${String(line['statusCode'])}`);
    expect(logged).toEqual(
      expect.arrayContaining([
        'GET /v1/reviews 200',
        'GET /v1/reviews/:sessionId 200',
        'GET /v1/reviews/:sessionId/documents/:documentId/content 200',
        'GET /v1/reviews/:sessionId/documents/:documentId/content 403',
        'POST /v1/reviews/:sessionId/decision 200',
      ]),
    );
  });
});
