import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SuccessOnly, toStorableText } from '@platform/http';
import { ref } from '../../../../shared/schema-ref.js';
import type { SettlementContext } from '../../payments/index.js';
import { processPaystackEvent } from './service.js';
import { isValidPaystackSignature } from './signature.js';

export interface PaystackWebhookOptions {
  ctx: SettlementContext;
  secretKey: string;
  /** Largest webhook body accepted. */
  bodyLimit: number;
}

export const PAYSTACK_WEBHOOK_PATH = '/v1/billing/webhooks/paystack';

/**
 * Paystack's webhook. The signature (`x-paystack-signature`, HMAC-SHA512 of the raw body with the secret
 * key) is checked on the exact bytes received, so this scope reads bodies as raw buffers. Every answer
 * that is not a server failure is the same 200, whether the event was processed, a duplicate, about an
 * unknown payment, or forged: a sender learns nothing from it. A server failure answers 500 and Paystack
 * retries.
 */
export const paystackWebhookRoutes: FastifyPluginAsyncTypebox<PaystackWebhookOptions> = async (app, options) => {
  const { ctx, secretKey } = options;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: options.bodyLimit }, (_request, body, done) =>
    done(null, body),
  );

  app.post(
    PAYSTACK_WEBHOOK_PATH,
    {
      // Not rate limited: Paystack sends bursts from a few addresses, and every call is signed.
      config: { public: true, rateLimit: false, sentByProvider: true },
      schema: {
        tags: ['billing-webhooks'],
        summary: 'Paystack webhook',
        description: 'Called by Paystack. Signed with HMAC-SHA512 of the raw body (x-paystack-signature).',
        response: { 200: ref(SuccessOnly) },
      },
    },
    async (request) => {
      const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      if (!isValidPaystackSignature(rawBody, request.headers['x-paystack-signature'], secretKey)) {
        request.log.warn('Ignored a Paystack webhook whose signature does not match');
        return { success: true as const };
      }
      const result = await processPaystackEvent(ctx, 'paystack', parseJson(rawBody), 'paystack_webhook');
      if (result === undefined) request.log.warn('Ignored a signed Paystack webhook that is not a readable event');
      return { success: true as const };
    },
  );
};

/** The event as sent, with any text PostgreSQL cannot store (U+0000, lone surrogates) replaced by U+FFFD. */
function parseJson(raw: Buffer): unknown {
  try {
    return toStorableText(JSON.parse(raw.toString('utf8')));
  } catch {
    return undefined;
  }
}
