import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Database } from '@platform/db';
import { isAppError } from '@platform/errors';
import { text } from '@platform/templates';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FormBody, PAGE_CONTENT_SECURITY_POLICY, redirectTo, sendPage } from '../../shared/html-forms.js';
import { getProfile } from '../accounts/index.js';
import { type ActivationSettings, getActivation, startActivation } from '../activation/index.js';
import {
  acceptInvitation,
  INVITATION_PAGE_PATH,
  type InvitationForInvitee,
  invitationForInvitee,
} from '../invitations/index.js';
import {
  allows,
  createOrganization,
  KRA_PIN_INPUT_PATTERN,
  normaliseOrganizationFields,
} from '../organizations/index.js';
import type { DashboardOrganization } from './context.js';
import { refusedPagePath, signedInFrameOf } from './page-access.js';
import { activationPage } from './pages/activation.js';
import { invitationPage } from './pages/invitation.js';
import { frameOf } from './pages/layout.js';
import { ACTIVATION_PATH, DASHBOARD_PATH, ORGANIZATION_NEW_PATH } from './pages/nav.js';
import {
  type OrganizationFieldName,
  type OrganizationForm,
  organizationFieldNames,
  organizationNewPage,
} from './pages/organization-new.js';
import { errorPage } from './pages/sign-in.js';
import { documented, PageQuery } from './schemas.js';

// Onboarding (docs/decisions.md#dashboard-pages): creating an organization, an invitation opened from its email and
// accepted, and going live. Each form runs the service of its `/v1/...` route: `POST /v1/organizations` (the test
// credit included), `POST /v1/invitations/:invitationId/accept` (the invitee matched by the profile's address) and
// `POST /v1/organizations/:id/activation`, whose hosted page the browser is then sent to.

export interface DashboardOnboardingRoutesOptions {
  db: Database;
  now: () => Date;
  /** Whole KES a new organization's test wallet starts with (docs/decisions.md#test-credit). */
  testWalletCredit: number;
  /** The platform's organization and the hosted page of the business verification (docs/decisions.md#going-live). */
  activation: ActivationSettings;
  /** PUBLIC_URL: the dashboard's origin, for the way back from the hosted page. */
  publicUrl: string;
  /** The page guard of the dashboard (page-access.ts). */
  guard: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
}

const InvitationPageParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
const KRA_PIN = new RegExp(KRA_PIN_INPUT_PATTERN);

const auditOf = (request: FastifyRequest) => ({
  actorUserId: request.dashboard.userId,
  requestId: request.id,
  ip: request.ip,
});

/** The form's fields as typed (a field sent twice is refused), and the optional ones left empty as not given. */
function organizationFormOf(body: Record<string, string | string[]>) {
  const values: OrganizationForm = {};
  const invalid = new Set<OrganizationFieldName>();
  for (const name of organizationFieldNames) {
    const value = body[name];
    if (Array.isArray(value)) invalid.add(name);
    else if (value !== undefined) values[name] = value;
  }
  const given = (name: OrganizationFieldName) => (values[name]?.trim() === '' ? undefined : values[name]);
  const fields = {
    name: values.name ?? '',
    kraPin: given('kraPin')?.trim(),
    address: given('address'),
    billingEmail: given('billingEmail'),
  };
  if (fields.kraPin !== undefined && !KRA_PIN.test(fields.kraPin)) invalid.add('kraPin');
  const checked = normaliseOrganizationFields({
    name: fields.name,
    address: fields.address,
    billingEmail: fields.billingEmail,
  });
  if (!checked.ok) for (const { path } of checked.details) invalid.add(path.slice(1) as OrganizationFieldName);
  return { values, fields, invalid };
}

export const dashboardOnboardingRoutes: FastifyPluginAsyncTypebox<DashboardOnboardingRoutesOptions> = async (
  app,
  { db, now, testWalletCredit, activation: settings, publicUrl, guard },
) => {
  const own = { public: true, dashboardPage: {} } as const;
  const ownForm = { public: true, idempotency: 'none', dashboardPage: {} } as const;
  // An invitation's id is what its email carries: these routes are logged by their pattern.
  const invitation = { ...own, urlCarriesSecret: true } as const;
  const invitationForm = { ...ownForm, urlCarriesSecret: true } as const;
  const readActivation = { public: true, dashboardPage: { requires: 'organization:read' } } as const;
  const startForm = {
    public: true,
    idempotency: 'none',
    dashboardPage: { requires: 'organization:activate' },
  } as const;
  const organizationOf = (request: FastifyRequest) => request.dashboard.organization as DashboardOrganization;
  const notFoundPage = (request: FastifyRequest, reply: FastifyReply) => {
    const { locale } = request.dashboard;
    const message = text(locale, 'dashboard.error.notFound');
    const page = errorPage({
      locale,
      status: 404,
      message,
      path: refusedPagePath(request),
      signedIn: signedInFrameOf(request),
    });
    return sendPage(reply, page, 404);
  };

  app.get(
    ORGANIZATION_NEW_PATH,
    {
      config: own,
      preHandler: guard,
      schema: { ...documented('The form that creates an organization (HTML)'), querystring: PageQuery },
    },
    async (request, reply) => {
      const context = request.dashboard;
      return sendPage(reply, organizationNewPage({ locale: context.locale, signedIn: frameOf(context), values: {} }));
    },
  );

  app.post(
    ORGANIZATION_NEW_PATH,
    {
      config: ownForm,
      preHandler: [app.csrfProtection, guard],
      schema: { ...documented('Creates an organization, its owner the user (form)'), body: FormBody },
    },
    async (request, reply) => {
      const context = request.dashboard;
      const { values, fields, invalid } = organizationFormOf(request.body);
      const refuse = (refused: Set<OrganizationFieldName>) =>
        sendPage(
          reply,
          organizationNewPage({ locale: context.locale, signedIn: frameOf(context), values, invalid: refused }),
          400,
        );
      if (invalid.size > 0) return refuse(invalid);
      let created: { id: string };
      try {
        created = await db.transaction((tx) =>
          createOrganization(tx, auditOf(request), { userId: context.userId, ...fields, testWalletCredit }),
        );
      } catch (error) {
        if (!isAppError(error) || error.code !== 'validation_error') throw error;
        return refuse(new Set((error.details ?? []).map(({ path }) => path.slice(1) as OrganizationFieldName)));
      }
      request.log.info({ organizationId: created.id }, 'Organization created from the dashboard');
      return redirectTo(reply, `${DASHBOARD_PATH}?org=${created.id}&notice=created`);
    },
  );

  /** The invitation for the signed-in user, matched by the profile's address as the accept does. */
  const invitationOf = async (request: FastifyRequest, invitationId: string) => {
    const profile = await getProfile(db, request.dashboard.userId);
    const found = await invitationForInvitee(db, {
      invitationId,
      userId: request.dashboard.userId,
      email: profile.email,
      now: now(),
    });
    return { profile, found };
  };
  const sendInvitation = (
    request: FastifyRequest,
    reply: FastifyReply,
    invitationId: string,
    found: InvitationForInvitee,
    status = 200,
  ) => {
    const context = request.dashboard;
    const page = invitationPage({
      locale: context.locale,
      signedIn: frameOf(context),
      invitationId,
      invitation: found,
    });
    return sendPage(reply, page, status);
  };

  app.get(
    `${INVITATION_PAGE_PATH}/:id`,
    {
      config: invitation,
      preHandler: guard,
      schema: {
        ...documented('An invitation, with the form that accepts it (HTML)'),
        params: InvitationPageParams,
        querystring: PageQuery,
      },
    },
    async (request, reply) => {
      const { found } = await invitationOf(request, request.params.id);
      if (found === undefined) return notFoundPage(request, reply);
      return sendInvitation(request, reply, request.params.id, found);
    },
  );

  app.post(
    `${INVITATION_PAGE_PATH}/:id/accept`,
    {
      config: invitationForm,
      preHandler: [app.csrfProtection, guard],
      schema: { ...documented('Accepts an invitation (form)'), params: InvitationPageParams, body: FormBody },
    },
    async (request, reply) => {
      const invitationId = request.params.id;
      const { profile, found } = await invitationOf(request, invitationId);
      if (found === undefined) return notFoundPage(request, reply);
      // Not one to accept (expired, revoked, accepted, another address's, a member's): the page says which.
      if (found.state !== 'pending') return sendInvitation(request, reply, invitationId, found, 409);
      try {
        const joined = await db.transaction((tx) =>
          acceptInvitation(tx, {
            invitationId,
            userId: request.dashboard.userId,
            tokenEmail: profile.email,
            now: now(),
            audit: auditOf(request),
          }),
        );
        request.log.info({ organizationId: joined.organizationId }, 'Invitation accepted from the dashboard');
        return redirectTo(reply, `${DASHBOARD_PATH}?org=${joined.organizationId}&notice=joined`);
      } catch (error) {
        // It changed since it was read (accepted, revoked, expired, or the user joined): the page says how it is now.
        if (!isAppError(error) || (error.statusCode !== 404 && error.statusCode !== 409)) throw error;
        const again = await invitationOf(request, invitationId);
        if (again.found === undefined) return notFoundPage(request, reply);
        return sendInvitation(request, reply, invitationId, again.found, 409);
      }
    },
  );

  const available = settings.platformOrganizationId !== undefined && settings.verifyUrl !== undefined;
  // The start's answer sends the browser to the hosted page, and browsers hold redirects after a form to form-action.
  const activationPolicy =
    settings.verifyUrl === undefined
      ? PAGE_CONTENT_SECURITY_POLICY
      : PAGE_CONTENT_SECURITY_POLICY.replace(
          "form-action 'self'",
          `form-action 'self' ${new URL(settings.verifyUrl).origin}`,
        );
  const sendActivation = async (request: FastifyRequest, reply: FastifyReply, status = 200) => {
    const context = request.dashboard;
    const organization = organizationOf(request);
    const page = activationPage({
      locale: context.locale,
      signedIn: frameOf(context),
      organizationName: organization.name,
      activation: await getActivation(db, settings, organization.id),
      mayStart: allows(organization.role, 'organization:activate'),
      available,
    });
    return sendPage(reply, page, status, activationPolicy);
  };

  app.get(
    ACTIVATION_PATH,
    {
      config: readActivation,
      preHandler: guard,
      schema: { ...documented("The organization's activation: going live (HTML)"), querystring: PageQuery },
    },
    async (request, reply) => sendActivation(request, reply),
  );

  app.post(
    ACTIVATION_PATH,
    {
      config: startForm,
      preHandler: [app.csrfProtection, guard],
      schema: { ...documented('Starts the business verification, then its hosted page (form)'), body: FormBody },
    },
    async (request, reply) => {
      const organizationId = organizationOf(request).id;
      // Nothing to start on this server: the page says so (a 404, as the dashboard without a provider).
      if (!available) return sendActivation(request, reply, 404);
      try {
        const { created, activation } = await startActivation(db, settings, {
          organizationId,
          userId: request.dashboard.userId,
          now: now(),
          audit: auditOf(request),
          lifecycle: { platformOrganizationId: settings.platformOrganizationId },
          // The owner reads the hosted page in the dashboard's language and comes back to this page from its end.
          page: {
            locale: request.dashboard.locale,
            returnUrl: `${publicUrl}${ACTIVATION_PATH}?org=${encodeURIComponent(organizationId)}`,
          },
        });
        request.log.info({ organizationId, created }, 'Activation started from the dashboard');
        const url = activation.session?.verificationUrl;
        return url === null || url === undefined ? redirectTo(reply, ACTIVATION_PATH) : redirectTo(reply, url);
      } catch (error) {
        // Activated in the meantime: the page says live is unlocked.
        if (!isAppError(error) || error.statusCode !== 409) throw error;
        return redirectTo(reply, ACTIVATION_PATH);
      }
    },
  );
};
