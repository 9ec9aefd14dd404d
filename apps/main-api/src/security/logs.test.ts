import { captureLogs, secretsIn } from '@platform/http/testing';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BillingTestApp, startBillingApp } from '../../test/billing-fixtures.js';
import { FAKE_DARAJA, type FakeDaraja, fakeDarajaEnv, startFakeDaraja } from '../../test/fake-daraja.js';
import { TEST_SECRET } from '../../test/helpers.js';
import { multipart, tinyPng } from '../../test/images.js';
import { MPESA_CALLBACK_PATH } from '../modules/billing/providers/daraja/routes.js';

// No secret in any log line: main-api (sandbox card checkout, Daraja for M-Pesa) answers a mix of requests
// while every line it writes, at every level, is kept; then none of the secrets it saw may be in them.

const logs = captureLogs();
const secrets: Record<string, string> = {
  'the JWT signing secret': TEST_SECRET,
  'the M-Pesa callback token': FAKE_DARAJA.callbackToken,
  'the Daraja consumer secret': FAKE_DARAJA.consumerSecret,
  'the Daraja passkey': FAKE_DARAJA.passkey,
};
const TOKEN = FAKE_DARAJA.callbackToken;
const CUSTOMER_URL = 'https://hooks.example.com/customer-path-secret-5d1e/cb?key=customer-query-secret-8b2c';
let t: BillingTestApp;
let daraja: FakeDaraja;
let bearer: Record<string, string>;

beforeAll(async () => {
  daraja = await startFakeDaraja();
  t = await startBillingApp({
    logger: logs.logger,
    env: { ...fakeDarajaEnv(daraja.url), PROVIDER_TIMEOUT_MS: '10000' },
    // A forced server error whose message repeats what the request carried, as some libraries' errors do.
    setup: (app) =>
      app.addHook('onRequest', async (request) => {
        if (request.headers['x-test-fault'] === undefined) return;
        throw new Error(
          `could not handle ${request.method} ${request.url} (authorization: ${request.headers.authorization ?? 'none'})`,
        );
      }),
  });
  bearer = await t.headers();
  secrets['the bearer token'] = bearer['authorization']!.slice('Bearer '.length);
});
afterAll(async () => {
  await t?.close();
  await daraja?.close();
});

const inject = (options: InjectOptions) => t.app.inject(options);
const statusOf = async (options: InjectOptions) => (await inject(options)).statusCode;

async function payByMpesa(): Promise<string> {
  const response = await inject({
    method: 'POST',
    url: '/v1/billing/pay',
    headers: bearer,
    payload: { method: 'mobile_money', amount: 700, phone: '0708374149' },
  });
  expect(response.statusCode).toBe(200);
  return daraja.lastPrompt().checkoutRequestId;
}

describe('main-api logs', () => {
  it('carry no token, key, signing secret, callback token or form token, whatever the requests', async () => {
    // Accounts: success, bad token, validation error, wrong method, unknown route.
    expect(await statusOf({ method: 'GET', url: '/v1/accounts/me', headers: bearer })).toBe(200);
    const forged = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyX3BheWVyIn0.forged-signature-3f9a2c';
    secrets['a forged bearer token'] = forged;
    expect(
      await statusOf({ method: 'GET', url: '/v1/accounts/me', headers: { authorization: `Bearer ${forged}` } }),
    ).toBe(401);
    expect(
      await statusOf({ method: 'PATCH', url: '/v1/accounts/me', headers: bearer, payload: { firstName: 42 } }),
    ).toBe(400);
    expect(await statusOf({ method: 'DELETE', url: '/v1/accounts/me', headers: bearer })).toBe(404);
    expect(await statusOf({ method: 'GET', url: '/v1/nothing/here', headers: bearer })).toBe(404);

    // An avatar upload: the multipart parser logs its options, request headers included, at trace level.
    const { payload, headers } = multipart([
      { field: 'file', filename: 'me.png', contentType: 'image/png', data: tinyPng() },
    ]);
    expect(
      await statusOf({ method: 'POST', url: '/v1/auth/avatar', headers: { ...headers, ...bearer }, payload }),
    ).toBe(201);

    // API key creation answers the secret once.
    const created = await inject({
      method: 'POST',
      url: '/v1/api-keys',
      headers: bearer,
      payload: { environment: 'live', name: 'Logs' },
    });
    expect(created.statusCode).toBe(201);
    secrets['the created API key'] = created.json().data.secret;

    // Webhook settings: a customer's URL with secrets of its own, the signing secret revealed, then rotated.
    const setUrl = await inject({
      method: 'PUT',
      url: '/v1/webhooks/endpoints/live',
      headers: bearer,
      payload: { defaultUrl: CUSTOMER_URL },
    });
    expect(setUrl.statusCode).toBe(200);
    secrets["the customer's callback path secret"] = 'customer-path-secret-5d1e';
    secrets["the customer's callback query secret"] = 'customer-query-secret-8b2c';
    const revealed = await inject({
      method: 'POST',
      url: '/v1/webhooks/endpoints/live/secret/reveal',
      headers: bearer,
    });
    expect(revealed.statusCode).toBe(200);
    secrets['the revealed signing secret'] = revealed.json().data.secret;
    expect(await statusOf({ method: 'POST', url: '/v1/webhooks/endpoints/live/secret/reveal', headers: bearer })).toBe(
      409,
    );
    const rotated = await inject({ method: 'POST', url: '/v1/webhooks/endpoints/live/secret/rotate', headers: bearer });
    expect(rotated.statusCode).toBe(200);
    secrets['the rotated signing secret'] = rotated.json().data.secret;

    // M-Pesa: a prompt, its callback at the secret URL, then the same URL as it arrives by mistake.
    const checkoutRequestId = await payByMpesa();
    daraja.answer(checkoutRequestId, 0);
    const callback = daraja.callbackBody(checkoutRequestId);
    expect(await statusOf({ method: 'POST', url: `${MPESA_CALLBACK_PATH}/${TOKEN}`, payload: callback })).toBe(200);
    expect(await statusOf({ method: 'POST', url: `${MPESA_CALLBACK_PATH}/${TOKEN}?retry=1`, payload: callback })).toBe(
      200,
    );
    expect(
      await statusOf({ method: 'POST', url: `${MPESA_CALLBACK_PATH}/${TOKEN}`, payload: { not: 'a callback' } }),
    ).toBe(400);
    expect(await statusOf({ method: 'POST', url: `${MPESA_CALLBACK_PATH}/not-the-token`, payload: callback })).toBe(
      404,
    );
    // The router decodes an escaped letter: this is the callback route itself.
    expect(await statusOf({ method: 'POST', url: `/v1/billing/webhooks/%6Dpesa/${TOKEN}`, payload: callback })).toBe(
      200,
    );
    const misdirected = [
      { method: 'GET', url: `${MPESA_CALLBACK_PATH}/${TOKEN}` },
      { method: 'HEAD', url: `${MPESA_CALLBACK_PATH}/${TOKEN}` },
      { method: 'PUT', url: `${MPESA_CALLBACK_PATH}/${TOKEN}` },
      { method: 'POST', url: `${MPESA_CALLBACK_PATH}/${TOKEN}/` },
      { method: 'POST', url: `${MPESA_CALLBACK_PATH.toUpperCase()}/${TOKEN}` },
      { method: 'POST', url: `/V1/Billing/Webhooks/Mpesa/${TOKEN}?from=daraja` },
      { method: 'POST', url: `//v1/billing//webhooks/mpesa//${TOKEN}` },
      { method: 'POST', url: `/v1/billing/webhooks%2Fmpesa/${TOKEN}` },
      { method: 'POST', url: `${MPESA_CALLBACK_PATH}/${TOKEN}/extra` },
    ] as const;
    for (const request of misdirected) {
      const payload = request.method === 'GET' || request.method === 'HEAD' ? undefined : callback;
      expect([request.method, request.url, await statusOf({ ...request, payload })]).toEqual([
        request.method,
        request.url,
        404,
      ]);
    }
    // Framework errors on the secret route: a malformed escape in the token, a token over the length limit.
    expect(await statusOf({ method: 'POST', url: `${MPESA_CALLBACK_PATH}/${TOKEN}%E0%A4%A`, payload: callback })).toBe(
      400,
    );
    expect(
      await statusOf({ method: 'POST', url: `${MPESA_CALLBACK_PATH}/${TOKEN}${'x'.repeat(100)}`, payload: callback }),
    ).toBe(414);

    // Forced server errors, on the callback URL, on a look-alike of it and on an ordinary route.
    const fault = { 'x-test-fault': 'yes', authorization: bearer['authorization']! };
    expect(
      await statusOf({ method: 'POST', url: `${MPESA_CALLBACK_PATH}/${TOKEN}`, headers: fault, payload: callback }),
    ).toBe(500);
    expect(await statusOf({ method: 'GET', url: `${MPESA_CALLBACK_PATH}/${TOKEN}/`, headers: fault })).toBe(500);
    expect(await statusOf({ method: 'GET', url: '/v1/accounts/me', headers: fault })).toBe(500);

    // Daraja failing: the provider error is logged; its credentials and tokens are not.
    daraja.behaviour('server_error');
    const failed = await inject({
      method: 'POST',
      url: '/v1/billing/pay',
      headers: bearer,
      payload: { method: 'mobile_money', amount: 700, phone: '0708374149' },
    });
    expect(failed.statusCode).toBe(503);
    daraja.behaviour('normal');
    for (const [index, token] of daraja.tokensIssued.entries()) secrets[`Daraja access token ${index + 1}`] = token;
    for (const [index, body] of daraja.pushBodies.entries())
      secrets[`Daraja STK password ${index + 1}`] = String(body['Password']);
    expect(daraja.tokensIssued.length).toBeGreaterThan(0);

    // The sandbox card checkout: its page (CSRF cookie and form token) and the form posted back.
    const started = await inject({
      method: 'POST',
      url: '/v1/billing/pay',
      headers: bearer,
      payload: { method: 'card', amount: 500 },
    });
    expect(started.statusCode).toBe(200);
    const { reference, checkoutUrl } = started.json() as { reference: string; checkoutUrl: string };
    const checkoutPath = new URL(checkoutUrl).pathname;
    const page = await inject({ method: 'GET', url: checkoutPath });
    expect(page.statusCode).toBe(200);
    const formToken = /name="csrf" value="([^"]+)"/.exec(page.body)![1]!;
    const cookie = String(page.headers['set-cookie']).split(';')[0]!;
    secrets['the checkout form token'] = formToken;
    secrets['the checkout CSRF cookie'] = cookie.split('=')[1]!;
    const form = { 'content-type': 'application/x-www-form-urlencoded', cookie };
    expect(
      await statusOf({
        method: 'POST',
        url: checkoutPath,
        headers: form,
        payload: `csrf=${formToken}&action=nonsense`,
      }),
    ).toBe(400);
    expect(
      await statusOf({ method: 'POST', url: checkoutPath, headers: form, payload: `csrf=${formToken}&action=pay` }),
    ).toBe(303);
    expect(await statusOf({ method: 'GET', url: `/v1/billing/checkout/complete?reference=${reference}` })).toBe(200);

    const text = logs.text();
    expect(secretsIn(text, secrets)).toEqual([]);

    // Nothing useful was dropped: ordinary URLs are logged as requested; secret ones by their pattern.
    const requestLines = logs.lines.filter(
      (line) => line['msg'] === 'request completed' || line['msg'] === 'request errored',
    );
    const logged = requestLines.map(
      (line) => `${String(line['method'])} ${String(line['url'])} ${String(line['statusCode'])}`,
    );
    expect(logged).toEqual(
      expect.arrayContaining([
        'GET /v1/accounts/me 200',
        'DELETE /v1/accounts/me 404',
        'GET /v1/nothing/here 404',
        'POST /v1/webhooks/endpoints/live/secret/rotate 200',
        `GET ${checkoutPath} 200`,
        `GET /v1/billing/checkout/complete?reference=${reference} 200`,
        `GET ${MPESA_CALLBACK_PATH}/:token 404`,
        `PUT ${MPESA_CALLBACK_PATH}/:token 404`,
        `POST ${MPESA_CALLBACK_PATH}/:token 404`,
        `GET ${MPESA_CALLBACK_PATH}/:token 500`,
      ]),
    );
    // Every look-alike POST got its line (the callback route itself logs at warn: its own answers do not).
    expect(logged.filter((line) => line.startsWith(`POST ${MPESA_CALLBACK_PATH}/:token 404`))).toHaveLength(
      misdirected.length - 3,
    );
    // The server errors are logged with their cause.
    const faults = logs.lines.filter((line) => line['msg'] === 'request failed with a server error');
    expect(faults.map((line) => (line['err'] as { message: string }).message)).toEqual([
      `could not handle POST ${MPESA_CALLBACK_PATH}/:token (authorization: Bearer [redacted])`,
      `could not handle GET ${MPESA_CALLBACK_PATH}/:token (authorization: Bearer [redacted])`,
      'could not handle GET /v1/accounts/me (authorization: Bearer [redacted])',
      expect.stringContaining('daraja'),
    ]);
  });
});
