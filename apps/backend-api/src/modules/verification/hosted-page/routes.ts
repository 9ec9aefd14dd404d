import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { type Database, type DocumentKind, documentKinds, type VerificationSession } from '@platform/db';
import { DEFAULT_DOCUMENT_FILE_LIMITS } from '@platform/document-checks';
import type { DocumentVault } from '@platform/document-vault';
import { AppError, badRequest } from '@platform/errors';
import type { VerificationRetentionBounds } from '@platform/organizations';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { decidedByHostedPageButtons } from '../decisions/index.js';
import type { SubmissionOptions } from '../documents/index.js';
import {
  captureFromPage,
  encodeFieldErrors,
  type FormFile,
  formKindsOf,
  pageDocumentsOf,
  parseFieldErrors,
  submitFromPage,
} from './capture.js';
import { renderConsentPage, renderDeclinedPage, renderNotFoundPage } from './consent-page.js';
import { pageDirectorsOf } from './director-links.js';
import { type Draft, draftFields, draftOf, openDraft, sealDraft } from './draft.js';
import { formTokenFor, isValidFormToken } from './form-token.js';
import { keptQuery, type NoticeCode, noticeCodes, type PageLanguage, pageLanguageOf } from './page.js';
import { renderReviewPage } from './review-page.js';
import { PageActionBody, SessionPageParams, SessionPageQuery } from './schemas.js';
import { EVENT_SCRIPT_SOURCE, type SdkTarget, sdkTargetOf, usableOrigins } from './sdk.js';
import {
  allowedOriginsOf,
  applySandboxAction,
  consentedBefore,
  consentToAsk,
  dataControllerOf,
  declineConsent,
  findPageSession,
  keepDraft,
  needsConsent,
  recordConsent,
  retentionDaysOf,
} from './service.js';
import { renderSessionPage } from './session-page.js';

export interface HostedPageOptions extends SubmissionOptions {
  db: Database;
  now: () => Date;
  /** Signs the page's form tokens. */
  formSecret: string;
  /** HOSTED_PAGE_LIVE_SANDBOX: a live session whose decision source is the sandbox may use the buttons. */
  liveSandbox: boolean;
  /** The platform's default retention and its bounds: the consent notice states the organization's period. */
  retention: VerificationRetentionBounds;
  /** Where captured documents are stored (the capture by API's vault). */
  vault: DocumentVault;
  /** `{verify_url}`: the directors' links a business's page gives (docs/decisions.md#directors). */
  verifyUrl: string;
}

const FORM_BODY_LIMIT = 16 * 1024;
const MAX_FILE_BYTES = DEFAULT_DOCUMENT_FILE_LIMITS.maxBytes;
/** Files in one post of the capture form: a kyb form has four inputs, one of them for several director IDs. */
const MAX_CAPTURE_FILES = 6;
/** The capture form's files, its few short fields and the multipart framing. */
const CAPTURE_BODY_LIMIT = MAX_CAPTURE_FILES * MAX_FILE_BYTES + 64 * 1024;
const captureTextFields: ReadonlySet<string> = new Set(['token', 'lang', 'sdk', 'origin', ...draftFields]);

/** The page's language: `?lang=` (or the posted `lang`) when it names one, else the session's locale. */
function languageOf(chosen: string | undefined, session: VerificationSession | undefined): PageLanguage {
  const locale = pageLanguageOf(chosen);
  return locale === undefined ? { locale: session?.locale ?? 'en', chosen: false } : { locale, chosen: true };
}

/** The origins that may frame the session's page and hear from it (docs/decisions.md#allowed-origins); none without one. */
interface PageFraming {
  allowedOrigins: readonly string[];
  sdk: SdkTarget | undefined;
}

const NO_FRAMING: PageFraming = { allowedOrigins: [], sdk: undefined };

/**
 * Where the organization allows origins, the page and the redirects between its steps let those origins keep it:
 * helmet's `Cross-Origin-Opener-Policy: same-origin` would cut a popup off from the page that opened it (browsers
 * apply it on redirects too), and its `X-Frame-Options` would refuse every frame (frame-ancestors says who may).
 */
function allowOpenersAndFrames(reply: FastifyReply, framing: PageFraming): void {
  if (usableOrigins(framing.allowedOrigins).length === 0) return;
  reply.removeHeader('x-frame-options');
  reply.header('cross-origin-opener-policy', 'unsafe-none');
}

/**
 * The page's CSP: its own inline styles, posts back to this origin, and nothing else, except that the organization's
 * allowed origins may frame it (else nothing may), and a page the SDK opened from one of them runs the one script
 * that reports to it (docs/decisions.md#front-end-sdk).
 */
function pagePolicy({ allowedOrigins, sdk }: PageFraming): string {
  const ancestors = usableOrigins(allowedOrigins);
  return [
    "default-src 'none'",
    ...(sdk === undefined ? [] : [`script-src ${EVENT_SCRIPT_SOURCE}`]),
    "style-src 'unsafe-inline'",
    "form-action 'self'",
    `frame-ancestors ${ancestors.length === 0 ? "'none'" : ancestors.join(' ')}`,
    "base-uri 'none'",
  ].join('; ');
}

/**
 * The hosted verification page, `{verify_url}/session/<id>` (docs/decisions.md#hosted-verification-page). The
 * session id is the only credential, like a Veriff session URL, so the page shows the session and the requesting
 * app's name, and names the organization only as the data controller of a session without one. While the session
 * waits for documents it first asks for consent (docs/decisions.md#consent-before-capture). For a session the
 * sandbox decides (docs/decisions.md#decision-sources) it has buttons that drive the same lifecycle as everything
 * else, with plain forms and POST-redirect-GET, no script. English or Kiswahili
 * (docs/decisions.md#hosted-page-languages). Opened by the front-end SDK from an origin the organization allows, it
 * may be framed and tells that origin what happened (docs/decisions.md#front-end-sdk).
 */
export const hostedPageRoutes: FastifyPluginAsyncTypebox<HostedPageOptions> = async (app, options) => {
  const { db, now, formSecret, vault } = options;
  const lifecycle: SubmissionOptions = {
    platformOrganizationId: options.platformOrganizationId,
    onDecided: options.onDecided,
    submissions: options.submissions,
  };

  // Browsers post these forms URL-encoded; only this plugin's routes accept that.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  const sendPage = (reply: FastifyReply, statusCode: number, html: string, framing: PageFraming = NO_FRAMING) => {
    allowOpenersAndFrames(reply, framing);
    return (
      reply
        .code(statusCode)
        .header('content-security-policy', pagePolicy(framing))
        .header('cache-control', 'no-store')
        .header('x-robots-tag', 'noindex')
        // The page's URL is the session's credential: it goes nowhere else, the returnUrl link included.
        .header('referrer-policy', 'no-referrer')
        .type('text/html; charset=utf-8')
        .send(html)
    );
  };

  /**
   * The page's language and framing: who may frame it, and the SDK's mode and origin (`?sdk=&origin=`, or the posted
   * fields) when the origin is one the session's organization allows in its environment.
   */
  const viewOf = async (
    session: VerificationSession,
    chosen: { lang?: string | undefined; sdk?: string | undefined; origin?: string | undefined },
  ): Promise<{ language: PageLanguage; framing: PageFraming }> => {
    const allowedOrigins = await allowedOriginsOf(db, session);
    const sdk = sdkTargetOf(chosen, allowedOrigins);
    return { language: { ...languageOf(chosen.lang, session), sdk }, framing: { allowedOrigins, sdk } };
  };

  app.get(
    '/session/:id',
    {
      // The URL is the session's credential: log lines name the pattern, never the URL.
      config: { public: true, urlCarriesSecret: true },
      schema: { hide: true, params: SessionPageParams, querystring: SessionPageQuery },
    },
    async (request, reply) => {
      const session = await findPageSession(db, request.params.id);
      if (session === undefined) {
        return sendPage(reply, 404, renderNotFoundPage(languageOf(request.query.lang, session)));
      }
      const { language, framing } = await viewOf(session, request.query);
      const send = (html: string) => sendPage(reply, 200, html, framing);
      const notice = noticeCodes.find((code) => code === request.query.notice);
      // Ended because the person did not agree: this page, on every visit (docs/decisions.md#declined-consent).
      if (session.status === 'canceled' && session.lastErrorCode === 'consent_declined') {
        return send(renderDeclinedPage(session, language, { askedAgain: await consentedBefore(db, session) }));
      }
      const ask = await consentToAsk(db, session);
      if (ask !== 'none') {
        const askedAgain = ask === 'again';
        const controller = await dataControllerOf(db, session);
        const formToken = formTokenFor(formSecret, session.id);
        const retentionDays = await retentionDaysOf(db, session, options.retention);
        const page = { session, controller, formToken, notice, language, retentionDays, askedAgain };
        return send(renderConsentPage(page));
      }
      const sandboxFormToken = decidedByHostedPageButtons(session, options)
        ? formTokenFor(formSecret, session.id)
        : null;
      if (session.status !== 'pending' && session.status !== 'requires_input') {
        const directors = await pageDirectorsOf(db, vault, session, options.verifyUrl);
        return send(renderSessionPage({ session, sandboxFormToken, notice, language, directors }));
      }
      const formToken = formTokenFor(formSecret, session.id);
      // The draft lives on the session (sealed), never in a URL.
      const sealedDraft = session.hostedPageDraft ?? undefined;
      const draft = sealedDraft === undefined ? undefined : openDraft(formSecret, session.id, sealedDraft);
      const { documents, resend } = await pageDocumentsOf(db, session);
      if (request.query.step === 'review' && sealedDraft !== undefined && draft !== undefined) {
        const review = { session, formToken, sealedDraft, draft, documents, resend, language };
        return send(renderReviewPage(review));
      }
      const errors = parseFieldErrors(request.query.errors);
      const capture = { formToken, errors, draft: draft ?? {}, documents, resend };
      // A draft that does not open (changed, another session's) is dropped, and the person is told.
      const shown = sealedDraft !== undefined && draft === undefined ? 'form_expired' : notice;
      return send(renderSessionPage({ session, sandboxFormToken, notice: shown, language, capture }));
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
      if (session === undefined) {
        return sendPage(reply, 404, renderNotFoundPage(languageOf(request.body.lang, session)));
      }
      const { language, framing } = await viewOf(session, request.body);
      allowOpenersAndFrames(reply, framing);
      // The page after the post keeps a language chosen with ?lang=, and the SDK's mode and origin.
      const kept = keptQuery(language);
      const redirect = (query: string) =>
        reply.header('cache-control', 'no-store').redirect(`${session.id}?${query}${kept ? `&${kept}` : ''}`, 303);
      const backToPage = (notice: NoticeCode) => redirect(`notice=${notice}`);

      if (!isValidFormToken(formSecret, session.id, request.body.token)) return backToPage('form_expired');
      const { action, reason } = request.body;
      if (action === 'decline') {
        const outcome = await declineConsent(db, session, now(), lifecycle);
        return outcome === 'declined' ? redirect('step=declined') : backToPage(outcome);
      }
      if (action === 'confirm' || action === 'change') {
        const draft = openDraft(formSecret, session.id, request.body.details);
        if (draft === undefined) return backToPage('form_expired');
        await keepDraft(db, session.id, sealDraft(formSecret, session.id, draft));
        if (action === 'change') return redirect('step=change');
        if (await needsConsent(db, session)) return backToPage('consent_needed');
        const outcome = await submitFromPage(db, vault, { session, draft, now: now() }, lifecycle);
        if (outcome.submitted) {
          await keepDraft(db, session.id, null);
          return backToPage('submitted');
        }
        if (outcome.moved) return backToPage('moved_on');
        return redirect(`errors=${encodeURIComponent(encodeFieldErrors(outcome.errors))}`);
      }
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

  // The capture form posts its files here as multipart/form-data; only this route parses that.
  await app.register(async (child) => {
    const capture = child.withTypeProvider<TypeBoxTypeProvider>();
    await capture.register(multipart, {
      limits: {
        fileSize: MAX_FILE_BYTES,
        files: MAX_CAPTURE_FILES,
        fields: captureTextFields.size,
        fieldSize: 2048,
        parts: MAX_CAPTURE_FILES + captureTextFields.size,
      },
    });
    capture.post(
      '/session/:id/documents',
      {
        bodyLimit: CAPTURE_BODY_LIMIT,
        // Every file is checked and stored by captureDocument; a repeated post replaces what the first stored.
        config: { public: true, urlCarriesSecret: true, idempotency: 'none' },
        schema: { hide: true, params: SessionPageParams },
      },
      async (request, reply) => {
        if (!request.isMultipart()) {
          throw new AppError('unsupported_media_type', 'The capture form is sent as multipart/form-data');
        }
        const session = await findPageSession(db, request.params.id);
        const form = await readCaptureForm(request, session);
        if (session === undefined) {
          return sendPage(reply, 404, renderNotFoundPage(languageOf(form?.fields.lang, session)));
        }
        const { language, framing } = await viewOf(session, form?.fields ?? {});
        allowOpenersAndFrames(reply, framing);
        const kept = keptQuery(language);
        // From <id>/documents back to the page, whatever path prefix serves it.
        const redirect = (query: string) =>
          reply.header('cache-control', 'no-store').redirect(`../${session.id}?${query}${kept ? `&${kept}` : ''}`, 303);
        if (form === undefined) return redirect('notice=upload_failed');
        if (!isValidFormToken(formSecret, session.id, form.fields.token)) return redirect('notice=form_expired');
        if (await needsConsent(db, session)) return redirect('notice=consent_needed');
        if (session.status !== 'pending' && session.status !== 'requires_input') return redirect('notice=moved_on');

        const draft: Draft = draftOf(form.fields);
        const outcome = await captureFromPage(db, vault, { session, files: form.files, draft, now: now() });
        if (outcome.moved) return redirect('notice=moved_on');
        await keepDraft(db, session.id, sealDraft(formSecret, session.id, draft));
        if (outcome.errors.length > 0) {
          return redirect(`errors=${encodeURIComponent(encodeFieldErrors(outcome.errors))}`);
        }
        return redirect('step=review');
      },
    );
  });
};

interface CaptureForm {
  fields: Record<string, string>;
  files: FormFile[];
}

/**
 * The capture form's parts, all read before anything is stored: its text fields, and the files of the session's
 * document inputs (an input left empty sends an empty part, skipped; a file cut at 10 MB is named too large). Any
 * other part is a 400. Undefined when a limit of the whole upload was passed (too many files or fields), so
 * nothing of it is kept.
 */
async function readCaptureForm(
  request: FastifyRequest,
  session: VerificationSession | undefined,
): Promise<CaptureForm | undefined> {
  const kinds: readonly DocumentKind[] = session === undefined ? documentKinds : formKindsOf(session);
  const fields: Record<string, string> = {};
  const files: FormFile[] = [];
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (!captureTextFields.has(part.fieldname) || part.fieldname in fields) throw unexpectedPart(part.fieldname);
        fields[part.fieldname] = String(part.value);
        continue;
      }
      const kind = kinds.find((known) => known === part.fieldname);
      if (kind === undefined) {
        part.file.resume();
        throw unexpectedPart(part.fieldname);
      }
      if (kind !== 'director_id' && files.some((file) => file.kind === kind)) {
        part.file.resume();
        throw unexpectedPart(part.fieldname);
      }
      try {
        const bytes = await part.toBuffer();
        if (part.file.truncated) files.push({ kind, tooLarge: true });
        else if (bytes.length > 0 || part.filename !== '') files.push({ kind, bytes });
      } catch (error) {
        if ((error as { code?: unknown }).code !== 'FST_REQ_FILE_TOO_LARGE') throw error;
        files.push({ kind, tooLarge: true });
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const { statusCode } = (error ?? {}) as { statusCode?: unknown };
    if (statusCode === 413) return undefined;
    throw badRequest('The multipart/form-data body is malformed');
  }
  return { fields, files };
}

function unexpectedPart(name: string): AppError {
  return badRequest(`Unexpected part "${name.slice(0, 100)}" in the capture form`);
}
