import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { DatabaseHandle } from '@platform/db';
import { users } from '@platform/db/schema';
import { createTestDatabase } from '@platform/db/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { consoleSessionStoreOf } from '../src/modules/console-sessions/index.js';
import { reviewConsoleRoutes } from '../src/modules/review-console/index.js';
import type {
  OpenedDocument,
  ReviewActor,
  ReviewDecisionInput,
  ReviewDetail,
  Reviewer,
  ReviewQueueEntry,
  ReviewService,
} from '../src/modules/reviews/index.js';

// The review console's suites (src/modules/review-console/*.test.ts): the console's routes alone over a review
// service that records what it is asked, with its sessions in a real database (PGlite, or PostgreSQL with
// DATABASE_URL), a test identity provider, a clock the tests move, and a browser's cookie jar and forms. The real
// review service is tested in src/modules/reviews, the sessions with the whole app (role changes, the operators'
// route) in src/modules/review-console/sessions.test.ts, and the whole flow in a browser in tools/e2e.

export const SESSION_ID = '0b4f8a52-5a4e-4d55-8f0e-1c2d3e4f5a6b';
/** A session the recording service answers as decided (rejected by a named reviewer). */
export const DECIDED_SESSION_ID = '7c1e2d3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const SECRET = 'a-console-secret-of-at-least-32-characters';

const hostedPage: ReviewActor = { kind: 'hosted_page', userId: null, name: null, email: null };
/** The reviewer who decided DECIDED_SESSION_ID, with a name that needs escaping. */
const DECIDING_REVIEWER: ReviewActor = {
  kind: 'reviewer',
  userId: 'user_decider',
  name: 'Wanjiru <Kamau>',
  email: 'wanjiru@example.test',
};

function review(overrides: Partial<ReviewDetail> = {}): ReviewDetail {
  return {
    sessionId: SESSION_ID,
    type: 'kyc',
    environment: 'live',
    organization: { id: '5d2c1b0a-9f8e-4d7c-8b6a-5f4e3d2c1b0a', name: 'Duka <Holdings>' },
    appName: 'Duka <Pay>',
    submittedAt: '2026-03-02T09:00:00.000Z',
    claimedBy: null,
    status: 'processing',
    claimExpiresAt: null,
    decision: null,
    decidedBy: null,
    decidedAt: null,
    reason: null,
    personalDataErasedAt: null,
    requiredDocuments: ['id_document_front', 'id_document_back', 'selfie'],
    details: {
      type: 'kyc',
      idType: 'national_id',
      idNumber: '12345678',
      firstName: 'Wanjiru',
      lastName: '<Kamau>',
      dateOfBirth: '1994-05-17',
    },
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
    checks: [
      {
        id: 'c1',
        kind: 'id_registry',
        source: 'smile_id',
        outcome: 'attention',
        code: 'id_number_mismatch',
        summary: 'The typed ID number differs from the <registry>',
        details: { mismatched: ['idNumber'] },
        evidence: { fullName: 'Wanjiru <Kamau>', idNumber: '12345678' },
        submittedAt: '2026-03-02T09:00:00.000Z',
        createdAt: '2026-03-02T09:01:00.000Z',
      },
    ],
    history: [
      { from: null, to: 'pending', reason: null, at: '2026-03-02T08:00:00.000Z', actor: hostedPage },
      {
        from: 'processing',
        to: 'requires_input',
        reason: 'The selfie is <blurred>',
        at: '2026-03-02T08:30:00.000Z',
        actor: { kind: 'reviewer', userId: 'user_other_reviewer', name: null, email: null },
      },
    ],
    ...overrides,
  };
}

/** DECIDED_SESSION_ID: rejected by DECIDING_REVIEWER, its documents erased since. */
function decidedReview(): ReviewDetail {
  const decision = { at: '2026-03-02T09:40:00.000Z', reason: 'The ID card is <expired>' };
  const base = review();
  return {
    ...base,
    sessionId: DECIDED_SESSION_ID,
    status: 'rejected',
    decision: 'rejected',
    decidedBy: DECIDING_REVIEWER,
    decidedAt: decision.at,
    reason: decision.reason,
    personalDataErasedAt: '2026-04-01T00:00:00.000Z',
    details: null,
    documents: [],
    history: [
      ...base.history,
      { from: 'processing', to: 'rejected', reason: decision.reason, at: decision.at, actor: DECIDING_REVIEWER },
    ],
  };
}

/** A review as its list shows it. */
function entryOf(detail: ReviewDetail): ReviewQueueEntry {
  const { requiredDocuments, personalDataErasedAt, details, documents, checks, history, ...entry } = detail;
  return entry;
}

/** A review service that records what it is asked, and answers one session. */
class RecordingReviews implements ReviewService {
  reviewers = new Set(['user_reviewer']);
  decided: Array<{ sessionId: string; reviewerId: string; input: ReviewDecisionInput }> = [];
  claimed: string[] = [];
  decideError: Error | undefined;
  listed: Array<{ state: 'waiting' | 'decided'; cursor: string | undefined }> = [];
  async listQueue(page: { cursor?: string | undefined }) {
    this.listed.push({ state: 'waiting', cursor: page.cursor });
    return { reviews: [{ ...entryOf(review()), claimedBy: 'user_other_reviewer' }], nextCursor: 'next-page' };
  }
  async listDecided(page: { cursor?: string | undefined }) {
    this.listed.push({ state: 'decided', cursor: page.cursor });
    return { reviews: [entryOf(decidedReview())], nextCursor: 'older-decisions' };
  }
  async getReview(_reviewer: Reviewer, sessionId: string) {
    return sessionId === DECIDED_SESSION_ID ? decidedReview() : review();
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

/** How long the tokens the test identity provider issues are valid. */
const TOKEN_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** What a suite works with: fresh before each test (the app, the service, the clock at 10:00), the database kept. */
export interface ConsoleSuite {
  app: FastifyInstance;
  reviews: RecordingReviews;
  /** The app's clock: tests move it by setting it. */
  now: Date;
  database: DatabaseHandle;
  /** Signs in as a browser does and lands on the queue: the cookie then, and the queue page's form token. */
  signedIn(userId?: string, token?: string): Promise<{ cookie: string; csrf: string }>;
}

/** Registers the suite's hooks: the database before it, a fresh app and users before each test. */
export function useReviewConsole(): ConsoleSuite {
  const signedIn = async (
    userId = 'user_reviewer',
    token = `token-for-${userId}`,
  ): Promise<{ cookie: string; csrf: string }> => {
    const start = await c.app.inject({ method: 'GET', url: '/review' });
    let cookie = cookieOf(start);
    const response = await c.app.inject({
      method: 'POST',
      url: '/review/sign-in',
      headers: { ...FORM, cookie: cookie ?? '' },
      payload: form({ token, _csrf: csrfOf(start.body) }),
    });
    expect(response.statusCode).toBe(303);
    cookie = cookieOf(response, cookie);
    const queue = await c.app.inject({ method: 'GET', url: '/review', headers: { cookie: cookie ?? '' } });
    expect(queue.statusCode).toBe(200);
    // The first page after sign-in makes a new CSRF secret, so the cookie changes once more.
    return { cookie: cookieOf(queue, cookie) ?? '', csrf: csrfOf(queue.body) };
  };
  // Each field is set by the hooks below before a test reads it.
  const c = { signedIn } as ConsoleSuite;

  beforeAll(async () => {
    c.database = await createTestDatabase();
  });
  afterAll(async () => {
    await c.database?.close();
  });
  beforeEach(async () => {
    await c.database.db.delete(users);
    await c.database.db.insert(users).values([
      { id: 'user_reviewer', email: 'reviewer@example.test' },
      { id: 'user_owner', email: 'owner@example.test' },
    ]);
    c.reviews = new RecordingReviews();
    c.now = new Date('2026-03-02T10:00:00Z');
    const app = Fastify().withTypeProvider<TypeBoxTypeProvider>();
    c.app = app;
    await app.register(reviewConsoleRoutes, {
      reviews: c.reviews,
      sessions: consoleSessionStoreOf(c.database.db),
      secret: SECRET,
      publicUrl: 'https://api.example.test',
      now: () => c.now,
      // `token-for-<user>`, valid a day; `token-for-<user>:<seconds>`, valid that many seconds from now.
      verifyToken: async (token) => {
        const match = /^token-for-([a-z_]+)(?::(\d+))?$/.exec(token);
        if (match?.[1] === undefined) throw new Error('bad token');
        const lifetime = match[2] === undefined ? TOKEN_LIFETIME_MS : Number(match[2]) * 1000;
        return { id: match[1], expiresAt: new Date(c.now.getTime() + lifetime) };
      },
    });
  });
  afterEach(async () => {
    await c.app.close();
  });

  return c;
}

/** A browser's cookie jar, reduced to the one cookie. */
export function cookieOf(response: { headers: Record<string, unknown> }, previous?: string): string | undefined {
  const set = [response.headers['set-cookie'] ?? []].flat() as string[];
  const session = set.find((line) => line.startsWith('__Host-review_session='));
  if (session === undefined) return previous;
  const value = session.split(';')[0] ?? '';
  return value.endsWith('=') ? undefined : value;
}

export function csrfOf(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (match?.[1] === undefined) throw new Error('the page has no CSRF field');
  return match[1];
}

export function form(values: Record<string, string | string[]>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) for (const each of [value].flat()) params.append(key, each);
  return params.toString();
}

export const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
