import { verificationReviewClaims, verificationSessionTransitions } from '@platform/db/schema';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missing, postgresServer } from '#test-prerequisites';
import { insertOrganization } from '../../../test/helpers.js';
import {
  addPlatformMember,
  auditEventsOf,
  createReviewTestApp,
  headersOf,
  holdMovements,
  insertSessionToReview,
  type ReviewTestApp,
  sessionState,
} from '../../../test/review-fixtures.js';

// Reviewers racing each other need real concurrent transactions: PGlite runs one query at a time, so these run on
// PostgreSQL only (CI sets DATABASE_URL). Whatever the interleaving, exactly one reviewer wins each session.
describe.skipIf(missing(postgresServer))('reviewers at the same time (PostgreSQL only)', () => {
  const REVIEWERS = ['user_race_reviewer_a', 'user_race_reviewer_b', 'user_race_reviewer_c'];
  const ROUNDS = 8;
  let t: ReviewTestApp;
  let customerId: string;

  beforeAll(async () => {
    t = await createReviewTestApp({ reviewerId: REVIEWERS[0], env: { RATE_LIMIT_PER_MINUTE: '100000' } });
    for (const reviewer of REVIEWERS.slice(1)) await addPlatformMember(t, reviewer, 'reviewer');
    customerId = await insertOrganization(t.db, { name: 'Customer' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = async (reviewer: string, url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, headers: await headersOf(t, reviewer), payload });

  it('lets exactly one of several reviewers deciding a session at once win; the others get 409 and change nothing', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const { sessionId } = await insertSessionToReview(t.db, t.vault, { organizationId: customerId });
      // Each reviewer decides differently, so the stored outcome names the winner.
      const decisions = [
        { decision: 'verified' },
        { decision: 'rejected', reason: 'The ID is expired' },
        { decision: 'requires_input', reason: 'Send the back of the ID', documents: ['id_document_back'] },
      ];
      const answers = await Promise.all(
        REVIEWERS.map((reviewer, index) => post(reviewer, `/v1/reviews/${sessionId}/decision`, decisions[index] ?? {})),
      );
      const statuses = answers.map((answer) => answer.statusCode);
      expect(
        statuses.filter((status) => status === 200),
        `round ${round}: ${statuses}`,
      ).toHaveLength(1);
      expect(statuses.filter((status) => status === 409)).toHaveLength(REVIEWERS.length - 1);

      const winner = statuses.indexOf(200);
      const outcome = decisions[winner]?.decision;
      expect(await sessionState(t.db, sessionId)).toMatchObject({ status: outcome });
      const moves = await t.db
        .select()
        .from(verificationSessionTransitions)
        .where(
          and(
            eq(verificationSessionTransitions.sessionId, sessionId),
            eq(verificationSessionTransitions.fromStatus, 'processing'),
          ),
        );
      expect(moves.map((move) => move.actor)).toEqual([`reviewer:${REVIEWERS[winner]}`]);
      expect(await holdMovements(t.db, sessionId)).toEqual(
        outcome === 'requires_input' ? ['hold'] : ['capture', 'hold'],
      );
      const decided = (await auditEventsOf(t.db, t.platformOrganizationId, 'review.decided')).filter(
        (event) => event.targetId === sessionId,
      );
      expect(decided.map((event) => event.actorUserId)).toEqual([REVIEWERS[winner]]);
      expect(await t.db.$count(verificationReviewClaims, eq(verificationReviewClaims.sessionId, sessionId))).toBe(0);
    }
  });

  it('gives a session to exactly one of several reviewers claiming it at once', async () => {
    const sessions: string[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const { sessionId } = await insertSessionToReview(t.db, t.vault, { organizationId: customerId });
      sessions.push(sessionId);
      const answers = await Promise.all(
        REVIEWERS.map((reviewer) => post(reviewer, `/v1/reviews/${sessionId}/claim`, {})),
      );
      const statuses = answers.map((answer) => answer.statusCode);
      expect(
        statuses.filter((status) => status === 200),
        `round ${round}: ${statuses}`,
      ).toHaveLength(1);
      expect(statuses.filter((status) => status === 409)).toHaveLength(REVIEWERS.length - 1);
      const winner = REVIEWERS[statuses.indexOf(200)];
      const [claim] = await t.db
        .select()
        .from(verificationReviewClaims)
        .where(eq(verificationReviewClaims.sessionId, sessionId));
      expect(claim?.reviewerId).toBe(winner);
    }
    expect(await t.db.$count(verificationReviewClaims, inArray(verificationReviewClaims.sessionId, sessions))).toBe(
      ROUNDS,
    );
  });
});
