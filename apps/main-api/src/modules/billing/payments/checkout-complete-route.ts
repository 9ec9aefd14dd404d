import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Database, PaymentStatus } from '@platform/db';
import { escapeHtml } from '@platform/http';
import { Type } from '@sinclair/typebox';
import { htmlPage } from '../html.js';
import { isPaymentReference } from './reference.js';
import { findPayment } from './repository.js';

const CHECKOUT_COMPLETE_PATH = '/v1/billing/checkout/complete';

const HEADLINES: Record<PaymentStatus, string> = {
  pending: 'Payment being confirmed',
  succeeded: 'Payment successful',
  failed: 'Payment failed',
  cancelled: 'Payment cancelled',
  expired: 'Payment expired',
};

const EXPLANATIONS: Record<PaymentStatus, string> = {
  pending:
    'We are waiting for the card provider to confirm it. You can close this window; the app will show the result.',
  succeeded: 'Thank you. You can close this window and return to the app.',
  failed: 'The card was not charged. Return to the app to try again.',
  cancelled: 'Nothing was charged. Return to the app to try again.',
  expired: 'The checkout timed out. Return to the app to try again.',
};

/**
 * The page the payer's browser lands on after the hosted card checkout, when no PAYMENT_RETURN_URL of the
 * customer's own app is configured. It shows only the outcome, never amounts or account details.
 */
export const checkoutCompleteRoute: FastifyPluginAsyncTypebox<{ db: Database }> = async (app, { db }) => {
  app.get(
    CHECKOUT_COMPLETE_PATH,
    {
      config: { public: true },
      schema: {
        tags: ['billing'],
        summary: 'Page shown after the hosted card checkout',
        querystring: Type.Object({
          reference: Type.Optional(Type.String({ maxLength: 64 })),
          trxref: Type.Optional(Type.String({ maxLength: 64 })),
        }),
      },
    },
    async (request, reply) => {
      const reference = request.query.reference ?? request.query.trxref ?? '';
      const payment = isPaymentReference(reference) ? await findPayment(db, { reference }) : undefined;
      const title = payment === undefined ? 'Payment not found' : HEADLINES[payment.status];
      const text = payment === undefined ? 'Check the link and try again.' : EXPLANATIONS[payment.status];
      return reply
        .code(payment === undefined ? 404 : 200)
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(htmlPage(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>`));
    },
  );
};
