import { createStatementLog, statementSummary } from '@platform/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missing, postgresServer } from '#test-prerequisites';
import { insertOrganization, insertUser, tokenFor } from '../../../test/helpers.js';
import {
  createReviewTestApp,
  holdMovements,
  insertSessionToReview,
  type ReviewTestApp,
} from '../../../test/review-fixtures.js';

// The statements a reviewer's decision sends to PostgreSQL, BEGIN and COMMIT included
// (docs/decisions.md#statements-per-request): the capture of the hold takes the wallet's lock, so it comes last, with
// the claim's deletion and the audit event written in the same statement of its unit of work.
describe.skipIf(missing(postgresServer))('statements per review decision (PostgreSQL)', () => {
  const REVIEWER = 'user_reviewer';
  const log = createStatementLog();
  let t: ReviewTestApp;
  let customerId: string;

  beforeAll(async () => {
    t = await createReviewTestApp({
      reviewerId: REVIEWER,
      env: { RATE_LIMIT_PER_MINUTE: '100000' },
      statementLog: log,
    });
    await insertUser(t.db, { id: 'user_customer_owner' });
    customerId = await insertOrganization(t.db, { name: 'Customer', members: [{ userId: 'user_customer_owner' }] });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('verified: the hold captured by the last statement before COMMIT', async () => {
    const { sessionId } = await insertSessionToReview(t.db, t.vault, { organizationId: customerId });
    const headers = { authorization: `Bearer ${await tokenFor(REVIEWER, { now: t.clock.now(), expiresIn: 3600 })}` };
    log.take();
    const response = await t.app.inject({
      method: 'POST',
      url: `/v1/reviews/${sessionId}/decision`,
      headers,
      payload: { decision: 'verified' },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(log.take().map(statementSummary)).toEqual([
      // The reviewer's membership of the platform organization (the role policy).
      'select memberships',
      'BEGIN',
      'select verification_sessions',
      'insert verification_review_claims',
      // The checks whose records the verified data is read from, stored by the move (docs/decisions.md#verified-data).
      'select verification_checks',
      'update verification_sessions',
      'update wallets, insert ledger_transactions, insert ledger_entries, ' +
        'insert verification_session_transitions, insert webhook_events, insert notifications, ' +
        'delete verification_review_claims, insert audit_events',
      'COMMIT',
    ]);
    expect(await holdMovements(t.db, sessionId)).toEqual(['capture', 'hold']);
  });
});
