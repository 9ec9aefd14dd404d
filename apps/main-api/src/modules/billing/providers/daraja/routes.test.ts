import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_DARAJA, fakeDarajaEnv } from '../../../../../test/fake-daraja.js';
import { createTestApp, type TestApp } from '../../../../../test/helpers.js';
import { MPESA_CALLBACK_PATH } from './routes.js';

// The M-Pesa callback URL is its secret: no log line may carry it, not even the error line of a request
// that failed.

const lines: Array<Record<string, unknown>> = [];
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    // Daraja is never called here: only its callback route is used.
    env: fakeDarajaEnv('http://127.0.0.1:9'),
    deps: {
      logger: pino(
        { level: 'info' },
        { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
      ),
    },
    // The answer to the callback fails after it is sent (as a broken connection would): the request errors.
    setup: (app) =>
      app.addHook('onResponse', async (request) => {
        if (request.routeOptions.url?.startsWith(MPESA_CALLBACK_PATH) === true)
          throw new Error('the answer could not be finished');
      }),
  });
});
afterAll(async () => {
  await t?.close();
});

describe('the M-Pesa callback in the logs', () => {
  it("names the route's pattern on the error line of a failed callback, never the token", async () => {
    const body = {
      Body: {
        stkCallback: {
          MerchantRequestID: 'm-1',
          CheckoutRequestID: 'ws_CO_logged_1',
          ResultCode: 1032,
          ResultDesc: 'Request cancelled by user',
        },
      },
    };
    const response = await t.app.inject({
      method: 'POST',
      url: `${MPESA_CALLBACK_PATH}/${FAKE_DARAJA.callbackToken}`,
      payload: body,
    });
    expect(response.statusCode).toBe(200);
    const invalid = await t.app.inject({
      method: 'POST',
      url: `${MPESA_CALLBACK_PATH}/${FAKE_DARAJA.callbackToken}`,
      payload: { not: 'a callback' },
    });
    expect(invalid.statusCode).toBe(400);

    const errored = lines.filter((line) => line['msg'] === 'request errored');
    expect(errored).toHaveLength(2);
    for (const line of errored)
      expect(line).toMatchObject({ level: 50, method: 'POST', url: `${MPESA_CALLBACK_PATH}/:token` });
    expect(JSON.stringify(lines)).not.toContain(FAKE_DARAJA.callbackToken);
  });
});
