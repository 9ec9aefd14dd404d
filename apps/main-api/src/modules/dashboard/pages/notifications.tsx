/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import type { NotificationType } from '@platform/db';
import { type Locale, say, text } from '@platform/templates';
import type { DashboardOrganization } from '../context.js';
import { formatMoment } from './format.js';
import { CsrfField, dashboardPage, Message, type SignedInFrame } from './layout.js';
import { DASHBOARD_PATH, NOTIFICATIONS_PATH } from './nav.js';

// The notifications inbox (docs/decisions.md#dashboard-pages): the user's newest notifications, each saying which
// organization it concerns, with its link when it opens a dashboard page (with that organization chosen), and the
// forms to mark one or all read.

/** One notification as `GET /v1/notifications` lists it. */
export interface InboxNotification {
  id: string;
  title: string;
  message: string;
  type: NotificationType;
  isRead: boolean;
  createdAt: string;
  actionUrl: string | null;
  organizationId: string | null;
}

export interface NotificationsView {
  locale: Locale;
  signedIn: SignedInFrame;
  notifications: readonly InboxNotification[];
  unreadCount: number;
  /** The organizations the user belongs to: a notification names its own, and its link chooses it. */
  organizations: readonly DashboardOrganization[];
  notice?: string | undefined;
}

/**
 * The link of a notification when it is a dashboard page, with `org=` for an organization the user belongs to (so
 * the page shows that one); null for none, and for anything else (an API path, another site).
 */
export function dashboardLinkOf(actionUrl: string | null, organization: DashboardOrganization | undefined) {
  if (actionUrl === null) return null;
  if (!(actionUrl === DASHBOARD_PATH || /^\/dashboard[/?#]/.test(actionUrl))) return null;
  const url = new URL(actionUrl, 'http://dashboard.invalid');
  if (!(url.pathname === DASHBOARD_PATH || url.pathname.startsWith(`${DASHBOARD_PATH}/`))) return null;
  if (organization !== undefined && !url.searchParams.has('org')) url.searchParams.set('org', organization.id);
  return `${url.pathname}${url.search}${url.hash}`;
}

function NotificationCard({ view, notification }: { view: NotificationsView; notification: InboxNotification }) {
  const { locale, signedIn } = view;
  const organization = view.organizations.find(({ id }) => id === notification.organizationId);
  const link = dashboardLinkOf(notification.actionUrl, organization);
  return (
    <li class={notification.isRead ? 'card' : 'card unread'}>
      <h3>
        {notification.isRead ? null : <span class="badge">{say(locale, 'dashboard.notifications.new')}</span>}{' '}
        {notification.title}
      </h3>
      <p class="hint">
        {say(locale, `dashboard.notifications.type.${notification.type}`)} ·{' '}
        <time datetime={notification.createdAt}>{formatMoment(locale, notification.createdAt)}</time>
        {notification.organizationId === null ? null : (
          <>
            {' · '}
            {organization === undefined
              ? say(locale, 'dashboard.notifications.formerOrganization')
              : say(locale, 'dashboard.notifications.about', { organization: organization.name })}
          </>
        )}
      </p>
      <p>{notification.message}</p>
      <div class="controls">
        {link === null ? null : (
          <a href={link}>
            {say(locale, 'dashboard.notifications.open')}
            <span class="vh">: {notification.title}</span>
          </a>
        )}
        {notification.isRead ? null : (
          <form method="post" action={`${NOTIFICATIONS_PATH}/${encodeURIComponent(notification.id)}/read`} class="row">
            <CsrfField token={signedIn.csrfToken} />
            <button type="submit">{say(locale, 'dashboard.notifications.markRead')}</button>
          </form>
        )}
      </div>
    </li>
  );
}

export function notificationsPage(view: NotificationsView): string {
  const { locale, signedIn } = view;
  return dashboardPage({
    locale,
    title: text(locale, 'dashboard.notifications.title'),
    path: NOTIFICATIONS_PATH,
    signedIn,
    body: (
      <>
        <h1>{say(locale, 'dashboard.notifications.title')}</h1>
        <p>{say(locale, 'dashboard.notifications.intro')}</p>
        <Message text={view.notice} />
        <div class="controls">
          <p>{say(locale, 'dashboard.notifications.unread', { count: view.unreadCount })}</p>
          {view.unreadCount === 0 ? null : (
            <form method="post" action={`${NOTIFICATIONS_PATH}/read-all`} class="row">
              <CsrfField token={signedIn.csrfToken} />
              <button type="submit">{say(locale, 'dashboard.notifications.readAll')}</button>
            </form>
          )}
        </div>
        {view.notifications.length === 0 ? (
          <p>{say(locale, 'dashboard.notifications.empty')}</p>
        ) : (
          <ul class="cards inbox" aria-label={text(locale, 'dashboard.notifications.listLabel')}>
            {view.notifications.map((notification) => (
              <NotificationCard view={view} notification={notification} />
            ))}
          </ul>
        )}
      </>
    ),
  });
}
