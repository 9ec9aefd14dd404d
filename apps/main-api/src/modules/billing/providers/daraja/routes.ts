import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sendRouteNotFound, validationError } from '@platform/errors';
import { toStorableText } from '@platform/http';
import { Type } from '@sinclair/typebox';
import type { SettlementContext } from '../../payments/index.js';
import { processStkCallback } from './service.js';

export interface MpesaCallbackOptions {
  ctx: SettlementContext;
  /** The secret last segment of the callback URL. */
  callbackToken: string;
}

export const MPESA_CALLBACK_PATH = '/v1/billing/webhooks/mpesa';

/** Daraja's expected acknowledgement of a callback. */
const ACCEPTED = { ResultCode: 0, ResultDesc: 'Accepted' };

/** Compares tokens in constant time, whatever their lengths. */
function sameToken(received: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(received), digest(expected));
}

/**
 * The CallBackURL of M-Pesa Express: `/v1/billing/webhooks/mpesa/<token>`. Daraja does not sign callbacks,
 * so the URL carries a secret token. A wrong token gets exactly the 404 of a route that does not exist and
 * changes nothing.
 */
export const mpesaCallbackRoutes: FastifyPluginAsyncTypebox<MpesaCallbackOptions> = async (
  app,
  { ctx, callbackToken },
) => {
  app.post(
    `${MPESA_CALLBACK_PATH}/:token`,
    {
      // The URL holds the secret token: this route's log lines name its pattern, never the URL, and its
      // request lines (info level) stay out of the logs altogether.
      // Not rate limited: Safaricom sends bursts of callbacks from a few addresses.
      config: { public: true, urlCarriesSecret: true, rateLimit: false, sentByProvider: true },
      logLevel: 'warn',
      schema: {
        tags: ['billing-webhooks'],
        summary: 'M-Pesa Express result callback',
        description: 'Called by Safaricom Daraja with the result of an STK push. The last path segment is a secret.',
        params: Type.Object({ token: Type.String() }),
        response: {
          200: Type.Object({ ResultCode: Type.Integer(), ResultDesc: Type.String() }, { additionalProperties: false }),
        },
      },
    },
    async (request, reply) => {
      if (!sameToken(request.params.token, callbackToken)) {
        request.log.warn('Ignored an M-Pesa callback without the right token');
        return sendRouteNotFound(request, reply);
      }
      // Text PostgreSQL cannot store becomes U+FFFD: the result is recorded, never bounced (route config).
      const result = await processStkCallback(ctx, 'daraja', toStorableText(request.body), 'daraja_callback');
      if (result === undefined) {
        throw validationError('body must be an M-Pesa Express callback ({Body: {stkCallback: {...}}})');
      }
      return ACCEPTED;
    },
  );
};
