import { verificationSessions, verificationSessionTransitions } from '@platform/db/schema';
import { createTestDatabase } from '@platform/db/testing';
import { DECISION_DURATION_BUCKETS } from '@platform/verification-lifecycle';
import { eq, inArray } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  replaceOrganizations,
  type TestOrganization,
  testClock,
  useTestApp,
} from '../../../test/app-fixtures.js';
import { HOSTED_PAGE_TEST_SECRET, testFormToken } from '../../../test/hosted-page-fixtures.js';
import { createdSessionId, fundWallet, truncateVerificationData } from '../../../test/verification-fixtures.js';
import type { BackendApp } from '../../app.js';
import { METRICS_CACHE_MS } from './metrics.js';

async function scrape(app: BackendApp): Promise<string> {
  const response = await app.inject({ method: 'GET', url: '/metrics' });
  expect(response.statusCode).toBe(200);
  return response.body;
}

/** The value of the sample `name` with exactly these labels (in any order); undefined when there is none. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels)
    .map(([key, value]) => `${key}="${value}"`)
    .sort();
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match?.[1] !== name) continue;
    const pairs = (match[2] ?? '').split(',').filter((pair) => pair !== '');
    if (pairs.sort().join(',') === wanted.join(',')) return Number(match[3]);
  }
  return undefined;
}

describe('verification metrics', () => {
  const suite = useTestApp({ env: { HOSTED_PAGE_SECRET: HOSTED_PAGE_TEST_SECRET } });
  const { clock } = suite;
  let acme: TestOrganization;

  beforeEach(async () => {
    await truncateVerificationData(suite.db);
    [acme] = await replaceOrganizations(suite.db, 'Acme Metrics');
    await fundWallet(suite.db, acme.id, 'live', 10_000);
    await fundWallet(suite.db, acme.id, 'test', 10_000);
    // Every test counts afresh: the counts of the one before are older than the cache.
    clock.advance(METRICS_CACHE_MS + 1_000);
  });

  const session = (key: string, type: 'kyc' | 'kyb' = 'kyc') =>
    createdSessionId(suite.app, key, { type, externalEndUserId: 'metrics-user' });
  const setStatus = (ids: string[], status: 'processing' | 'verified' | 'canceled', submittedAt: Date | null = null) =>
    suite.db.update(verificationSessions).set({ status, submittedAt }).where(inArray(verificationSessions.id, ids));

  it('shows sessions by status, type and environment, counted at the scrape, and every other group as 0', async () => {
    const pending = [await session(acme.liveKey), await session(acme.liveKey)];
    const verified = [await session(acme.liveKey, 'kyb')];
    const processing = [await session(acme.testKey), await session(acme.testKey), await session(acme.testKey)];
    await setStatus(verified, 'verified');
    await setStatus(processing, 'processing');
    expect(pending).toHaveLength(2);

    const text = await scrape(suite.app);
    expect(text).toContain('# TYPE verification_sessions gauge');
    const sessions = (status: string, type: string, environment: string) =>
      sample(text, 'verification_sessions', { status, type, environment });
    expect(sessions('pending', 'kyc', 'live')).toBe(2);
    expect(sessions('verified', 'kyb', 'live')).toBe(1);
    expect(sessions('processing', 'kyc', 'test')).toBe(3);
    expect(sessions('pending', 'kyc', 'test')).toBe(0);
    expect(sessions('rejected', 'kyb', 'test')).toBe(0);
    // Bounded labels only: 2 environments x 2 types x 7 statuses, no ids.
    expect(text.split('\n').filter((line) => line.startsWith('verification_sessions{'))).toHaveLength(28);
    expect(text).not.toContain(acme.id);

    // Within the cache a scrape does not count again; after it, it does.
    await session(acme.liveKey);
    expect(sessions('pending', 'kyc', 'live')).toBe(2);
    expect(
      sample(await scrape(suite.app), 'verification_sessions', { status: 'pending', type: 'kyc', environment: 'live' }),
    ).toBe(2);
    clock.advance(METRICS_CACHE_MS);
    expect(
      sample(await scrape(suite.app), 'verification_sessions', { status: 'pending', type: 'kyc', environment: 'live' }),
    ).toBe(3);
  });

  it('shows the review queue: its depth and the age of the oldest submission, on the service clock', async () => {
    const now = clock.now().getTime();
    // Live sessions go to a reviewer by default; test sessions to the sandbox, which no person waits for.
    const submittedTwoHoursAgo = await session(acme.liveKey);
    await setStatus([submittedTwoHoursAgo], 'processing', new Date(now - 2 * 3_600_000));
    // No submitted_at: its move to processing, three hours ago, counts.
    const movedThreeHoursAgo = await session(acme.liveKey);
    await setStatus([movedThreeHoursAgo], 'processing');
    await suite.db.insert(verificationSessionTransitions).values({
      sessionId: movedThreeHoursAgo,
      fromStatus: 'pending',
      toStatus: 'processing',
      actor: 'hosted_page',
      createdAt: new Date(now - 3 * 3_600_000),
    });
    const kyb = await session(acme.liveKey, 'kyb');
    await setStatus([kyb], 'processing', new Date(now - 60_000));
    const sandbox = await session(acme.testKey);
    await setStatus([sandbox], 'processing', new Date(now - 10 * 3_600_000));
    await setStatus([await session(acme.liveKey)], 'verified', new Date(now - 20 * 3_600_000));

    const text = await scrape(suite.app);
    const depth = (type: string, environment: string) =>
      sample(text, 'verification_review_queue_depth', { type, environment });
    const age = (from: string, type: string, environment: string) =>
      sample(from, 'verification_review_queue_oldest_age_seconds', { type, environment });
    expect(depth('kyc', 'live')).toBe(2);
    expect(depth('kyb', 'live')).toBe(1);
    expect(depth('kyc', 'test')).toBe(0);
    expect(age(text, 'kyc', 'live')).toBe(3 * 3_600);
    expect(age(text, 'kyb', 'live')).toBe(60);
    expect(age(text, 'kyc', 'test')).toBe(0);

    // The age follows the clock even while the counts are cached.
    clock.advance(2_000);
    expect(age(await scrape(suite.app), 'kyc', 'live')).toBe(3 * 3_600 + 2);
  });

  it('observes the time from submission to a sandbox decision, by type, environment, outcome and source', async () => {
    const post = (id: string, action: string) =>
      suite.app.inject({
        method: 'POST',
        url: `/session/${id}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ token: testFormToken(id), action }).toString(),
      });
    const id = await session(acme.testKey);
    expect((await post(id, 'agree')).headers.location).toBe(`${id}?notice=consent_recorded`);
    expect((await post(id, 'submit')).headers.location).toBe(`${id}?notice=submitted`);
    clock.advance(90_000);
    expect((await post(id, 'approve')).headers.location).toBe(`${id}?notice=approved`);

    const text = await scrape(suite.app);
    const labels = { type: 'kyc', environment: 'test', outcome: 'verified', source: 'sandbox' };
    expect(sample(text, 'verification_decision_duration_seconds_count', labels)).toBe(1);
    expect(sample(text, 'verification_decision_duration_seconds_sum', labels)).toBe(90);
    expect(sample(text, 'verification_decision_duration_seconds_bucket', { ...labels, le: '60' })).toBe(0);
    expect(sample(text, 'verification_decision_duration_seconds_bucket', { ...labels, le: '300' })).toBe(1);
    expect(DECISION_DURATION_BUCKETS.at(-1)).toBe(7 * 86_400);
    // Submitting is no decision, and a move that loses (approving again) observes nothing.
    await post(id, 'approve');
    expect(sample(await scrape(suite.app), 'verification_decision_duration_seconds_count', labels)).toBe(1);
  });

  it('observes a test decision as a button: after its commit, once', async () => {
    const decide = (id: string, status: string) =>
      suite.app.inject({
        method: 'POST',
        url: `/v1/verify/sessions/${id}/test-decision`,
        headers: { 'x-service-api-key': acme.testKey },
        payload: { status },
      });
    const id = await session(acme.testKey);
    expect((await decide(id, 'processing')).statusCode).toBe(200);
    clock.advance(30_000);
    expect((await decide(id, 'rejected')).statusCode).toBe(200);
    expect((await decide(id, 'rejected')).statusCode).toBe(409);
    const labels = { type: 'kyc', environment: 'test', outcome: 'rejected', source: 'sandbox' };
    const text = await scrape(suite.app);
    expect(sample(text, 'verification_decision_duration_seconds_count', labels)).toBe(1);
    expect(sample(text, 'verification_decision_duration_seconds_sum', labels)).toBe(30);
  });
});

describe('verification metrics when the database fails', () => {
  it('still answers the scrape with the last counts, and counts the failure', async () => {
    const database = await createTestDatabase();
    const clock = testClock();
    const app = await buildTestApp(database, { now: clock.now });
    try {
      const [acme] = await replaceOrganizations(database.db, 'Acme Failing');
      await fundWallet(database.db, acme.id, 'live', 1_000);
      const id = await createdSessionId(app, acme.liveKey, { type: 'kyc', externalEndUserId: 'metrics-user' });
      await database.db
        .update(verificationSessions)
        .set({ status: 'processing', submittedAt: new Date(clock.now().getTime() - 60_000) })
        .where(eq(verificationSessions.id, id));
      const before = await scrape(app);
      expect(sample(before, 'verification_review_queue_depth', { type: 'kyc', environment: 'live' })).toBe(1);
      expect(sample(before, 'verification_metrics_count_failures_total')).toBe(0);

      await database.close();
      clock.advance(METRICS_CACHE_MS + 1_000);
      const after = await scrape(app);
      expect(sample(after, 'verification_metrics_count_failures_total')).toBe(1);
      expect(sample(after, 'verification_sessions', { status: 'processing', type: 'kyc', environment: 'live' })).toBe(
        1,
      );
      expect(sample(after, 'verification_review_queue_depth', { type: 'kyc', environment: 'live' })).toBe(1);
      expect(sample(after, 'verification_review_queue_oldest_age_seconds', { type: 'kyc', environment: 'live' })).toBe(
        66,
      );
      expect(after).toContain('http_requests_total');
    } finally {
      await app.close();
      await database.close().catch(() => undefined);
    }
  });
});
