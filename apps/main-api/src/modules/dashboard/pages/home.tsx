/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import type { MembershipRole } from '@platform/db';
import { type Locale, say, text } from '@platform/templates';
import type { HomeAttention } from '../home-attention.js';
import { HomeAttentionSection } from './home-attention.js';
import { dashboardPage, Message, type SignedInFrame } from './layout.js';
import { DASHBOARD_PATH, ORGANIZATION_NEW_PATH } from './nav.js';

export interface HomeView {
  locale: Locale;
  signedIn: SignedInFrame;
  /** Whom to greet: the profile's name, else its address. */
  name: string;
  organizations: ReadonlyArray<{ id: string; name: string; role: MembershipRole }>;
  /** What needs attention, for the organization shown and the user (home-attention.tsx). */
  attention?: HomeAttention | undefined;
  /** Said once after a form: the organization created or joined (docs/decisions.md#dashboard-pages). */
  notice?: string | undefined;
}

/** What Home says after the organization form or an accepted invitation (`?notice=created|joined`). */
export function homeNotice(locale: Locale, notice: string | undefined, organization: { name: string } | null) {
  if (organization === null || (notice !== 'created' && notice !== 'joined')) return undefined;
  return text(locale, `dashboard.onboarding.home.${notice}`, { organization: organization.name });
}

/** Home: a greeting and the organizations the user belongs to, or what to do without one. */
export function homePage({ locale, signedIn, name, organizations, attention, notice }: HomeView): string {
  const create = <a href={ORGANIZATION_NEW_PATH}>{say(locale, 'dashboard.onboarding.home.create')}</a>;
  return dashboardPage({
    locale,
    title: text(locale, 'dashboard.home.title'),
    path: DASHBOARD_PATH,
    signedIn,
    body: (
      <>
        <h1>{say(locale, 'dashboard.home.greeting', { name })}</h1>
        <Message text={notice} />
        {attention === undefined ? null : (
          <HomeAttentionSection locale={locale} attention={attention} organizationName={signedIn.organization?.name} />
        )}
        <h2>{say(locale, 'dashboard.home.organizations')}</h2>
        {organizations.length === 0 ? (
          <p>{say(locale, 'dashboard.home.noOrganizations', { create })}</p>
        ) : (
          <ul class="cards">
            {organizations.map((organization) => (
              <li class="card">
                <h3>{organization.name}</h3>
                <p>
                  {say(locale, 'dashboard.home.role', { role: text(locale, `dashboard.role.${organization.role}`) })}
                </p>
              </li>
            ))}
          </ul>
        )}
        {organizations.length === 0 ? null : <p>{create}</p>}
      </>
    ),
  });
}
