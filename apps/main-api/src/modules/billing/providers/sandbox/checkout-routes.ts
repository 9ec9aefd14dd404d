import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Database, Payment } from '@platform/db';
import { users } from '@platform/db/schema';
import { escapeHtml } from '@platform/http';
import { formatKes } from '@platform/pricing';
import { Type } from '@sinclair/typebox';
import { eq } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import { htmlPage } from '../../html.js';
import type { SettlementContext } from '../../payments/index.js';
import { isPaymentReference } from '../../payments/reference.js';
import { findPayment } from '../../payments/repository.js';
import { returnUrlFor } from '../../payments/return-url.js';
import { applyPaystackTransaction, processPaystackEvent } from '../paystack/service.js';
import { SANDBOX_CHECKOUT_PATH } from './card.js';
import { sandboxCardTransaction } from './card-transactions.js';
import { CSRF_COOKIE, CSRF_FIELD, cookieValue, createCsrfGuard } from './csrf.js';

export interface SandboxCheckoutOptions {
  db: Database;
  ctx: SettlementContext;
  publicUrl: string;
  /** Where the browser goes afterwards (`?reference=` is added). */
  returnUrl: string;
  /** Signs the form tokens; the same on every instance behind one address. Unset: random per process. */
  formSecret?: string;
}

const ReferenceParams = Type.Object({ reference: Type.String({ maxLength: 64 }) });
const CheckoutForm = Type.Object({
  action: Type.Union([Type.Literal('pay'), Type.Literal('decline')]),
  [CSRF_FIELD]: Type.String({ maxLength: 200 }),
});

/**
 * The sandbox's hosted card checkout: a page showing the amount with Pay and Decline buttons (a plain HTML
 * form, CSRF-protected). Paying produces a Paystack-shaped `charge.success` event for the same handler as
 * Paystack's webhook; declining, a failed Paystack transaction. Either way the browser then goes to the
 * return URL, as after Paystack's checkout. Registered only when no card provider is configured.
 */
export const sandboxCheckoutRoutes: FastifyPluginAsyncTypebox<SandboxCheckoutOptions> = async (app, options) => {
  const { db, ctx } = options;
  const csrf = createCsrfGuard(options.formSecret === undefined ? undefined : Buffer.from(options.formSecret, 'utf8'));
  const secureCookie = options.publicUrl.startsWith('https:') ? '; Secure' : '';
  const contentSecurityPolicy = [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    `form-action 'self' ${new URL(options.returnUrl).origin}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');

  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body.toString()))),
  );

  const sendPage = (reply: FastifyReply, status: number, title: string, body: string) =>
    reply
      .code(status)
      .header('content-security-policy', contentSecurityPolicy)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(htmlPage(title, body));

  const findCheckout = async (reference: string) => {
    // Anything but a PAY- reference (a NUL byte, say) is no checkout, and never reaches the database.
    if (!isPaymentReference(reference)) return undefined;
    const payment = await findPayment(db, { reference, provider: 'sandbox' });
    return payment?.channel === 'card' && payment.method === 'card' ? payment : undefined;
  };

  app.get(
    `${SANDBOX_CHECKOUT_PATH}/:reference`,
    {
      config: { public: true },
      schema: { tags: ['billing-sandbox'], summary: 'Sandbox card checkout page', params: ReferenceParams },
    },
    async (request, reply) => {
      const payment = await findCheckout(request.params.reference);
      if (payment === undefined) {
        return sendPage(
          reply,
          404,
          'Checkout not found',
          '<h1>Checkout not found</h1><p>Check the link and try again.</p>',
        );
      }
      if (payment.status !== 'pending') {
        return sendPage(
          reply,
          200,
          'Checkout closed',
          `<h1>This checkout is closed</h1><p>The payment ${escapeHtml(payment.reference)} is ${escapeHtml(payment.status)}.</p>`,
        );
      }
      const { nonce, token } = csrf.issue(payment.reference);
      reply.header(
        'set-cookie',
        `${CSRF_COOKIE}=${nonce}; Path=${SANDBOX_CHECKOUT_PATH}; HttpOnly; SameSite=Strict; Max-Age=3600${secureCookie}`,
      );
      return sendPage(reply, 200, 'Sandbox checkout', checkoutForm(payment, token));
    },
  );

  app.post(
    `${SANDBOX_CHECKOUT_PATH}/:reference`,
    {
      config: { public: true },
      schema: {
        tags: ['billing-sandbox'],
        summary: 'Pay or decline a sandbox card checkout',
        params: ReferenceParams,
        body: CheckoutForm,
      },
    },
    async (request, reply) => {
      const { reference } = request.params;
      if (!csrf.verify(reference, cookieValue(request.headers.cookie, CSRF_COOKIE), request.body[CSRF_FIELD])) {
        const body = '<h1>This page has expired</h1><p>Go back, reload the checkout and try again.</p>';
        return sendPage(reply, 403, 'Checkout expired', body);
      }
      const payment = await findCheckout(reference);
      if (payment === undefined) {
        return sendPage(
          reply,
          404,
          'Checkout not found',
          '<h1>Checkout not found</h1><p>Check the link and try again.</p>',
        );
      }
      if (payment.status === 'pending') await complete(payment, request.body.action);
      return reply.code(303).header('location', returnUrlFor(options.returnUrl, payment.reference)).send();
    },
  );

  async function complete(payment: Payment, action: 'pay' | 'decline'): Promise<void> {
    const email = await emailOf(payment);
    const at = ctx.now();
    const base = { reference: payment.reference, amount: payment.amount, email, at };
    if (action === 'pay') {
      const data = sandboxCardTransaction({ ...base, status: 'success', gatewayResponse: 'Approved' });
      await processPaystackEvent(ctx, 'sandbox', { event: 'charge.success', data }, 'sandbox_checkout');
    } else {
      const data = sandboxCardTransaction({
        ...base,
        status: 'failed',
        gatewayResponse: 'Declined in the sandbox checkout',
      });
      await applyPaystackTransaction(ctx, 'sandbox', data, 'sandbox_decline', 'sandbox_checkout', { data });
    }
  }

  async function emailOf(payment: Payment): Promise<string> {
    if (payment.userId === null) return 'payer@sandbox.invalid';
    const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, payment.userId));
    return user?.email ?? 'payer@sandbox.invalid';
  }
};

function checkoutForm(payment: Payment, csrfToken: string): string {
  const what =
    payment.purpose === 'wallet_topup'
      ? 'Wallet top-up'
      : `Mail subscription: ${payment.plan}, ${payment.seats} seats, ${payment.billingCycle}`;
  return `<h1>Sandbox checkout</h1>
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
}
