import type { Payment } from '@platform/db';
import { escapeHtml } from '@platform/http';
import { formatKes } from '@platform/pricing';
import { htmlPage } from '../../html.js';
import { SANDBOX_CHECKOUT_PATH } from './card.js';
import { CSRF_FIELD } from './csrf.js';

/** A page of the sandbox checkout and the status it is answered with. */
export interface CheckoutPage {
  status: 200 | 403 | 404;
  html: string;
}

export function checkoutNotFoundPage(): CheckoutPage {
  return {
    status: 404,
    html: htmlPage('Checkout not found', '<h1>Checkout not found</h1><p>Check the link and try again.</p>'),
  };
}

/** A checkout whose payment is no longer pending. */
export function checkoutClosedPage(payment: Payment): CheckoutPage {
  return {
    status: 200,
    html: htmlPage(
      'Checkout closed',
      `<h1>This checkout is closed</h1><p>The payment ${escapeHtml(payment.reference)} is ${escapeHtml(payment.status)}.</p>`,
    ),
  };
}

/** A form sent without a valid CSRF cookie and token. */
export function checkoutExpiredPage(): CheckoutPage {
  return {
    status: 403,
    html: htmlPage(
      'Checkout expired',
      '<h1>This page has expired</h1><p>Go back, reload the checkout and try again.</p>',
    ),
  };
}

/** The checkout itself: the amount, what it pays for, and the Pay and Decline buttons of a plain HTML form. */
export function checkoutFormPage(payment: Payment, csrfToken: string): CheckoutPage {
  const what =
    payment.purpose === 'wallet_topup'
      ? 'Wallet top-up'
      : `Mail subscription: ${payment.plan}, ${payment.seats} seats, ${payment.billingCycle}`;
  const body = `<h1>Sandbox checkout</h1>
<p class="note">No real card is charged: this page stands in for the card provider's checkout.</p>
<dl>
  <dt>Amount</dt><dd>${escapeHtml(formatKes(payment.amount))}</dd>
  <dt>For</dt><dd>${escapeHtml(what)}</dd>
  <dt>Reference</dt><dd>${escapeHtml(payment.reference)}</dd>
  <dt>Card</dt><dd>Sandbox Visa ending in 4081</dd>
</dl>
<form method="post" action="${SANDBOX_CHECKOUT_PATH}/${escapeHtml(encodeURIComponent(payment.reference))}">
  <input type="hidden" name="${CSRF_FIELD}" value="${escapeHtml(csrfToken)}">
  <div class="actions">
    <button type="submit" name="action" value="pay" class="primary">Pay ${escapeHtml(formatKes(payment.amount))}</button>
    <button type="submit" name="action" value="decline">Decline</button>
  </div>
</form>`;
  return { status: 200, html: htmlPage('Sandbox checkout', body) };
}
