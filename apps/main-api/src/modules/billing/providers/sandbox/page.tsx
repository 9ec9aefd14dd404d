/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import type { Payment } from '@platform/db';
import { formatKes } from '@platform/pricing';
import { say, text } from '@platform/templates';
import { htmlPage } from '../../html.js';
import { SANDBOX_CHECKOUT_PATH } from './card.js';
import { CSRF_FIELD } from './csrf.js';

/** A page of the sandbox checkout and the status it is answered with. */
export interface CheckoutPage {
  status: 200 | 403 | 404;
  html: string;
}

export function checkoutNotFoundPage(): CheckoutPage {
  const title = text('en', 'checkout.notFound.title');
  const body = (
    <>
      <h1>{title}</h1>
      <p>{say('en', 'checkout.notFound.body')}</p>
    </>
  );
  return { status: 404, html: htmlPage(title, body) };
}

/** A checkout whose payment is no longer pending. */
export function checkoutClosedPage(payment: Payment): CheckoutPage {
  const body = (
    <>
      <h1>{say('en', 'checkout.closed.heading')}</h1>
      <p>{say('en', 'checkout.closed.body', { reference: payment.reference, status: payment.status })}</p>
    </>
  );
  return { status: 200, html: htmlPage(text('en', 'checkout.closed.title'), body) };
}

/** A form sent without a valid CSRF cookie and token. */
export function checkoutExpiredPage(): CheckoutPage {
  const body = (
    <>
      <h1>{say('en', 'checkout.expired.heading')}</h1>
      <p>{say('en', 'checkout.expired.body')}</p>
    </>
  );
  return { status: 403, html: htmlPage(text('en', 'checkout.expired.title'), body) };
}

/** The checkout itself: the amount, what it pays for, and the Pay and Decline buttons of a plain HTML form. */
export function checkoutFormPage(payment: Payment, csrfToken: string): CheckoutPage {
  const amount = formatKes(payment.amount);
  const what =
    payment.purpose === 'wallet_topup'
      ? say('en', 'checkout.sandbox.walletTopup')
      : say('en', 'checkout.sandbox.subscription', {
          plan: payment.plan,
          seats: payment.seats,
          cycle: payment.billingCycle === null ? null : text('en', `payment.cycle.${payment.billingCycle}`),
        });
  const title = text('en', 'checkout.sandbox.title');
  const body = (
    <>
      <h1>{title}</h1>
      <p class="note">{say('en', 'checkout.sandbox.note')}</p>
      <dl>
        <dt>{say('en', 'checkout.sandbox.amount')}</dt>
        <dd>{amount}</dd>
        <dt>{say('en', 'checkout.sandbox.for')}</dt>
        <dd>{what}</dd>
        <dt>{say('en', 'checkout.sandbox.reference')}</dt>
        <dd>{payment.reference}</dd>
        <dt>{say('en', 'checkout.sandbox.card')}</dt>
        <dd>{say('en', 'checkout.sandbox.cardName')}</dd>
      </dl>
      <form method="post" action={`${SANDBOX_CHECKOUT_PATH}/${encodeURIComponent(payment.reference)}`}>
        <input type="hidden" name={CSRF_FIELD} value={csrfToken} />
        <div class="actions">
          <button type="submit" name="action" value="pay" class="primary">
            {say('en', 'checkout.sandbox.pay', { amount })}
          </button>
          <button type="submit" name="action" value="decline">
            {say('en', 'checkout.sandbox.decline')}
          </button>
        </div>
      </form>
    </>
  );
  return { status: 200, html: htmlPage(title, body) };
}
