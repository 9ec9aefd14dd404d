import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Database } from '@platform/db';
import { isAppError } from '@platform/errors';
import { text } from '@platform/templates';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MailSender } from '../../mail/mail-sender.js';
import { FormBody, isCsrfRefusal, redirectTo, registerHtmlForms, sendPage } from '../../shared/html-forms.js';
import { sessionEnd } from '../../shared/session-secrets.js';
import type { ActivationSettings } from '../activation/index.js';
import { type BillingServices, cardCheckoutOrigin } from '../billing/index.js';
import { dashboardAuditRoutes } from './audit-routes.js';
import { dashboardBillingRoutes } from './billing-routes.js';
import type { DashboardConfig } from './config.js';
import { localeOf, safeReturnTo, signedInUser as signedInUserOf } from './context.js';
import { dashboardDeveloperRoutes } from './developers-routes.js';
import { homeAttentionOf } from './home-attention.js';
import { dashboardNotificationRoutes } from './notifications-routes.js';
import { type OidcSignIn, oidcSignInOf } from './oidc.js';
import { dashboardOnboardingRoutes } from './onboarding-routes.js';
import { dashboardPageGuard, refusedPagePath, signedInFrameOf } from './page-access.js';
import { homeNotice, homePage } from './pages/home.js';
import { frameOf } from './pages/layout.js';
import { DASHBOARD_PATH, LOGIN_CALLBACK_PATH, LOGIN_PATH, LOGOUT_PATH, SIGNED_OUT_PATH } from './pages/nav.js';
import { errorPage, noticeOf, offPage, signInPage } from './pages/sign-in.js';
import { dashboardProfileRoutes } from './profile-routes.js';
import { CallbackQuery, documented, HomeQuery, LoginQuery, SeeOther } from './schemas.js';
import {
  DASHBOARD_SESSION_MS,
  type DashboardIdentity,
  type DashboardSessionStore,
  dashboardSessionStoreOf,
  identityOf,
  type SignInRefusal,
  SignInRefused,
  type VerifyAccessToken,
} from './service.js';
import { dashboardCookieSettings } from './session-cookie.js';
import { dashboardSettingsRoutes } from './settings-routes.js';
import { dashboardTeamRoutes } from './team-routes.js';
import { dashboardVerificationRoutes } from './verifications-routes.js';

export interface DashboardOptions {
  db: Database;
  config: DashboardConfig;
  /** The API's own verifier: the dashboard's user is the `sub` the API's bearer tokens give. */
  verifyToken: VerifyAccessToken;
  publicUrl: string;
  /** Where the Team page's invitations are emailed: the API's own mail sender. */
  mail: MailSender;
  now: () => Date;
  /** The platform's own organization, whose live kyc sessions set their user's kycStatus (a cancel from a page). */
  platformOrganizationId: string | undefined;
  /** Whole KES a test wallet never used starts with: the wallets are read as the wallet routes read them. */
  testWalletCredit: number;
  /** What the Developers pages pass on to the API's services: the keys' rate-limit maximum, private webhook URLs. */
  developers: { rateLimitMaxPerMinute: number; allowPrivateTargets: boolean };
  /** Going live: the business verification's settings, as the activation routes have them. */
  activation: ActivationSettings;
  /** What the Billing pages start payments with: the API's own billing services. */
  billing: BillingServices;
  /** Replaces the OpenID Connect client built from config (tests). */
  oidc?: OidcSignIn;
}

// The customers' dashboard (docs/decisions.md#dashboard-sign-in): `GET /` sends to it, `/login` signs in through the
// identity provider and `/logout` ends the session kept on the server. Its routes are `public` to the bearer-token
// authentication: the sealed cookie is their credential. Without an identity provider every route answers a 404
// page that says the dashboard is off (there is no dashboard to reach).

/** A sign-in left at the provider longer than this is refused at its return. */
const SIGN_IN_MAX_AGE_MS = 10 * 60 * 1000;

export const dashboardRoutes: FastifyPluginAsyncTypebox<DashboardOptions> = async (app, options) => {
  const { db, config, now } = options;
  const sessions: DashboardSessionStore = dashboardSessionStoreOf(db);
  const oidc =
    options.oidc ??
    (config.oidc === undefined ? undefined : oidcSignInOf(config.oidc, `${options.publicUrl}${LOGIN_CALLBACK_PATH}`));
  await registerHtmlForms(app, dashboardCookieSettings(config.sessionSecret, options.publicUrl));
  // The sign-in form's answer redirects to the provider, and so does the sign-out form's on every signed-in page (to
  // its end-session endpoint); browsers hold redirects after a form to the page's form-action, so every dashboard
  // page's policy allows the provider's origins.
  if (oidc !== undefined) {
    app.addHook('onSend', async (_request, reply, payload) => {
      const policy = reply.getHeader('content-security-policy');
      if (typeof policy === 'string') {
        reply.header('content-security-policy', withFormOrigins(policy, oidc.formOrigins()));
      }
      return payload;
    });
  }

  const signedInUser = (request: FastifyRequest) => signedInUserOf(request, sessions, now());
  const guard = dashboardPageGuard({ db, sessions, now, enabled: oidc !== undefined });

  const page = { config: { public: true } } as const;
  const form = { config: { public: true, idempotency: 'none' }, preHandler: app.csrfProtection } as const;
  const off = (request: FastifyRequest, reply: FastifyReply) => sendPage(reply, offPage(localeOf(request)), 404);

  app.setErrorHandler(async (error, request, reply) => {
    const locale = localeOf(request);
    // After the page guard, the error page has the signed-in header (a service's 404 for another organization's
    // object reads as one for an object that does not exist: the header shows only the visitor's own).
    const signedIn = signedInFrameOf(request);
    const path = signedIn === undefined ? DASHBOARD_PATH : refusedPagePath(request);
    const answer = (status: number, message: string) =>
      sendPage(reply, errorPage({ locale, status, message, path, signedIn }), status);
    if (isCsrfRefusal(error)) return answer(403, text(locale, 'dashboard.error.formExpired'));
    if (isAppError(error) && error.statusCode < 500) return answer(error.statusCode, error.message);
    const status = (error as { statusCode?: number }).statusCode;
    if (status !== undefined && status >= 400 && status < 500)
      return answer(status, text(locale, 'dashboard.error.unreadable'));
    request.log.error({ err: error }, 'dashboard request failed');
    return answer(500, text(locale, 'dashboard.error.failed'));
  });

  app.get(
    '/',
    { ...page, schema: { ...documented('Sends to the dashboard'), response: SeeOther } },
    (_request, reply) => {
      redirectTo(reply, DASHBOARD_PATH);
    },
  );

  app.get(
    LOGIN_PATH,
    { ...page, schema: { ...documented('The sign-in page (HTML)'), querystring: LoginQuery } },
    async (request, reply) => {
      if (oidc === undefined) return off(request, reply);
      if ((await signedInUser(request)) !== null) return redirectTo(reply, DASHBOARD_PATH);
      const locale = localeOf(request);
      return sendPage(
        reply,
        signInPage({ locale, csrfToken: reply.generateCsrf(), notice: noticeOf(request.query.notice) }),
      );
    },
  );

  app.post(
    LOGIN_PATH,
    { ...form, schema: { ...documented('Starts a sign-in at the identity provider (form)'), body: FormBody } },
    async (request, reply) => {
      if (oidc === undefined) return off(request, reply);
      const { url, pending } = await oidc.start(now());
      request.session.set('dashboardSignIn', pending);
      return redirectTo(reply, url.href);
    },
  );

  app.get(
    LOGIN_CALLBACK_PATH,
    {
      ...page,
      schema: { ...documented('Where the identity provider sends the browser back'), querystring: CallbackQuery },
    },
    async (request, reply) => {
      if (oidc === undefined) return off(request, reply);
      const locale = localeOf(request);
      const refuse = (reason: SignInRefusal) =>
        sendPage(
          reply,
          signInPage({ locale, csrfToken: reply.generateCsrf(), error: text(locale, `dashboard.signIn.${reason}`) }),
          400,
        );
      const pending = request.session.get('dashboardSignIn');
      // One use: whatever happens next, this sign-in's state, nonce and verifier are spent.
      request.session.set('dashboardSignIn', undefined);
      if (pending === undefined || now().getTime() - pending.startedAt > SIGN_IN_MAX_AGE_MS) return refuse('failed');
      let identity: DashboardIdentity;
      let idToken: string;
      try {
        const query = new URL(request.url, 'http://dashboard.invalid').search;
        const completed = await oidc.finish(query, pending);
        idToken = completed.idToken;
        identity = await identityOf(db, options.verifyToken, completed, now);
      } catch (error) {
        if (error instanceof SignInRefused) return refuse(error.reason);
        // The provider's refusal, a state or nonce that does not match, a bad token: logged by kind, never the values.
        request.log.warn(
          { errorName: (error as Error).name, code: (error as { code?: string }).code },
          'dashboard sign-in refused',
        );
        return refuse('failed');
      }
      let secret: string | undefined;
      let awaiting: { userId: string; email: string; expiresAt: number } | undefined;
      if (identity.newProfileEmail === undefined) {
        const opened = await sessions.open({
          userId: identity.userId,
          tokensExpireAt: identity.tokensExpireAt,
          now: now(),
          idToken,
        });
        if (opened === null) return refuse('failed');
        secret = opened.secret;
      } else {
        // No profile yet: the session's row needs one, so the sign-in waits in the sealed cookie for the form that
        // makes it (the page guard sends every page there), ending when a session would.
        const expiresAt = sessionEnd(now(), DASHBOARD_SESSION_MS, identity.tokensExpireAt);
        if (expiresAt === null) return refuse('failed');
        awaiting = { userId: identity.userId, email: identity.newProfileEmail, expiresAt: expiresAt.getTime() };
      }
      const previous = request.session.get('dashboardSession');
      if (typeof previous === 'string') await sessions.end(previous);
      request.session.set('dashboardSession', secret);
      request.session.set('dashboardNewProfile', awaiting);
      // A new CSRF secret with the new identity: a token taken before sign-in is worth nothing after it.
      request.session.set('_csrf', undefined);
      const returnTo = safeReturnTo(request.session.get('dashboardReturnTo'), DASHBOARD_PATH);
      request.session.set('dashboardReturnTo', undefined);
      return redirectTo(reply, returnTo);
    },
  );

  app.post(
    LOGOUT_PATH,
    {
      ...form,
      schema: {
        ...documented("Signs out: ends the session, then the identity provider's when it can (form)"),
        body: FormBody,
      },
    },
    async (request, reply) => {
      const secret = request.session.get('dashboardSession');
      const idToken = typeof secret === 'string' ? await sessions.end(secret) : undefined;
      const locale = request.session.get('dashboardLocale');
      const atProvider = idToken === undefined ? undefined : await providerSignOut(request, idToken);
      if (atProvider === undefined) {
        request.session.delete();
        return redirectTo(reply, `${LOGIN_PATH}?notice=signed_out${locale === undefined ? '' : `&lang=${locale}`}`);
      }
      // The provider sends the browser back to one registered address, so the language waits in the cookie.
      request.session.regenerate(['dashboardLocale']);
      return redirectTo(reply, atProvider.href);
    },
  );

  /**
   * The provider's end-session URL for this sign-out (docs/decisions.md#dashboard-sign-in); undefined when it has no
   * end-session endpoint, or its discovery document cannot be read (logged by kind: our session is over anyway).
   */
  async function providerSignOut(request: FastifyRequest, idToken: string): Promise<URL | undefined> {
    if (oidc === undefined) return undefined;
    try {
      return await oidc.endSessionUrl({
        idToken,
        postLogoutRedirectUri: `${options.publicUrl}${SIGNED_OUT_PATH}`,
        locale: localeOf(request),
      });
    } catch (error) {
      request.log.warn(
        { errorName: (error as Error).name, code: (error as { code?: string }).code },
        "dashboard sign-out could not reach the identity provider's discovery document",
      );
      return undefined;
    }
  }

  app.get(
    DASHBOARD_PATH,
    {
      config: { public: true, dashboardPage: {} },
      preHandler: guard,
      schema: { ...documented('Home (HTML; sends to sign-in without a session)'), querystring: HomeQuery },
    },
    async (request, reply) => {
      // The guard read the profile and the organizations already.
      const context = request.dashboard;
      const attention = await homeAttentionOf(
        { db, now: now(), publicUrl: options.publicUrl, testWalletCredit: options.testWalletCredit },
        context.userId,
        context.organization,
      );
      return sendPage(
        reply,
        homePage({
          locale: context.locale,
          signedIn: frameOf(context),
          name: context.userLabel,
          organizations: context.organizations,
          attention,
          notice: homeNotice(context.locale, request.query.notice, context.organization),
        }),
      );
    },
  );

  await app.register(dashboardVerificationRoutes, {
    db,
    now,
    platformOrganizationId: options.platformOrganizationId,
    guard,
  });
  await app.register(dashboardDeveloperRoutes, { db, now, guard, ...options.developers });
  await app.register(dashboardProfileRoutes, { db, now, sessions, guard });
  await app.register(dashboardSettingsRoutes, { db, testWalletCredit: options.testWalletCredit, guard });
  await app.register(dashboardTeamRoutes, {
    db,
    now,
    publicUrl: options.publicUrl,
    mail: options.mail,
    platformOrganizationId: options.platformOrganizationId,
    guard,
  });
  await app.register(dashboardAuditRoutes, { db, guard });
  await app.register(dashboardNotificationRoutes, { db, now, guard });
  await app.register(dashboardOnboardingRoutes, {
    db,
    now,
    testWalletCredit: options.testWalletCredit,
    activation: options.activation,
    publicUrl: options.publicUrl,
    guard,
  });
  await app.register(dashboardBillingRoutes, {
    db,
    now,
    billing: options.billing,
    testWalletCredit: options.testWalletCredit,
    cardCheckoutOrigin: cardCheckoutOrigin(options.billing.config, options.publicUrl),
    guard,
  });
};

/** A page's policy with `form-action` also allowing these origins (those it allows already are not repeated). */
function withFormOrigins(policy: string, origins: readonly string[]): string {
  const current = /form-action ([^;]*)/.exec(policy);
  if (current?.[1] === undefined) return policy;
  const allowed = current[1].split(' ');
  const added = origins.filter((origin) => !allowed.includes(origin));
  return added.length === 0 ? policy : policy.replace(current[0], `form-action ${[...allowed, ...added].join(' ')}`);
}
