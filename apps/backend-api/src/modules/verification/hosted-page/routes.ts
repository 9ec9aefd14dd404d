import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Database, VerificationSession, VerificationStatus } from '@platform/db';
import { isUuid } from '@platform/db';
import { isAppError } from '@platform/errors';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { type LifecycleOptions, moveSession } from '../lifecycle.js';
import { findSessionById } from '../service.js';
import { formTokenFor, isValidFormToken } from './form-token.js';
import {
  type NoticeCode,
  noticeCodes,
  renderNotFoundPage,
  renderSessionPage,
  type SandboxAction,
  sandboxActionsFor,
} from './page.js';

export interface HostedPageOptions extends LifecycleOptions {
  db: Database;
  now: () => Date;
  /** Signs the page's form tokens. */
  formSecret: string;
  /** Offer the sandbox controls on live sessions too (test sessions always have them). */
  liveSandbox: boolean;
}

// Only what these pages need: their own inline styles and posts back to this origin. Nothing may frame them.
const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
const FORM_BODY_LIMIT = 16 * 1024;

const moves: Record<SandboxAction, { to: VerificationStatus; notice: NoticeCode }> = {
  submit: { to: 'processing', notice: 'submitted' },
  approve: { to: 'verified', notice: 'approved' },
  reject: { to: 'rejected', notice: 'rejected' },
  request_resubmission: { to: 'requires_input', notice: 'resubmission_requested' },
};

const SessionPageParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
const SessionPageQuery = Type.Object({ notice: Type.Optional(Type.String({ maxLength: 50 })) });
const SandboxActionBody = Type.Object({
  token: Type.String({ maxLength: 200 }),
  action: Type.Union((Object.keys(moves) as SandboxAction[]).map((action) => Type.Literal(action))),
  reason: Type.Optional(Type.String({ maxLength: 500 })),
});

/**
 * The hosted verification page, `{verify_url}/session/<id>` (docs/decisions.md#hosted-verification-page). The
 * session id is the only credential, like a Veriff session URL, so the page shows the session and the requesting
 * app's name, never anything else about the organization. In sandbox mode (test sessions; live ones only when
 * configured) it has buttons that drive the same lifecycle as everything else, with plain forms and
 * POST-redirect-GET, no script.
 */
export const hostedPageRoutes: FastifyPluginAsyncTypebox<HostedPageOptions> = async (app, options) => {
  const { db, now, formSecret } = options;
  const lifecycle: LifecycleOptions = { platformOrganizationId: options.platformOrganizationId };
  const hasSandbox = (session: VerificationSession) => session.environment === 'test' || options.liveSandbox;

  // Browsers post these forms URL-encoded; only this plugin's routes accept that.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  const sendPage = (reply: FastifyReply, statusCode: number, html: string) =>
    reply
      .code(statusCode)
      .header('content-security-policy', PAGE_CSP)
      .header('cache-control', 'no-store')
      .header('x-robots-tag', 'noindex')
      .type('text/html; charset=utf-8')
      .send(html);

  const findSession = async (id: string) => (isUuid(id) ? findSessionById(db, id) : undefined);

  app.get(
    '/session/:id',
    {
      // The URL is the session's credential: log lines name the pattern, never the URL.
      config: { public: true, urlCarriesSecret: true },
      schema: { hide: true, params: SessionPageParams, querystring: SessionPageQuery },
    },
    async (request, reply) => {
      const session = await findSession(request.params.id);
      if (session === undefined) return sendPage(reply, 404, renderNotFoundPage());
      const notice = noticeCodes.find((code) => code === request.query.notice);
      const sandboxFormToken = hasSandbox(session) ? formTokenFor(formSecret, session.id) : null;
      return sendPage(reply, 200, renderSessionPage({ session, sandboxFormToken, notice }));
    },
  );

  app.post(
    '/session/:id',
    {
      // A browser form carries no idempotency key; a repeated post meets the conditional status update instead
      // and is answered with the session as it now stands.
      config: { public: true, urlCarriesSecret: true, idempotency: 'none' },
      schema: { hide: true, params: SessionPageParams, body: SandboxActionBody },
    },
    async (request, reply) => {
      const session = await findSession(request.params.id);
      if (session === undefined) return sendPage(reply, 404, renderNotFoundPage());
      const backToPage = (notice: NoticeCode) =>
        reply.header('cache-control', 'no-store').redirect(`${session.id}?notice=${notice}`, 303);

      if (!isValidFormToken(formSecret, session.id, request.body.token)) return backToPage('form_expired');
      if (!hasSandbox(session)) return backToPage('sandbox_off');
      const { action, reason } = request.body;
      if (!sandboxActionsFor(session.status).includes(action)) return backToPage('moved_on');
      try {
        await db.transaction((tx) =>
          moveSession(
            tx,
            { sessionId: session.id, to: moves[action].to, actor: 'hosted_page', reason, now: now() },
            lifecycle,
          ),
        );
      } catch (error) {
        if (isAppError(error) && error.code === 'conflict') return backToPage('moved_on');
        throw error;
      }
      return backToPage(moves[action].notice);
    },
  );
};
