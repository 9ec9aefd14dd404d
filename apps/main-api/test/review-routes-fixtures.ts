import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { insertOrganization, insertUser, tokenFor } from './helpers.js';
import {
  addPlatformMember,
  createReviewTestApp,
  type InsertedSession,
  insertSessionToReview,
  type ReviewTestApp,
  type SessionToReview,
} from './review-fixtures.js';

// The review routes' suites (src/modules/reviews/*.test.ts): one app on the test database (PGlite, or PostgreSQL with
// DATABASE_URL) with two reviewers of the platform organization and a customer organization whose sessions they
// review, and the requests the suites send it.

export const REVIEWER = 'user_reviewer';
export const SECOND_REVIEWER = 'user_second_reviewer';
export const CUSTOMER_OWNER = 'user_customer_owner';
export const NEEDS_REVIEWER = 'This needs the role reviewer';
/** The app's document link key, so a suite can sign a link for a document the app would not give a link to. */
export const REVIEW_LINK_SECRET = 'a-review-link-secret-for-the-review-suites';

/** Who moved a session, as the review routes name them. */
interface Actor {
  kind: string;
  userId: string | null;
  name: string | null;
  email: string | null;
}

/** A session's review as GET /v1/reviews/:sessionId answers it, as far as the suites read it. */
interface Detail {
  sessionId: string;
  status: string;
  organization: { id: string; name: string };
  details: Record<string, unknown> | null;
  documents: Array<{ id: string; kind: string; url: string; urlExpiresAt: string; contentType: string }>;
  history: Array<{ from: string | null; to: string; reason: string | null; at: string; actor: Actor }>;
  claimedBy: string | null;
  decision: string | null;
  decidedBy: Actor | null;
  decidedAt: string | null;
  reason: string | null;
  personalDataErasedAt: string | null;
  checks: Array<{ id: string; kind: string; outcome: string; source: string; summary: string }>;
}

export interface ReviewRoutesSuite {
  readonly t: ReviewTestApp;
  /** The customer organization, whose owner is CUSTOMER_OWNER. */
  readonly customerId: string;
  /** A bearer token of the user, signed at the app's clock (which tests move). */
  as(userId: string): Promise<{ authorization: string }>;
  get(url: string, userId?: string): Promise<LightMyRequestResponse>;
  post(url: string, payload: unknown, userId?: string): Promise<LightMyRequestResponse>;
  decide(sessionId: string, payload: unknown, userId?: string): Promise<LightMyRequestResponse>;
  claim(sessionId: string, userId?: string): Promise<LightMyRequestResponse>;
  /** A session of the customer waiting for review, unless told otherwise. */
  newSession(input?: Partial<SessionToReview>): Promise<InsertedSession>;
  /** GET /v1/reviews/:sessionId, expected to answer 200. */
  detailOf(sessionId: string, userId?: string): Promise<Detail>;
  /** The path and query of a document link, for inject. */
  pathOf(url: string): string;
}

/** Registers the suite's hooks (the app made before it, closed after it); read `t` inside tests or hooks. */
export function useReviewRoutes(): ReviewRoutesSuite {
  let started: ReviewTestApp | undefined;
  let customer: string | undefined;
  const app = (): ReviewTestApp => {
    if (started === undefined) throw new Error('The review app is started before the suite runs');
    return started;
  };
  const customerId = (): string => {
    if (customer === undefined) throw new Error('The customer is made before the suite runs');
    return customer;
  };

  beforeAll(async () => {
    const t = await createReviewTestApp({
      reviewerId: REVIEWER,
      env: { RATE_LIMIT_PER_MINUTE: '100000', REVIEW_LINK_SECRET },
    });
    started = t;
    await addPlatformMember(t, SECOND_REVIEWER, 'reviewer');
    await insertUser(t.db, { id: CUSTOMER_OWNER });
    customer = await insertOrganization(t.db, { name: 'Customer', members: [{ userId: CUSTOMER_OWNER }] });
  });
  afterAll(async () => {
    await started?.close();
  });

  // Tokens are checked against the app's clock, which tests move: sign them at its time.
  const as = async (userId: string) => ({
    authorization: `Bearer ${await tokenFor(userId, { now: app().clock.now(), expiresIn: 3600 })}`,
  });
  const get = (url: string, userId = REVIEWER) =>
    as(userId).then((headers) => app().app.inject({ method: 'GET', url, headers }));
  const post = (url: string, payload: unknown, userId = REVIEWER) =>
    as(userId).then((headers) => app().app.inject({ method: 'POST', url, headers, payload: payload as object }));

  return {
    get t() {
      return app();
    },
    get customerId() {
      return customerId();
    },
    as,
    get,
    post,
    decide: (sessionId, payload, userId = REVIEWER) => post(`/v1/reviews/${sessionId}/decision`, payload, userId),
    claim: (sessionId, userId = REVIEWER) => post(`/v1/reviews/${sessionId}/claim`, {}, userId),
    newSession: (input = {}) =>
      insertSessionToReview(app().db, app().vault, { organizationId: customerId(), ...input }),
    async detailOf(sessionId, userId = REVIEWER) {
      const response = await get(`/v1/reviews/${sessionId}`, userId);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ data: Detail }>().data;
    },
    pathOf: (url) => url.replace(app().config.publicUrl, ''),
  };
}
