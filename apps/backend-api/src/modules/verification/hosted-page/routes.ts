import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Database, VerificationSession } from '@platform/db';
import type { FastifyReply } from 'fastify';
import { decidedByHostedPageButtons } from '../decisions/index.js';
import type { LifecycleOptions } from '../index.js';
import { formTokenFor, isValidFormToken } from './form-token.js';
import {
  type NoticeCode,
  noticeCodes,
  type PageLanguage,
  renderConsentPage,
  renderDeclinedPage,
  renderNotFoundPage,
  renderSessionPage,
} from './page.js';
import { PageActionBody, SessionPageParams, SessionPageQuery } from './schemas.js';
import { applySandboxAction, dataControllerOf, findPageSession, needsConsent, recordConsent } from './service.js';
import { pageLanguageOf } from './strings.js';

export interface HostedPageOptions extends LifecycleOptions {
  db: Database;
  now: () => Date;
  /** Signs the page's form tokens. */
  formSecret: string;
  /** HOSTED_PAGE_LIVE_SANDBOX: a live session whose decision source is the sandbox may use the buttons. */
  liveSandbox: boolean;
  /** VERIFICATION_RETENTION_DAYS, stated in the consent notice. */
  retentionDays: number;
}

// Only what these pages need: their own inline styles and posts back to this origin. Nothing may frame them.
const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
const FORM_BODY_LIMIT = 16 * 1024;

/** The page's language: `?lang=` (or the posted `lang`) when it names one, else the session's locale. */
function languageOf(chosen: string | undefined, session: VerificationSession | undefined): PageLanguage {
  const locale = pageLanguageOf(chosen);
  return locale === undefined ? { locale: session?.locale ?? 'en', chosen: false } : { locale, chosen: true };
}

/**
 * The hosted verification page, `{verify_url}/session/<id>` (docs/decisions.md#hosted-verification-page). The
 * session id is the only credential, like a Veriff session URL, so the page shows the session and the requesting
 * app's name, and names the organization only as the data controller of a session without one. While the session
 * waits for documents it first asks for consent (docs/decisions.md#consent-before-capture). For a session the
 * sandbox decides (docs/decisions.md#decision-sources) it has buttons that drive the same lifecycle as everything
 * else, with plain forms and POST-redirect-GET, no script. English or Kiswahili
 * (docs/decisions.md#hosted-page-languages).
 */
export const hostedPageRoutes: FastifyPluginAsyncTypebox<HostedPageOptions> = async (app, options) => {
  const { db, now, formSecret } = options;
  const lifecycle: LifecycleOptions = {
    platformOrganizationId: options.platformOrganizationId,
    onDecided: options.onDecided,
  };

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
      const language = languageOf(request.query.lang, session);
      if (session === undefined) return sendPage(reply, 404, renderNotFoundPage(language));
      const notice = noticeCodes.find((code) => code === request.query.notice);
      if (await needsConsent(db, session)) {
        if (request.query.step === 'declined') return sendPage(reply, 200, renderDeclinedPage(session, language));
        const controller = await dataControllerOf(db, session);
        const formToken = formTokenFor(formSecret, session.id);
        const page = { session, controller, formToken, notice, language, retentionDays: options.retentionDays };
        return sendPage(reply, 200, renderConsentPage(page));
      }
      const sandboxFormToken = decidedByHostedPageButtons(session, options)
        ? formTokenFor(formSecret, session.id)
        : null;
      return sendPage(reply, 200, renderSessionPage({ session, sandboxFormToken, notice, language }));
    },
  );

  app.post(
    '/session/:id',
    {
      // A browser form carries no idempotency key; a repeated post meets the conditional status update instead
      // and is answered with the session as it now stands.
      config: { public: true, urlCarriesSecret: true, idempotency: 'none' },
      schema: { hide: true, params: SessionPageParams, body: PageActionBody },
    },
    async (request, reply) => {
      const session = await findPageSession(db, request.params.id);
      const language = languageOf(request.body.lang, session);
      if (session === undefined) return sendPage(reply, 404, renderNotFoundPage(language));
      // The page after the post keeps a language chosen with ?lang=.
      const lang = language.chosen ? `&lang=${language.locale}` : '';
      const redirect = (query: string) =>
        reply.header('cache-control', 'no-store').redirect(`${session.id}?${query}${lang}`, 303);
      const backToPage = (notice: NoticeCode) => redirect(`notice=${notice}`);

      if (!isValidFormToken(formSecret, session.id, request.body.token)) return backToPage('form_expired');
      const { action, reason } = request.body;
      if (action === 'decline') return redirect('step=declined');
      if (action === 'agree') {
        // The address and user agent are evidence of the consent; they are stored, never logged.
        const consent = {
          locale: language.locale,
          ip: request.ip,
          userAgent: request.headers['user-agent'],
          now: now(),
        };
        return backToPage(await recordConsent(db, session, consent));
      }
      if (!decidedByHostedPageButtons(session, options)) return backToPage('sandbox_off');
      if (await needsConsent(db, session)) return backToPage('consent_needed');
      return backToPage(await applySandboxAction(db, session, { action, reason, now: now() }, lifecycle));
    },
  );
};
