import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Database } from '@platform/db';
import type { FastifyReply } from 'fastify';
import { decidedByHostedPageButtons } from '../decisions/index.js';
import type { LifecycleOptions } from '../index.js';
import { formTokenFor, isValidFormToken } from './form-token.js';
import { type NoticeCode, noticeCodes, renderNotFoundPage, renderSessionPage } from './page.js';
import { SandboxActionBody, SessionPageParams, SessionPageQuery } from './schemas.js';
import { applySandboxAction, findPageSession } from './service.js';

export interface HostedPageOptions extends LifecycleOptions {
  db: Database;
  now: () => Date;
  /** Signs the page's form tokens. */
  formSecret: string;
  /** HOSTED_PAGE_LIVE_SANDBOX: a live session whose decision source is the sandbox may use the buttons. */
  liveSandbox: boolean;
}

// Only what these pages need: their own inline styles and posts back to this origin. Nothing may frame them.
const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
const FORM_BODY_LIMIT = 16 * 1024;

/**
 * The hosted verification page, `{verify_url}/session/<id>` (docs/decisions.md#hosted-verification-page). The
 * session id is the only credential, like a Veriff session URL, so the page shows the session and the requesting
 * app's name, never anything else about the organization. For a session the sandbox decides
 * (docs/decisions.md#decision-sources) it has buttons that drive the same lifecycle as everything else, with plain
 * forms and POST-redirect-GET, no script.
 */
export const hostedPageRoutes: FastifyPluginAsyncTypebox<HostedPageOptions> = async (app, options) => {
  const { db, now, formSecret } = options;
  const lifecycle: LifecycleOptions = { platformOrganizationId: options.platformOrganizationId };

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

  app.get(
    '/session/:id',
    {
      // The URL is the session's credential: log lines name the pattern, never the URL.
      config: { public: true, urlCarriesSecret: true },
      schema: { hide: true, params: SessionPageParams, querystring: SessionPageQuery },
    },
    async (request, reply) => {
      const session = await findPageSession(db, request.params.id);
      if (session === undefined) return sendPage(reply, 404, renderNotFoundPage());
      const notice = noticeCodes.find((code) => code === request.query.notice);
      const sandboxFormToken = decidedByHostedPageButtons(session, options)
        ? formTokenFor(formSecret, session.id)
        : null;
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
      const session = await findPageSession(db, request.params.id);
      if (session === undefined) return sendPage(reply, 404, renderNotFoundPage());
      const backToPage = (notice: NoticeCode) =>
        reply.header('cache-control', 'no-store').redirect(`${session.id}?notice=${notice}`, 303);

      if (!isValidFormToken(formSecret, session.id, request.body.token)) return backToPage('form_expired');
      if (!decidedByHostedPageButtons(session, options)) return backToPage('sandbox_off');
      const { action, reason } = request.body;
      return backToPage(await applySandboxAction(db, session, { action, reason, now: now() }, lifecycle));
    },
  );
};
