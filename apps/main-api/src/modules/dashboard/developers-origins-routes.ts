import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MAX_ALLOWED_ORIGINS } from '@platform/db';
import { isAppError } from '@platform/errors';
import { text } from '@platform/templates';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FormBody, redirectTo, sendPage } from '../../shared/html-forms.js';
import { listAllowedOrigins, setAllowedOrigins } from '../allowed-origins/index.js';
import { allows } from '../organizations/index.js';
import {
  type DashboardDeveloperRoutesOptions,
  DeveloperPageQuery,
  fieldOf,
  pageOf,
  read,
  refusalOf,
  write,
} from './developers-forms.js';
import {
  ADD_ORIGIN_PATH,
  type AllowedOriginsPageView,
  allowedOriginsPage,
  REMOVE_ORIGIN_PATH,
} from './pages/developers-origins.js';
import { ALLOWED_ORIGINS_PATH } from './pages/nav.js';
import { documented } from './schemas.js';

// The allowed origins of the environment shown (docs/decisions.md#dashboard-pages), over the services of
// `GET /v1/organizations/:id/allowed-origins` and `PUT .../allowed-origins/:environment`: adding or removing one
// origin sends the whole new list, which the service checks and replaces.

const notices = {
  added: 'dashboard.developers.origins.added',
  removed: 'dashboard.developers.origins.removed',
} as const;

export const dashboardAllowedOriginRoutes: FastifyPluginAsyncTypebox<DashboardDeveloperRoutesOptions> = async (
  app,
  { db, now, guard },
) => {
  const form = { config: write, preHandler: [app.csrfProtection, guard] };

  const currentOf = async (request: FastifyRequest) => {
    const { organization, environment } = pageOf(request);
    return (await listAllowedOrigins(db, organization.id))[environment];
  };

  async function answer(
    request: FastifyRequest,
    reply: FastifyReply,
    extra: Partial<AllowedOriginsPageView> = {},
    status = 200,
  ) {
    const { locale, organization, signedIn } = pageOf(request);
    const mayWrite = allows(organization.role, 'developer:write');
    const origins = await currentOf(request);
    return sendPage(reply, allowedOriginsPage({ locale, signedIn, origins, mayWrite, ...extra }), status);
  }

  /** Replaces the list as the API does; a refusal answers the page with why (400), the list unchanged. */
  async function replace(request: FastifyRequest, reply: FastifyReply, origins: string[], typed: string) {
    const { context, locale, organization, environment } = pageOf(request);
    try {
      await setAllowedOrigins(
        db,
        { actorUserId: context.userId, requestId: request.id, ip: request.ip },
        { organizationId: organization.id, environment, origins, now: now() },
      );
    } catch (error) {
      const reason = refusalOf(error);
      if (reason === undefined) throw error;
      const tooMany = isAppError(error) && error.details?.some((detail) => detail.path === '/origins') === true;
      const problem = tooMany
        ? text(locale, 'dashboard.developers.origins.full', { max: MAX_ALLOWED_ORIGINS })
        : text(locale, 'dashboard.developers.origins.badOrigin', { reason });
      await answer(request, reply, { origin: typed, problem }, 400);
      return false;
    }
    request.log.info({ organizationId: organization.id, environment }, 'Allowed origins updated from the dashboard');
    return true;
  }

  app.get(
    ALLOWED_ORIGINS_PATH,
    {
      config: read,
      preHandler: guard,
      schema: {
        ...documented('Developers: the allowed origins of the environment shown (HTML)'),
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
    ADD_ORIGIN_PATH,
    { ...form, schema: { ...documented('Adds an allowed origin (form)'), body: FormBody } },
    async (request, reply) => {
      const { locale } = pageOf(request);
      const origin = fieldOf(request.body, 'origin');
      if (origin === '') {
        return answer(request, reply, { origin, problem: text(locale, 'dashboard.developers.origins.noOrigin') }, 400);
      }
      const current = await currentOf(request);
      if (!(await replace(request, reply, [...current, origin], origin))) return reply;
      return redirectTo(reply, `${ALLOWED_ORIGINS_PATH}?notice=added`);
    },
  );

  app.post(
    REMOVE_ORIGIN_PATH,
    { ...form, schema: { ...documented('Removes an allowed origin (form)'), body: FormBody } },
    async (request, reply) => {
      const { locale } = pageOf(request);
      const origin = fieldOf(request.body, 'origin');
      const current = await currentOf(request);
      if (!current.includes(origin)) {
        return answer(request, reply, { problem: text(locale, 'dashboard.developers.origins.notListed') }, 400);
      }
      const rest = current.filter((each) => each !== origin);
      if (!(await replace(request, reply, rest, ''))) return reply;
      return redirectTo(reply, `${ALLOWED_ORIGINS_PATH}?notice=removed`);
    },
  );
};
