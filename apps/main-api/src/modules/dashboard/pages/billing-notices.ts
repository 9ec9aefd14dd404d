import { type Locale, text } from '@platform/templates';

// What a Billing page says after one of its forms (the `?notice=` of its redirect): only these, so a link cannot make
// a page say anything else.

const notices = {
  topped_up: 'dashboard.billing.notice.topped_up',
  prompted: 'dashboard.billing.notice.prompted',
  canceled: 'dashboard.billing.notice.canceled',
  resumed: 'dashboard.billing.notice.resumed',
  changed: 'dashboard.billing.notice.changed',
  charging: 'dashboard.billing.notice.charging',
  removed: 'dashboard.billing.notice.removed',
} as const;

type BillingNotice = keyof typeof notices;

export function billingNotice(locale: Locale, notice: string | undefined): string | undefined {
  if (notice === undefined || !Object.hasOwn(notices, notice)) return undefined;
  return text(locale, notices[notice as BillingNotice]);
}
