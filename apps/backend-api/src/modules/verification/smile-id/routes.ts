import { errorResponses } from '@platform/http';
import fp from 'fastify-plugin';
import type { SmileIdDecisions } from './decision-source.js';
import type { SmileIdJobs } from './schedule.js';
import { SmileIdCallbackBody, SmileIdCallbackResponse } from './schemas.js';
import { receiveCallback } from './service.js';
import { SMILE_ID_CALLBACK_PATH } from './settings.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The Smile ID job loop of this instance, when Smile ID is configured; tests call `runNow()` with a moved clock. */
    smileIdJobs?: SmileIdJobs;
  }
}

/** Callbacks may carry Smile ID's whole result, images included. */
const CALLBACK_BODY_LIMIT = 10 * 1024 * 1024;

/**
 * Smile ID's result callback (docs/decisions.md#automated-decisions) and the job loop, started when the app is ready
 * and stopped when it closes. The callback is public (Smile ID has no API key of ours), never rate limited (results
 * come in bursts from a few addresses) and trusted only once its signature is checked: a bad one is a 401 and
 * nothing changes. Any signed callback is a 200, applied or not, so Smile ID stops sending it; a server failure is a
 * 5xx and Smile ID tries again. The body is never logged.
 */
export const smileIdRoutes = fp<{ decisions: SmileIdDecisions }>(
  async (app, { decisions }) => {
    app.post(
      SMILE_ID_CALLBACK_PATH,
      {
        bodyLimit: CALLBACK_BODY_LIMIT,
        // No idempotency key: Smile ID sends none, and a result is applied once by its job id anyway.
        config: { public: true, rateLimit: false, sentByProvider: true, idempotency: 'none' },
        schema: {
          tags: ['providers'],
          summary: 'Smile ID result callback',
          description:
            "Called by Smile ID with a job's result. Checked before anything else: `signature` must be Smile ID's " +
            'signature of `timestamp` (HMAC-SHA256 under the API key), else 401 and nothing changes. A result is ' +
            'applied once (a repeated or late callback changes nothing) and answered 200.',
          body: SmileIdCallbackBody,
          response: { 200: SmileIdCallbackResponse, ...errorResponses(400, 401, 413) },
        },
      },
      async (request) => {
        await receiveCallback(decisions.context, request.body);
        return { success: true as const };
      },
    );

    let jobs: SmileIdJobs | undefined;
    app.decorate('smileIdJobs', undefined);
    app.addHook('onReady', async () => {
      jobs = decisions.start();
      app.smileIdJobs = jobs;
    });
    app.addHook('onClose', async () => {
      await jobs?.stop();
    });
  },
  { name: 'smile-id-decisions' },
);
