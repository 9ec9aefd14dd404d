import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isAppError } from '@platform/errors';
import { text } from '@platform/templates';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FormBody, redirectTo, sendPage } from '../../shared/html-forms.js';
import { allows } from '../organizations/index.js';
import { sendTestEvent } from '../webhook-deliveries/index.js';
import { listWebhookEndpoints, revealSecret, rotateSecret, updateWebhookEndpoint } from '../webhooks/index.js';
import {
  type DashboardDeveloperRoutesOptions,
  DeveloperPageQuery,
  fieldOf,
  pageOf,
  read,
  refusalOf,
  write,
} from './developers-forms.js';
import { eventPath } from './pages/developers-frame.js';
import {
  CLEAR_URL_PATH,
  REVEAL_SECRET_PATH,
  ROTATE_SECRET_PATH,
  SET_URL_PATH,
  TEST_EVENT_PATH,
  type WebhookEndpointPageView,
  webhookEndpointPage,
} from './pages/developers-webhooks.js';
import { WEBHOOK_ENDPOINT_PATH } from './pages/nav.js';
import { documented } from './schemas.js';

// The webhook endpoint of the environment shown (docs/decisions.md#dashboard-pages), over the services of
// `GET /v1/webhooks/endpoints`, `PUT /v1/webhooks/endpoints/:environment` (a URL, or null to clear it), its secret's reveal and rotation and
// `POST /v1/webhooks/endpoints/:environment/test`. A secret is shown on the answer to its form only (200, never
// cached), as the API answers it once.

const notices = {
  saved: 'dashboard.developers.webhooks.saved',
  cleared: 'dashboard.developers.webhooks.cleared',
} as const;

export const dashboardWebhookEndpointRoutes: FastifyPluginAsyncTypebox<DashboardDeveloperRoutesOptions> = async (
  app,
  { db, now, allowPrivateTargets, guard },
) => {
  const form = { config: write, preHandler: [app.csrfProtection, guard] };
  const auditOf = (request: FastifyRequest) => ({
    actorUserId: request.dashboard.userId,
    requestId: request.id,
    ip: request.ip,
  });

  /** The page of the environment shown, as the API's list reads it. */
  async function answer(
    request: FastifyRequest,
    reply: FastifyReply,
    extra: Partial<WebhookEndpointPageView> = {},
    status = 200,
  ) {
    const { locale, organization, environment, signedIn } = pageOf(request);
    const endpoints = await listWebhookEndpoints(db, { organizationId: organization.id, now: now() });
    const endpoint = endpoints.find((each) => each.environment === environment);
    if (endpoint === undefined) throw new Error(`No ${environment} webhook settings`);
    const mayWrite = allows(organization.role, 'developer:write');
    return sendPage(reply, webhookEndpointPage({ locale, signedIn, endpoint, mayWrite, ...extra }), status);
  }

  app.get(
    WEBHOOK_ENDPOINT_PATH,
    {
      config: read,
      preHandler: guard,
      schema: {
        ...documented('Developers: the webhook endpoint of the environment shown (HTML)'),
        querystring: DeveloperPageQuery,
      },
    },
    async (request, reply) => {
      const { locale } = pageOf(request);
      const key = Object.entries(notices).find(([name]) => name === request.query.notice)?.[1];
      return answer(request, reply, { notice: key === undefined ? undefined : text(locale, key) });
    },
  );

  app.post(
    SET_URL_PATH,
    { ...form, schema: { ...documented('Sets the webhook URL of the environment shown (form)'), body: FormBody } },
    async (request, reply) => {
      const { locale, organization, environment } = pageOf(request);
      const url = fieldOf(request.body, 'url');
      if (url === '') {
        return answer(request, reply, { url, problem: text(locale, 'dashboard.developers.webhooks.noUrl') }, 400);
      }
      try {
        await updateWebhookEndpoint(db, {
          organizationId: organization.id,
          environment,
          defaultUrl: url,
          allowPrivateTargets,
          now: now(),
          audit: auditOf(request),
        });
      } catch (error) {
        const reason = refusalOf(error);
        if (reason === undefined) throw error;
        const problem = text(locale, 'dashboard.developers.webhooks.badUrl', { reason });
        return answer(request, reply, { url, problem }, 400);
      }
      request.log.info({ organizationId: organization.id, environment }, 'Webhook endpoint updated from the dashboard');
      return redirectTo(reply, `${WEBHOOK_ENDPOINT_PATH}?notice=saved`);
    },
  );

  app.post(
    CLEAR_URL_PATH,
    {
      ...form,
      schema: { ...documented('Clears the webhook URL of the environment shown (form)'), body: FormBody },
    },
    async (request, reply) => {
      const { organization, environment } = pageOf(request);
      // The API's `{ "defaultUrl": null }`: events of sessions without a callbackUrl are sent nowhere. Clearing a
      // URL already cleared changes nothing and says the same.
      await updateWebhookEndpoint(db, {
        organizationId: organization.id,
        environment,
        defaultUrl: null,
        allowPrivateTargets,
        now: now(),
        audit: auditOf(request),
      });
      request.log.info({ organizationId: organization.id, environment }, 'Webhook endpoint cleared from the dashboard');
      return redirectTo(reply, `${WEBHOOK_ENDPOINT_PATH}?notice=cleared`);
    },
  );

  app.post(
    REVEAL_SECRET_PATH,
    { ...form, schema: { ...documented('Shows the signing secret, once (form)'), body: FormBody } },
    async (request, reply) => {
      const { locale, organization, environment } = pageOf(request);
      try {
        const secret = await revealSecret(db, {
          organizationId: organization.id,
          environment,
          now: now(),
          audit: auditOf(request),
        });
        request.log.info({ organizationId: organization.id, environment }, 'Webhook signing secret revealed');
        return answer(request, reply, { secret });
      } catch (error) {
        // Shown already (a 409): the page says so and offers the rotation.
        if (!isAppError(error) || error.statusCode !== 409) throw error;
        return answer(request, reply, { problem: text(locale, 'dashboard.developers.webhooks.alreadyShown') }, 409);
      }
    },
  );

  app.post(
    ROTATE_SECRET_PATH,
    {
      ...form,
      schema: { ...documented('Replaces the signing secret; the answer shows it once (form)'), body: FormBody },
    },
    async (request, reply) => {
      const { organization, environment } = pageOf(request);
      const secret = await rotateSecret(db, {
        organizationId: organization.id,
        environment,
        now: now(),
        audit: auditOf(request),
      });
      request.log.info({ organizationId: organization.id, environment }, 'Webhook signing secret rotated');
      return answer(request, reply, { secret });
    },
  );

  app.post(
    TEST_EVENT_PATH,
    { ...form, schema: { ...documented('Sends a test event to the webhook URL (form)'), body: FormBody } },
    async (request, reply) => {
      const { locale, organization, environment } = pageOf(request);
      try {
        const sent = await sendTestEvent(db, {
          organizationId: organization.id,
          environment,
          now: now(),
          audit: auditOf(request),
        });
        request.log.info({ organizationId: organization.id, eventId: sent.eventId }, 'Webhook test event');
        return redirectTo(reply, `${eventPath(sent.eventId)}?notice=test_sent`);
      } catch (error) {
        // No URL to send it to (a 409): said on the page, where the URL is set.
        if (!isAppError(error) || error.statusCode !== 409) throw error;
        return answer(request, reply, { problem: text(locale, 'dashboard.developers.webhooks.testNeedsUrl') }, 409);
      }
    },
  );
};
