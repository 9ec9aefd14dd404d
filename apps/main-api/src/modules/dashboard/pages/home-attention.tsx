/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import { type Locale, say, text } from '@platform/templates';
import type { HomeAttention, OrganizationAttention } from '../home-attention.js';
import { formatWholeKes } from './format.js';
import { DASHBOARD_PATH } from './nav.js';

// Home's attention items (docs/decisions.md#dashboard-pages): for the organization shown, its live and test balances
// with their low-balance state and the subscription's status; then what needs attention, each a link to the page
// that deals with it, and the invitations addressed to the user.

const BILLING_PATH = `${DASHBOARD_PATH}/billing`;
const EVENTS_PATH = `${DASHBOARD_PATH}/developers/events`;
const TEAM_PATH = `${DASHBOARD_PATH}/team`;
const ACTIVATION_PATH = `${DASHBOARD_PATH}/activation`;
const invitationPath = (id: string) => `${DASHBOARD_PATH}/invitations/${encodeURIComponent(id)}`;

interface Item {
  href: string;
  label: string;
}

function itemsOf(locale: Locale, attention: HomeAttention): Item[] {
  const items: Item[] = [];
  const facts = attention.organization;
  if (facts !== null) {
    if (facts.subscriptionStatus === 'past_due') {
      items.push({ href: BILLING_PATH, label: text(locale, 'dashboard.home.attention.pastDue') });
    }
    if (facts.unpaidInvoices > 0) {
      const count = facts.unpaidInvoices;
      items.push({ href: BILLING_PATH, label: text(locale, 'dashboard.home.attention.unpaidInvoices', { count }) });
    }
    if (facts.failedCallbacks.count > 0) {
      const { count, more } = facts.failedCallbacks;
      const shown = more ? text(locale, 'dashboard.home.attention.many', { count }) : String(count);
      items.push({
        href: EVENTS_PATH,
        label: text(locale, 'dashboard.home.attention.failedCallbacks', { count: shown }),
      });
    }
    if (facts.pendingInvitations > 0) {
      const count = facts.pendingInvitations;
      items.push({ href: TEAM_PATH, label: text(locale, 'dashboard.home.attention.pendingInvitations', { count }) });
    }
    if (!facts.activated) {
      items.push({ href: ACTIVATION_PATH, label: text(locale, 'dashboard.home.attention.liveLocked') });
    }
  }
  for (const invitation of attention.invitationsToYou) {
    items.push({
      href: invitationPath(invitation.id),
      label: text(locale, 'dashboard.home.attention.invitedYou', {
        organization: invitation.organizationName,
        role: text(locale, `dashboard.role.${invitation.role}`),
      }),
    });
  }
  return items;
}

function Overview({ locale, facts, name }: { locale: Locale; facts: OrganizationAttention; name: string }) {
  return (
    <section aria-labelledby="overview-heading">
      <h2 id="overview-heading">{say(locale, 'dashboard.home.attention.overview', { organization: name })}</h2>
      <ul class="cards">
        {facts.wallets.map((wallet) => {
          const threshold = wallet.lowBalanceThreshold;
          const low = threshold !== null && wallet.available < threshold;
          return (
            <li class={low ? 'card low' : 'card'}>
              <h3>{say(locale, `dashboard.home.attention.wallet.${wallet.environment}`)}</h3>
              <p class="amount">
                {say(locale, 'dashboard.home.attention.balance', { amount: formatWholeKes(wallet.available) })}
              </p>
              <p>
                {threshold === null
                  ? say(locale, 'dashboard.home.attention.noThreshold')
                  : say(locale, low ? 'dashboard.home.attention.low' : 'dashboard.home.attention.aboveThreshold', {
                      threshold: formatWholeKes(threshold),
                    })}
              </p>
            </li>
          );
        })}
        <li class="card">
          <h3>{say(locale, 'dashboard.home.attention.subscription')}</h3>
          <p>{say(locale, `dashboard.home.attention.subscription.${facts.subscriptionStatus ?? 'none'}`)}</p>
        </li>
      </ul>
    </section>
  );
}

/** The overview of the organization shown (when there is one) and the attention items, or that there are none. */
export function HomeAttentionSection({
  locale,
  attention,
  organizationName,
}: {
  locale: Locale;
  attention: HomeAttention;
  organizationName: string | undefined;
}) {
  const items = itemsOf(locale, attention);
  return (
    <>
      <section aria-labelledby="attention-heading">
        <h2 id="attention-heading">{say(locale, 'dashboard.home.attention.heading')}</h2>
        {items.length === 0 ? (
          <p>{say(locale, 'dashboard.home.attention.none')}</p>
        ) : (
          <ul class="attention">
            {items.map((item) => (
              <li>
                <a href={item.href}>{item.label}</a>
              </li>
            ))}
          </ul>
        )}
      </section>
      {attention.organization === null || organizationName === undefined ? null : (
        <Overview locale={locale} facts={attention.organization} name={organizationName} />
      )}
    </>
  );
}
