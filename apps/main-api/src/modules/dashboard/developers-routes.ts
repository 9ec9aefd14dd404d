import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isAppError, notFound } from '@platform/errors';
import { text } from '@platform/templates';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { FormBody, redirectTo, sendPage } from '../../shared/html-forms.js';
import { assertActivated } from '../activation/index.js';
import {
  API_KEY_NOT_FOUND,
  API_KEY_RATE_LIMIT_MAX,
  issueApiKey,
  keyRateLimitMaxOf,
  listApiKeys,
  revokeOrganizationApiKey,
} from '../api-keys/index.js';
import { allows } from '../organizations/index.js';
import { dashboardDeliveryLogRoutes } from './developers-events-routes.js';
import {
  type DashboardDeveloperRoutesOptions,
  DeveloperPageQuery,
  fieldOf,
  pageOf,
  read,
  refusalOf,
  write,
} from './developers-forms.js';
import { dashboardAllowedOriginRoutes } from './developers-origins-routes.js';
import { dashboardWebhookEndpointRoutes } from './developers-webhooks-routes.js';
import { API_KEYS_PATH } from './pages/developers-frame.js';
import { type ApiKeysView, apiKeysPage, CREATE_KEY_PATH } from './pages/developers-keys.js';
import { documented } from './schemas.js';

// The Developers pages (docs/decisions.md#dashboard-pages): API keys here; the webhook endpoint, the delivery log and
// the allowed origins in the plugins registered below. Each calls the same services as its `/v1/...` route, with
// that route's permissions: every member reads (`organization:read`), owners, admins and developers change
// (`developer:write`); the environment is the dashboard's toggle.

const KeyParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

export const dashboardDeveloperRoutes: FastifyPluginAsyncTypebox<DashboardDeveloperRoutesOptions> = async (
  app,
  options,
) => {
  const { db, now, guard } = options;

  /** The keys page of the environment shown; revoked keys too, so the list shows each key's status. */
  async function keysView(request: FastifyRequest, extra: Partial<ApiKeysView> = {}): Promise<ApiKeysView> {
    const { locale, organization, environment, signedIn } = pageOf(request);
    const keys = (await listApiKeys(db, organization.id, { includeRevoked: true })).filter(
      (key) => key.environment === environment,
    );
    let liveLocked = false;
    if (environment === 'live') {
      // The service's own check: the page says what a create would answer.
      liveLocked = await assertActivated(db, organization.id, 'live API keys').then(
        () => false,
        (error: unknown) => {
          if (isAppError(error) && error.code === 'organization_not_activated') return true;
          throw error;
        },
      );
    }
    const mayWrite = allows(organization.role, 'developer:write');
    const mayGiveVerifiedData = mayWrite && allows(organization.role, 'verifications:read_personal_data');
    const rateLimitMax = await keyRateLimitMaxOf(db, organization.id, options.rateLimitMaxPerMinute);
    const page = {
      locale,
      signedIn,
      organizationName: organization.name,
      keys,
      mayWrite,
      mayGiveVerifiedData,
      liveLocked,
      rateLimitMax,
    };
    return { ...page, ...extra };
  }

  app.get(
    API_KEYS_PATH,
    {
      config: read,
      preHandler: guard,
      schema: {
        ...documented('Developers: the API keys of the environment shown (HTML)'),
        querystring: DeveloperPageQuery,
      },
    },
    async (request, reply) => {
      const { locale } = pageOf(request);
      const notice = request.query.notice === 'revoked' ? text(locale, 'dashboard.developers.keys.revoked') : undefined;
      return sendPage(reply, apiKeysPage(await keysView(request, { notice })));
    },
  );

  app.post(
    CREATE_KEY_PATH,
    {
      config: write,
      preHandler: [app.csrfProtection, guard],
      schema: { ...documented('Creates an API key; the answer shows its secret once (form)'), body: FormBody },
    },
    async (request, reply) => {
      const { context, locale, organization, environment } = pageOf(request);
      const name = fieldOf(request.body, 'name');
      const rateLimit = fieldOf(request.body, 'rateLimitPerMinute');
      // The checkbox: sent only when ticked; the service refuses it to a role without the permission.
      const readVerifiedData = fieldOf(request.body, 'readVerifiedData') === 'yes';
      // Empty: the default, as the API's omitted field. Else a whole number, its bounds the service's.
      const rateLimitPerMinute = rateLimit === '' ? undefined : wholeNumberOf(rateLimit);
      const refusedLimit = async () => {
        const view = await keysView(request, { name, rateLimit, readVerifiedData, rateLimitRefused: true });
        const problem = text(locale, 'dashboard.developers.keys.badRateLimit', { max: view.rateLimitMax });
        return sendPage(reply, apiKeysPage({ ...view, problem }), 400);
      };
      if (rateLimitPerMinute === null) return refusedLimit();
      try {
        const created = await issueApiKey(
          db,
          {
            organizationId: organization.id,
            userId: context.userId,
            environment,
            name,
            ...(rateLimitPerMinute === undefined ? {} : { rateLimitPerMinute }),
            permissions: readVerifiedData ? ['verified_data:read'] : [],
            role: organization.role,
          },
          options.rateLimitMaxPerMinute,
          { actorUserId: context.userId, requestId: request.id, ip: request.ip },
        );
        request.log.info(
          { apiKeyId: created.id, organizationId: organization.id },
          'API key created from the dashboard',
        );
        // The secret is on this answer only (201, never cached): no redirect, no URL, no log line carries it.
        return sendPage(reply, apiKeysPage(await keysView(request, { created })), 201);
      } catch (error) {
        const reason = refusalOf(error);
        if (reason !== undefined) {
          // Above the organization's maximum: said with the maximum, in the page's language.
          if (isAppError(error) && error.details?.some((detail) => detail.path === '/rateLimitPerMinute')) {
            return refusedLimit();
          }
          const problem = text(locale, 'dashboard.developers.keys.badName', { reason });
          return sendPage(
            reply,
            apiKeysPage(await keysView(request, { name, rateLimit, readVerifiedData, problem })),
            400,
          );
        }
        if (isAppError(error) && error.code === 'forbidden') {
          const problem = text(locale, 'dashboard.developers.keys.verifiedDataForbidden');
          return sendPage(reply, apiKeysPage(await keysView(request, { name, rateLimit, problem })), 403);
        }
        if (!isAppError(error) || error.code !== 'organization_not_activated') throw error;
        const problem = text(locale, 'dashboard.developers.keys.locked');
        return sendPage(reply, apiKeysPage(await keysView(request, { problem })), 403);
      }
    },
  );

  app.post(
    `${API_KEYS_PATH}/keys/:id/revoke`,
    {
      config: write,
      preHandler: [app.csrfProtection, guard],
      schema: { ...documented('Revokes an API key (form)'), params: KeyParams, body: FormBody },
    },
    async (request, reply) => {
      const { context, organization } = pageOf(request);
      const audit = { actorUserId: context.userId, requestId: request.id, ip: request.ip };
      // An id that is not a UUID, another organization's key: the same 404 as an unknown one.
      const revoked = await revokeOrganizationApiKey(db, organization.id, request.params.id, now(), audit);
      if (!revoked) throw notFound(API_KEY_NOT_FOUND);
      request.log.info(
        { apiKeyId: request.params.id, organizationId: organization.id },
        'API key revoked from the dashboard',
      );
      return redirectTo(reply, `${API_KEYS_PATH}?notice=revoked`);
    },
  );

  await app.register(dashboardWebhookEndpointRoutes, options);
  await app.register(dashboardDeliveryLogRoutes, options);
  await app.register(dashboardAllowedOriginRoutes, options);
};

/** A requests-a-minute field: a whole number from 1 to the schema's bound, else null. */
function wholeNumberOf(value: string): number | null {
  if (!/^[0-9]{1,6}$/.test(value)) return null;
  const number = Number(value);
  return number >= 1 && number <= API_KEY_RATE_LIMIT_MAX ? number : null;
}
