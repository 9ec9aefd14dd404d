import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { returnUrlFor, type SettlementContext } from '../../payments/index.js';
import { SANDBOX_CHECKOUT_PATH } from './card.js';
import { CSRF_COOKIE, CSRF_FIELD, cookieValue, createCsrfGuard, csrfCookie } from './csrf.js';
import {
  type CheckoutPage,
  checkoutClosedPage,
  checkoutExpiredPage,
  checkoutFormPage,
  checkoutNotFoundPage,
} from './page.js';
import { completeSandboxCheckout, findSandboxCheckout } from './service.js';

export interface SandboxCheckoutOptions {
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
 * form, CSRF-protected). Paying or declining settles the payment as Paystack's webhook would (service.ts);
 * either way the browser then goes to the return URL, as after Paystack's checkout. Registered only when no
 * card provider is configured.
 */
export const sandboxCheckoutRoutes: FastifyPluginAsyncTypebox<SandboxCheckoutOptions> = async (app, options) => {
  const { ctx } = options;
  const csrf = createCsrfGuard(options.formSecret === undefined ? undefined : Buffer.from(options.formSecret, 'utf8'));
  const secureCookie = options.publicUrl.startsWith('https:');
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

  const sendPage = (reply: FastifyReply, page: CheckoutPage) =>
    reply
      .code(page.status)
      .header('content-security-policy', contentSecurityPolicy)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(page.html);

  app.get(
    `${SANDBOX_CHECKOUT_PATH}/:reference`,
    {
      config: { public: true },
      schema: { tags: ['billing-sandbox'], summary: 'Sandbox card checkout page', params: ReferenceParams },
    },
    async (request, reply) => {
      const payment = await findSandboxCheckout(ctx.db, request.params.reference);
      if (payment === undefined) return sendPage(reply, checkoutNotFoundPage());
      if (payment.status !== 'pending') return sendPage(reply, checkoutClosedPage(payment));
      const { nonce, token } = csrf.issue(payment.reference);
      reply.header('set-cookie', csrfCookie(nonce, { path: SANDBOX_CHECKOUT_PATH, secure: secureCookie }));
      return sendPage(reply, checkoutFormPage(payment, token));
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
        return sendPage(reply, checkoutExpiredPage());
      }
      const payment = await findSandboxCheckout(ctx.db, reference);
      if (payment === undefined) return sendPage(reply, checkoutNotFoundPage());
      await completeSandboxCheckout(ctx, payment, request.body.action);
      return reply.code(303).header('location', returnUrlFor(options.returnUrl, payment.reference)).send();
    },
  );
};
