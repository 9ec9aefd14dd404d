import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Database } from '@platform/db';
import { isAppError } from '@platform/errors';
import { text } from '@platform/templates';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FormBody, redirectTo, sendPage } from '../../shared/html-forms.js';
import { createProfile, getEditableProfile, updateProfile, userExists } from '../accounts/index.js';
import { fieldOf, refusalOf } from './account-forms.js';
import { safeReturnTo } from './context.js';
import { frameOf } from './pages/layout.js';
import { DASHBOARD_PATH, LOGIN_PATH, NEW_PROFILE_PATH, PROFILE_PATH } from './pages/nav.js';
import { newProfilePage } from './pages/new-profile.js';
import { type ProfileFormValues, profileFieldLabels, profileFormValues, profilePage } from './pages/profile.js';
import { documented } from './schemas.js';
import type { DashboardSessionStore } from './service.js';

// The Profile page and "complete your profile" (docs/decisions.md#dashboard-pages), over the accounts module's
// service: the form changes what PATCH /v1/accounts/me changes under the same rules (accounts/profile-fields.ts), and
// the new profile is made as POST /v1/accounts makes it, with the identity provider's address, and then the session
// of the sign-in that waited for it is opened. Pages of the user's own: no organization, no permission. A date of birth is personal data: only ever in a form body, never logged.

export interface DashboardProfileRoutesOptions {
  db: Database;
  now: () => Date;
  /** The sessions kept on the server: the new profile's form opens the session its sign-in waited for. */
  sessions: DashboardSessionStore;
  /** The page guard of the dashboard (page-access.ts). */
  guard: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
}

const text64 = Type.Optional(Type.String({ maxLength: 64 }));
const ProfilePageQuery = Type.Object(
  { notice: Type.Optional(Type.String({ maxLength: 16 })), lang: text64, org: text64, env: text64 },
  { additionalProperties: false },
);
const NewProfileQuery = Type.Object({ lang: text64 }, { additionalProperties: false });

const profileFields = ['firstName', 'lastName', 'phone', 'dob'] as const;

export const dashboardProfileRoutes: FastifyPluginAsyncTypebox<DashboardProfileRoutesOptions> = async (
  app,
  { db, now, sessions, guard },
) => {
  const page = { public: true, dashboardPage: {} } as const;
  const form = { public: true, idempotency: 'none', dashboardPage: {} } as const;
  const newProfile = { public: true, dashboardPage: { newProfile: true } } as const;
  const newProfileForm = { public: true, idempotency: 'none', dashboardPage: { newProfile: true } } as const;

  app.get(
    PROFILE_PATH,
    {
      config: page,
      preHandler: guard,
      schema: { ...documented('Your profile, and the form that changes it (HTML)'), querystring: ProfilePageQuery },
    },
    async (request, reply) => {
      const context = request.dashboard;
      const profile = await getEditableProfile(db, context.userId);
      const notice = request.query.notice === 'saved' ? text(context.locale, 'dashboard.profile.saved') : undefined;
      return sendPage(
        reply,
        profilePage({
          locale: context.locale,
          signedIn: frameOf(context),
          profile,
          values: profileFormValues(profile),
          notice,
        }),
      );
    },
  );

  app.post(
    PROFILE_PATH,
    {
      config: form,
      preHandler: [app.csrfProtection, guard],
      schema: { ...documented('Changes your profile (form)'), body: FormBody },
    },
    async (request, reply) => {
      const context = request.dashboard;
      const profile = await getEditableProfile(db, context.userId);
      const posted: Partial<ProfileFormValues> = {};
      const changes: Partial<ProfileFormValues> = {};
      for (const field of profileFields) {
        const value = fieldOf(request.body, field);
        if (value === undefined) continue;
        posted[field] = value;
        // An empty field with nothing stored is no change; one emptied goes to the rules, which refuse it as the API.
        if (value.trim() !== '' || profile[field] !== null) changes[field] = value;
      }
      try {
        await updateProfile(db, context.userId, changes, now);
      } catch (error) {
        const refusal = refusalOf(error, context.locale, profileFieldLabels(context.locale));
        const values = { ...profileFormValues(profile), ...posted };
        const html = profilePage({ locale: context.locale, signedIn: frameOf(context), profile, values, refusal });
        return sendPage(reply, html, 400);
      }
      request.log.info('Profile changed from the dashboard');
      return redirectTo(reply, `${PROFILE_PATH}?notice=saved`);
    },
  );

  app.get(
    NEW_PROFILE_PATH,
    {
      config: newProfile,
      preHandler: guard,
      schema: {
        ...documented('Complete your profile: your name, for a new account (HTML)'),
        querystring: NewProfileQuery,
      },
    },
    async (request, reply) => {
      const context = request.dashboard;
      return sendPage(
        reply,
        newProfilePage({
          locale: context.locale,
          signedIn: frameOf(context),
          email: context.userLabel,
          values: { firstName: '', lastName: '' },
        }),
      );
    },
  );

  app.post(
    NEW_PROFILE_PATH,
    {
      config: newProfileForm,
      preHandler: [app.csrfProtection, guard],
      schema: { ...documented('Creates your profile with your name, then goes on (form)'), body: FormBody },
    },
    async (request, reply) => {
      const context = request.dashboard;
      // The guard let through a sign-in awaiting its profile: its user and the provider's address.
      const awaiting = request.session.get('dashboardNewProfile') as { email: string; expiresAt: number };
      const values = {
        firstName: fieldOf(request.body, 'firstName') ?? '',
        lastName: fieldOf(request.body, 'lastName') ?? '',
      };
      try {
        await createProfile(db, { id: context.userId, email: awaiting.email }, values, now);
      } catch (error) {
        // Made a moment ago in another tab: the profile wanted is there. An address another profile took is said.
        const conflict = isAppError(error) && error.statusCode === 409;
        if (!(conflict && (await userExists(db, context.userId)))) {
          const refusal = conflict
            ? { message: text(context.locale, 'dashboard.signIn.emailTaken'), problems: {} }
            : refusalOf(error, context.locale, profileFieldLabels(context.locale));
          const html = newProfilePage({
            locale: context.locale,
            signedIn: frameOf(context),
            email: context.userLabel,
            values,
            refusal,
          });
          return sendPage(reply, html, conflict ? 409 : 400);
        }
      }
      const opened = await sessions.open({
        userId: context.userId,
        tokensExpireAt: new Date(awaiting.expiresAt),
        now: now(),
      });
      request.session.set('dashboardNewProfile', undefined);
      if (opened === null) return redirectTo(reply, `${LOGIN_PATH}?notice=expired`);
      request.session.set('dashboardSession', opened.secret);
      request.log.info('Profile created from the dashboard');
      const returnTo = safeReturnTo(request.session.get('dashboardReturnTo'), DASHBOARD_PATH);
      request.session.set('dashboardReturnTo', undefined);
      return redirectTo(reply, returnTo);
    },
  );
};
