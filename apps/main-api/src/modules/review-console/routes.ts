import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type DocumentKind, documentKinds } from '@platform/db';
import { isAppError } from '@platform/errors';
import { text } from '@platform/templates';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TokenVerifier } from '../../auth/token-verifier.js';
import { FormBody, isCsrfRefusal, redirectTo, registerHtmlForms, sendPage } from '../../shared/html-forms.js';
import type { ConsoleSessionStore } from '../console-sessions/index.js';
import {
  type ReviewDecision,
  type ReviewDecisionInput,
  type Reviewer,
  type ReviewService,
  reviewDecisions,
  reviewerOf,
} from '../reviews/index.js';
import { cookieSettings, sessionKeyFrom, signedInReviewer, signIn, signOut } from './console-session.js';
import { decidedPage } from './decided-page.js';
import { CONSOLE_PATH, DECIDED_PATH } from './page-parts.js';
import { errorPage, type FormProblem, noticeText, problemText, queuePage, signInPage } from './pages.js';
import { reviewPage } from './review-page.js';

export interface ReviewConsoleOptions {
  /** The review service (../reviews): the same operations as /v1/reviews, as the signed-in reviewer. */
  reviews: ReviewService;
  /** Where console sessions are kept (../console-sessions): the cookie holds only a session's secret. */
  sessions: ConsoleSessionStore;
  verifyToken: TokenVerifier;
  /** Seals the session cookie (through sessionKeyFrom); the same on every instance. */
  secret: Buffer | string;
  publicUrl: string;
  now: () => Date;
}

// The reviewer console (docs/decisions.md#review-console): server-rendered pages over the review service, signed in
// with the identity provider's token exchanged for a session kept on the server (docs/decisions.md#console-sessions)
// whose secret is in an HttpOnly cookie, every form CSRF-protected. Its routes are `public` to the bearer-token
// authentication: the cookie is their credential, and the reviewer role is checked here on every request through the
// role policy (reviews.isReviewer).

const QUEUE_PAGE_SIZE = 25;

const SessionParams = Type.Object({ sessionId: Type.String({ format: 'uuid' }) });
const QueueQuery = Type.Object({
  cursor: Type.Optional(Type.String({ maxLength: 512 })),
  notice: Type.Optional(Type.String({ maxLength: 32 })),
});
const NoticeQuery = Type.Object({
  notice: Type.Optional(Type.String({ maxLength: 32 })),
  error: Type.Optional(Type.String({ maxLength: 32 })),
});

/** The console's pages and forms in OpenAPI, like the other HTML pages: signed in by the session cookie. */
function documented(summary: string) {
  return {
    tags: ['review-console'],
    summary,
    description:
      'Server-rendered page of the reviewer console (reviewer role in the platform organization); signed in with ' +
      'an HttpOnly session cookie, every form with a CSRF token (docs/decisions.md#review-console).',
    security: [],
  };
}

export const reviewConsoleRoutes: FastifyPluginAsyncTypebox<ReviewConsoleOptions> = async (app, options) => {
  const { reviews, sessions, now } = options;
  await registerHtmlForms(app, { key: sessionKeyFrom(options.secret), ...cookieSettings(options.publicUrl) });
  // The pages hold signed document links: sendPage sends no referrer, so they go to no other site.
  const send = (reply: FastifyReply, html: string, status = 200) => sendPage(reply, html, status);
  const redirect = redirectTo;

  /** The signed-in reviewer, or null after sending the sign-in page (or a 403 for one who is no longer a reviewer). */
  async function actingReviewer(request: FastifyRequest, reply: FastifyReply): Promise<Reviewer | null> {
    const reviewerId = await signedInReviewer(request, sessions, now());
    if (reviewerId === null) {
      await send(reply, signInPage({ csrfToken: reply.generateCsrf() }), 401);
      return null;
    }
    if (!(await reviews.isReviewer(reviewerId))) {
      // The role is gone: every session of theirs ends, not only this one, so none comes back with the role.
      await sessions.endAllOf(reviewerId, now());
      request.session.delete();
      await send(
        reply,
        errorPage({ status: 403, text: text('en', 'console.error.reviewerRole'), signedIn: false }),
        403,
      );
      return null;
    }
    return reviewerOf(request, reviewerId);
  }

  /** Whether the error page may offer sign-out; false when that cannot be told (the database failing, say). */
  const isSignedIn = (request: FastifyRequest) =>
    signedInReviewer(request, sessions, now()).then(
      (reviewerId) => reviewerId !== null,
      () => false,
    );

  app.setErrorHandler(async (error, request, reply) => {
    const signedIn = await isSignedIn(request);
    if (isCsrfRefusal(error)) {
      return send(reply, errorPage({ status: 403, text: text('en', 'console.error.formExpired'), signedIn }), 403);
    }
    if (isAppError(error) && error.statusCode < 500) {
      return send(reply, errorPage({ status: error.statusCode, text: error.message, signedIn }), error.statusCode);
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      return send(reply, errorPage({ status, text: text('en', 'console.error.unreadable'), signedIn }), status);
    }
    request.log.error({ err: error }, 'review console request failed');
    return send(reply, errorPage({ status: 500, text: text('en', 'console.error.failed'), signedIn }), 500);
  });

  const page = { config: { public: true } } as const;
  const form = { config: { public: true, idempotency: 'none' }, preHandler: app.csrfProtection } as const;

  app.get(
    CONSOLE_PATH,
    {
      ...page,
      schema: { ...documented('The review queue (HTML; the sign-in page without a session)'), querystring: QueueQuery },
    },
    async (request, reply) => {
      const actor = await actingReviewer(request, reply);
      if (actor === null) return reply;
      const reviewerId = actor.userId;
      const queue = await reviews.listQueue({ limit: QUEUE_PAGE_SIZE, cursor: request.query.cursor });
      return send(
        reply,
        queuePage({ queue, reviewerId, csrfToken: reply.generateCsrf(), notice: noticeText(request.query.notice) }),
      );
    },
  );

  app.get(
    DECIDED_PATH,
    {
      ...page,
      schema: { ...documented('The decided sessions, newest decision first (HTML)'), querystring: QueueQuery },
    },
    async (request, reply) => {
      const actor = await actingReviewer(request, reply);
      if (actor === null) return reply;
      const decided = await reviews.listDecided({ limit: QUEUE_PAGE_SIZE, cursor: request.query.cursor });
      return send(
        reply,
        decidedPage({
          decided,
          reviewerId: actor.userId,
          csrfToken: reply.generateCsrf(),
          notice: noticeText(request.query.notice),
        }),
      );
    },
  );

  app.post(
    `${CONSOLE_PATH}/sign-in`,
    { ...form, schema: { ...documented('Sign in with an access token (form)'), body: FormBody } },
    async (request, reply) => {
      const token = typeof request.body.token === 'string' ? request.body.token.trim() : '';
      const refuse = (error: string) => send(reply, signInPage({ csrfToken: reply.generateCsrf(), error }), 401);
      if (token === '') return refuse(text('en', 'console.signIn.noToken'));
      let user: { id: string; expiresAt: Date };
      try {
        user = await options.verifyToken(token);
      } catch {
        return refuse(text('en', 'console.signIn.badToken'));
      }
      if (!(await reviews.isReviewer(user.id))) {
        return send(
          reply,
          errorPage({ status: 403, text: text('en', 'console.error.reviewerRole'), signedIn: false }),
          403,
        );
      }
      // The session ends when the token does, if that is sooner than eight hours.
      if (!(await signIn(request, sessions, user, now()))) return refuse(text('en', 'console.signIn.badToken'));
      return redirect(reply, CONSOLE_PATH);
    },
  );

  app.post(
    `${CONSOLE_PATH}/sign-out`,
    { ...form, schema: { ...documented('Sign out (form)'), body: FormBody } },
    async (request, reply) => {
      await signOut(request, sessions);
      return send(reply, signInPage({ csrfToken: reply.generateCsrf(), notice: noticeText('signed_out') }));
    },
  );

  app.get(
    `${CONSOLE_PATH}/sessions/:sessionId`,
    {
      ...page,
      schema: { ...documented('A session to review (HTML)'), params: SessionParams, querystring: NoticeQuery },
    },
    async (request, reply) => {
      const actor = await actingReviewer(request, reply);
      if (actor === null) return reply;
      const reviewerId = actor.userId;
      const review = await reviews.getReview(actor, request.params.sessionId);
      return send(
        reply,
        reviewPage({
          review,
          reviewerId,
          csrfToken: reply.generateCsrf(),
          notice: noticeText(request.query.notice),
          error: problemText(request.query.error),
        }),
      );
    },
  );

  app.post(
    `${CONSOLE_PATH}/sessions/:sessionId/claim`,
    {
      ...form,
      schema: { ...documented('Claim a session for 30 minutes (form)'), params: SessionParams, body: FormBody },
    },
    async (request, reply) => {
      const actor = await actingReviewer(request, reply);
      if (actor === null) return reply;
      await reviews.claimReview(actor, request.params.sessionId);
      return redirect(reply, `${CONSOLE_PATH}/sessions/${encodeURIComponent(request.params.sessionId)}?notice=claimed`);
    },
  );

  app.post(
    `${CONSOLE_PATH}/sessions/:sessionId/decision`,
    { ...form, schema: { ...documented('Record a decision (form)'), params: SessionParams, body: FormBody } },
    async (request, reply) => {
      const actor = await actingReviewer(request, reply);
      if (actor === null) return reply;
      const { sessionId } = request.params;
      // A mistake goes back to the session's page (POST-redirect-GET), which says what it was; nothing is decided.
      const back = (problem: FormProblem) =>
        redirect(reply, `${CONSOLE_PATH}/sessions/${encodeURIComponent(sessionId)}?error=${problem}`);
      const input = decisionFrom(request.body);
      if (typeof input === 'string') return back(input);
      try {
        await reviews.decideReview(actor, sessionId, input);
      } catch (error) {
        if (!isAppError(error) || error.statusCode !== 400) throw error;
        return back('refused');
      }
      return redirect(reply, `${CONSOLE_PATH}?notice=decided`);
    },
  );
};

/** The decision form's values, or what is wrong with them (shown by the session's page). */
function decisionFrom(body: Record<string, string | string[]>): ReviewDecisionInput | FormProblem {
  const decision = body.decision;
  if (typeof decision !== 'string' || !(reviewDecisions as readonly string[]).includes(decision)) return 'no_decision';
  const reason = typeof body.reason === 'string' && body.reason.trim() !== '' ? body.reason.trim() : undefined;
  if (decision !== 'verified' && reason === undefined) return 'no_reason';
  const listed = body.documents === undefined ? [] : [body.documents].flat();
  const documents = listed.filter((kind): kind is DocumentKind => (documentKinds as readonly string[]).includes(kind));
  if (documents.length !== listed.length) return 'unknown_documents';
  if (decision !== 'requires_input' && documents.length > 0) return 'documents_without_request';
  return { decision: decision as ReviewDecision, reason, ...(documents.length === 0 ? {} : { documents }) };
}
