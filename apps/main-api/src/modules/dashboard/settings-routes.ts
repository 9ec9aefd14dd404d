import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type ApiKeyEnvironment, apiKeyEnvironments, type Database } from '@platform/db';
import { invalidFields, type ValidationDetail } from '@platform/errors';
import { text } from '@platform/templates';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FormBody, redirectTo, sendPage } from '../../shared/html-forms.js';
import { allows, getOrganization, updateOrganization } from '../organizations/index.js';
import { listOrganizationWallets, type OrganizationWalletView, updateLowBalanceThreshold } from '../wallets/index.js';
import { type FormRefusal, fieldOf, refusalOf } from './account-forms.js';
import type { DashboardOrganization } from './context.js';
import { frameOf } from './pages/layout.js';
import { SETTINGS_PATH } from './pages/nav.js';
import {
  LOW_BALANCE_PATH,
  type SettingsValues,
  settingsLabels,
  settingsPage,
  type ThresholdValues,
  thresholdLabels,
} from './pages/settings.js';
import { documented } from './schemas.js';

// The Settings page (docs/decisions.md#dashboard-pages): the organization's details through the service of PATCH
// /v1/organizations/:id, with its permission (owners:write) and field rules (organizations/organization-fields.ts);
// the low-balance thresholds through the service of PATCH /v1/organizations/:id/wallets/:environment, with its
// permission (billing:write). A refused save is the page again (400) with the values posted and nothing changed.

export interface DashboardSettingsRoutesOptions {
  db: Database;
  /** Whole KES a test wallet never used starts with, as the wallet routes create it. */
  testWalletCredit: number;
  /** The page guard of the dashboard (page-access.ts). */
  guard: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
}

const text64 = Type.Optional(Type.String({ maxLength: 64 }));
const SettingsQuery = Type.Object(
  { notice: Type.Optional(Type.String({ maxLength: 16 })), lang: text64, org: text64, env: text64 },
  { additionalProperties: false },
);

const optionalFields = ['kraPin', 'address', 'billingEmail'] as const;
/** Whole KES as a form writes them: digits only, at most what a number holds exactly. */
const WHOLE_KES = /^\d{1,15}$/;

const storedValues = (organization: {
  name: string;
  kraPin: string | null;
  address: string | null;
  billingEmail: string | null;
}): SettingsValues => ({
  name: organization.name,
  kraPin: organization.kraPin ?? '',
  address: organization.address ?? '',
  billingEmail: organization.billingEmail ?? '',
});

const storedThresholds = (wallets: readonly OrganizationWalletView[]): ThresholdValues => {
  const thresholds: ThresholdValues = { live: '', test: '' };
  for (const wallet of wallets) {
    thresholds[wallet.environment] = wallet.lowBalanceThreshold === null ? '' : String(wallet.lowBalanceThreshold);
  }
  return thresholds;
};

export const dashboardSettingsRoutes: FastifyPluginAsyncTypebox<DashboardSettingsRoutesOptions> = async (
  app,
  { db, testWalletCredit, guard },
) => {
  const organizationOf = (request: FastifyRequest) => request.dashboard.organization as DashboardOrganization;
  const newWallet = { testCredit: testWalletCredit };

  /** The page as it is now, with what a refused form posted in place of the stored values. */
  async function answer(
    request: FastifyRequest,
    reply: FastifyReply,
    outcome: {
      status?: number;
      notice?: string | undefined;
      values?: SettingsValues;
      refusal?: FormRefusal;
      thresholds?: ThresholdValues;
      alertsRefusal?: FormRefusal;
    } = {},
  ) {
    const context = request.dashboard;
    const organization = organizationOf(request);
    const [stored, wallets] = await Promise.all([
      getOrganization(db, context.userId, organization.id),
      listOrganizationWallets(db, organization.id, newWallet),
    ]);
    const html = settingsPage({
      locale: context.locale,
      signedIn: frameOf(context),
      organizationName: stored.name,
      stored: storedValues(stored),
      values: outcome.values ?? storedValues(stored),
      wallets,
      thresholds: outcome.thresholds ?? storedThresholds(wallets),
      mayEdit: allows(organization.role, 'owners:write'),
      mayEditAlerts: allows(organization.role, 'billing:write'),
      notice: outcome.notice,
      refusal: outcome.refusal,
      alertsRefusal: outcome.alertsRefusal,
    });
    return sendPage(reply, html, outcome.status ?? 200);
  }

  app.get(
    SETTINGS_PATH,
    {
      config: { public: true, dashboardPage: { requires: 'organization:read' } },
      preHandler: guard,
      schema: { ...documented("The organization's settings (HTML)"), querystring: SettingsQuery },
    },
    async (request, reply) => {
      const { locale } = request.dashboard;
      const { notice: asked } = request.query;
      const notice =
        asked === 'saved'
          ? text(locale, 'dashboard.settings.saved')
          : asked === 'alerts'
            ? text(locale, 'dashboard.settings.thresholdsSaved')
            : undefined;
      return answer(request, reply, { notice });
    },
  );

  app.post(
    SETTINGS_PATH,
    {
      config: { public: true, idempotency: 'none', dashboardPage: { requires: 'owners:write' } },
      preHandler: [app.csrfProtection, guard],
      schema: { ...documented("Changes the organization's details (form)"), body: FormBody },
    },
    async (request, reply) => {
      const context = request.dashboard;
      const organization = organizationOf(request);
      const stored = storedValues(await getOrganization(db, context.userId, organization.id));
      const posted: Partial<SettingsValues> = {};
      const name = fieldOf(request.body, 'name');
      if (name !== undefined) posted.name = name;
      const changes: { name?: string; kraPin?: string | null; address?: string | null; billingEmail?: string | null } =
        name === undefined ? {} : { name };
      for (const field of optionalFields) {
        const value = fieldOf(request.body, field);
        if (value === undefined) continue;
        posted[field] = value;
        // An empty field clears it, as null does in the API.
        changes[field] = value.trim() === '' ? null : value;
      }
      try {
        await updateOrganization(
          db,
          { actorUserId: context.userId, requestId: request.id, ip: request.ip },
          { userId: context.userId, organizationId: organization.id, ...changes },
        );
      } catch (error) {
        const refusal = refusalOf(error, context.locale, settingsLabels(context.locale));
        return answer(request, reply, { status: 400, values: { ...stored, ...posted }, refusal });
      }
      request.log.info({ organizationId: organization.id }, 'Organization details changed from the dashboard');
      return redirectTo(reply, `${SETTINGS_PATH}?notice=saved`);
    },
  );

  app.post(
    LOW_BALANCE_PATH,
    {
      config: { public: true, idempotency: 'none', dashboardPage: { requires: 'billing:write' } },
      preHandler: [app.csrfProtection, guard],
      schema: { ...documented("Sets the wallets' low-balance thresholds (form)"), body: FormBody },
    },
    async (request, reply) => {
      const context = request.dashboard;
      const organization = organizationOf(request);
      const wallets = await listOrganizationWallets(db, organization.id, newWallet);
      const thresholds = storedThresholds(wallets);
      // Read every field first, so a refusal of one changes neither.
      const changes: Array<{ environment: ApiKeyEnvironment; threshold: number | null }> = [];
      const details: ValidationDetail[] = [];
      for (const environment of apiKeyEnvironments) {
        const value = fieldOf(request.body, environment);
        if (value === undefined) continue;
        thresholds[environment] = value;
        const written = value.trim();
        if (written !== '' && !WHOLE_KES.test(written)) {
          details.push({
            path: `/${environment}`,
            message: text(context.locale, 'dashboard.settings.thresholdInvalid'),
          });
          continue;
        }
        const threshold = written === '' ? null : Number(written);
        const wallet = wallets.find((each) => each.environment === environment);
        if (wallet?.lowBalanceThreshold !== threshold) changes.push({ environment, threshold });
      }
      if (details.length > 0) {
        const alertsRefusal = refusalOf(invalidFields(details), context.locale, thresholdLabels(context.locale));
        return answer(request, reply, { status: 400, thresholds, alertsRefusal });
      }
      for (const { environment, threshold } of changes) {
        await updateLowBalanceThreshold(db, {
          organizationId: organization.id,
          environment,
          lowBalanceThreshold: threshold,
          audit: { actorUserId: context.userId, requestId: request.id, ip: request.ip },
        });
      }
      request.log.info({ organizationId: organization.id }, 'Low-balance thresholds set from the dashboard');
      return redirectTo(reply, `${SETTINGS_PATH}?notice=alerts`);
    },
  );
};
