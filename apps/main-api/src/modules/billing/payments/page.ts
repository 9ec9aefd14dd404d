import type { Payment, PaymentStatus } from '@platform/db';
import { escapeHtml } from '@platform/http';
import { htmlPage } from '../html.js';

const HEADLINES: Record<PaymentStatus, string> = {
  pending: 'Payment being confirmed',
  succeeded: 'Payment successful',
  failed: 'Payment failed',
  cancelled: 'Payment cancelled',
  expired: 'Payment expired',
  refund_due: 'Payment to be refunded',
};

const EXPLANATIONS: Record<PaymentStatus, string> = {
  pending:
    'We are waiting for the card provider to confirm it. You can close this window; the app will show the result.',
  succeeded: 'Thank you. You can close this window and return to the app.',
  failed: 'The card was not charged. Return to the app to try again.',
  cancelled: 'Nothing was charged. Return to the app to try again.',
  expired: 'The checkout timed out. Return to the app to try again.',
  refund_due: 'The account this payment was for has been closed, so nothing was bought with it: the money is refunded.',
};

/**
 * The page after the hosted card checkout for `payment` (undefined: none was found). It shows only the
 * outcome, never amounts or account details.
 */
export function checkoutCompletePage(payment: Payment | undefined): { status: 200 | 404; html: string } {
  const title = payment === undefined ? 'Payment not found' : HEADLINES[payment.status];
  const text = payment === undefined ? 'Check the link and try again.' : EXPLANATIONS[payment.status];
  return {
    status: payment === undefined ? 404 : 200,
    html: htmlPage(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>`),
  };
}
