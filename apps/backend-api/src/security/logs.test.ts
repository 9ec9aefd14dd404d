import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { webhookEndpoints } from '@platform/db/schema';
import { captureLogs, secretsIn } from '@platform/http/testing';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, replaceOrganizations, type TestOrganization, useTestDatabase } from '../../test/app-fixtures.js';
import { fundWallet } from '../../test/verification-fixtures.js';
import type { BackendApp } from '../app.js';
import { formTokenFor } from '../modules/verification/hosted-page/form-token.js';

// No secret in any log line: backend-api answers a mix of requests (the hosted verification page among them,
// whose URL is a session's only credential) and delivers a callback, while every line it writes, at every
// level, is kept; then none of the secrets it saw may be in them.

const HOSTED_PAGE_SECRET = 'a-hosted-page-secret-for-the-log-test-0123456789';
const VERIFY_URL = 'https://verify.example.test';
const logs = captureLogs();
const database = useTestDatabase();
const secrets: Record<string, string> = { 'the hosted page secret': HOSTED_PAGE_SECRET };
let app: BackendApp;
let acme: TestOrganization;
let receiver: Server;
let receiverUrl: string;

beforeAll(async () => {
  // A customer's callback endpoint that fails, so the delivery is retried.
  receiver = createServer((_request, response) => response.writeHead(500).end());
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  app = await buildTestApp(database.handle, {
    logger: logs.logger,
    env: { HOSTED_PAGE_SECRET, VERIFY_URL, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
    // A forced server error whose message repeats what the request carried, as some libraries' errors do.
    setup: (built) =>
      built.addHook('onRequest', async (request) => {
        if (request.headers['x-test-fault'] === undefined) return;
        throw new Error(
          `could not handle ${request.method} ${request.url} (key: ${String(request.headers['x-service-api-key'])})`,
        );
      }),
  });
  [acme] = await replaceOrganizations(database.db, 'Acme');
  await fundWallet(database.db, acme.id, 'test', 1_000);
  secrets['the live API key'] = acme.liveKey;
  secrets['the test API key'] = acme.testKey;
});
afterAll(async () => {
  await app?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

const statusOf = async (options: InjectOptions) => (await app.inject(options)).statusCode;

describe('backend-api logs', () => {
  it('carry no API key, hosted page URL, form token or signing secret, whatever the requests', async () => {
    const key = { 'x-service-api-key': acme.testKey };
    expect(await statusOf({ method: 'GET', url: '/v1/wallet', headers: { 'x-service-api-key': acme.liveKey } })).toBe(
      200,
    );
    const unknownKey = 'sk_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    secrets['an unknown API key'] = unknownKey;
    expect(await statusOf({ method: 'GET', url: '/v1/wallet', headers: { 'x-service-api-key': unknownKey } })).toBe(
      401,
    );
    expect(await statusOf({ method: 'GET', url: '/v1/wallet' })).toBe(401);
    expect(await statusOf({ method: 'DELETE', url: '/v1/wallet', headers: key })).toBe(404);
    expect(
      await statusOf({ method: 'POST', url: '/v1/verify/sessions', headers: key, payload: { type: 'nope' } }),
    ).toBe(400);

    // One session is only ever seen through the API, the other only through its hosted page.
    const callbackUrl = `${receiverUrl}/hooks/customer-path-secret-71c4?key=customer-query-secret-90ad`;
    secrets["the customer's callback path secret"] = 'customer-path-secret-71c4';
    secrets["the customer's callback query secret"] = 'customer-query-secret-90ad';
    const created = await app.inject({
      method: 'POST',
      url: '/v1/verify/sessions',
      headers: key,
      payload: { type: 'kyc', externalEndUserId: 'api-user' },
    });
    expect(created.statusCode).toBe(201);
    const apiSession = created.json().data.sessionId as string;
    // Its id is its hosted page's credential too.
    secrets["an API session's id"] = apiSession;
    expect(await statusOf({ method: 'GET', url: `/v1/verify/sessions/${apiSession}`, headers: key })).toBe(200);
    await app.inject({
      method: 'POST',
      url: '/v1/verify/sessions',
      headers: key,
      payload: { type: 'kyc', externalEndUserId: 'api-user-2' },
    });
    const firstPage = await app.inject({ method: 'GET', url: '/v1/verify/sessions?limit=1', headers: key });
    const cursor = firstPage.json().data.nextCursor as string;
    secrets['a list cursor (it holds a session id)'] = cursor;
    expect(
      await statusOf({
        method: 'GET',
        url: `/v1/verify/sessions?limit=1&cursor=${encodeURIComponent(cursor)}`,
        headers: key,
      }),
    ).toBe(200);
    expect(await statusOf({ method: 'POST', url: `/v1/verify/sessions/${apiSession}/cancel`, headers: key })).toBe(200);
    const hosted = await app.inject({
      method: 'POST',
      url: '/v1/verify/sessions',
      headers: key,
      payload: { type: 'kyc', externalEndUserId: 'page-user', callbackUrl },
    });
    expect(hosted.statusCode).toBe(201);
    const { sessionId, verificationUrl } = hosted.json().data as { sessionId: string; verificationUrl: string };
    expect(verificationUrl).toBe(`${VERIFY_URL}/session/${sessionId}`);
    const token = formTokenFor(HOSTED_PAGE_SECRET, sessionId);
    Object.assign(secrets, {
      'the verification URL': verificationUrl,
      'the hosted page path': `/session/${sessionId}`,
      "the hosted page's session id": sessionId,
      'the form token': token,
    });

    // The hosted page: its page and form, then its URL as it may arrive by mistake.
    const page = `/session/${sessionId}`;
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    expect(await statusOf({ method: 'GET', url: page })).toBe(200);
    expect(await statusOf({ method: 'HEAD', url: page })).toBe(200);
    expect(await statusOf({ method: 'GET', url: `${page}?notice=submitted` })).toBe(200);
    expect(await statusOf({ method: 'POST', url: page, headers: form, payload: `token=${token}&action=dance` })).toBe(
      400,
    );
    expect(await statusOf({ method: 'POST', url: page, headers: form, payload: `token=${token}x&action=submit` })).toBe(
      303,
    );
    // Consent: the user agent is stored as evidence, never logged.
    const userAgent = 'ConsentEvidenceBrowser/7.1 (private-handset-4471)';
    secrets["the consenting person's user agent"] = userAgent;
    expect(
      await statusOf({
        method: 'POST',
        url: page,
        headers: { ...form, 'user-agent': userAgent },
        payload: `token=${token}&action=agree&lang=sw`,
      }),
    ).toBe(303);
    expect(await statusOf({ method: 'GET', url: `${page}?notice=consent_recorded&lang=sw` })).toBe(200);
    expect(await statusOf({ method: 'POST', url: page, headers: form, payload: `token=${token}&action=submit` })).toBe(
      303,
    );
    expect(await statusOf({ method: 'GET', url: '/session/00000000-0000-4000-8000-000000000000' })).toBe(404);
    const misdirected = [
      { method: 'DELETE', url: page },
      { method: 'GET', url: `${page}/` },
      { method: 'GET', url: `/SESSION/${sessionId}` },
      { method: 'GET', url: `//session//${sessionId}?notice=submitted` },
      { method: 'GET', url: `/session%2F${sessionId}` },
      { method: 'GET', url: `${page}/extra` },
    ] as const;
    for (const request of misdirected) {
      expect([request.method, request.url, await statusOf(request)]).toEqual([request.method, request.url, 404]);
    }
    expect(await statusOf({ method: 'GET', url: `${page}%E0%A4%A` })).toBe(400);
    expect(await statusOf({ method: 'GET', url: `${page}${'a'.repeat(100)}` })).toBe(414);

    // Forced server errors: on the page, on a look-alike of it, and on an API route (the key in the message).
    const fault = { 'x-test-fault': 'yes', 'x-service-api-key': acme.testKey };
    expect(await statusOf({ method: 'GET', url: page, headers: fault })).toBe(500);
    expect(await statusOf({ method: 'GET', url: `${page}/`, headers: fault })).toBe(500);
    expect(await statusOf({ method: 'GET', url: '/v1/wallet', headers: fault })).toBe(500);

    // The session's callback: signed with the organization's secret and refused by the customer (retried).
    const round = await app.webhookDelivery.runOnce();
    expect(round.retrying).toBeGreaterThan(0);
    for (const endpoint of await database.db.select({ secret: webhookEndpoints.secret }).from(webhookEndpoints)) {
      secrets[`a signing secret (${endpoint.secret.slice(0, 8)})`] = endpoint.secret;
    }

    expect(secretsIn(logs.text(), secrets)).toEqual([]);

    // Nothing useful was dropped: ordinary URLs are logged as requested; the page's by its pattern.
    const requestLines = logs.lines.filter(
      (line) => line['msg'] === 'request completed' || line['msg'] === 'request errored',
    );
    const logged = requestLines.map(
      (line) => `${String(line['method'])} ${String(line['url'])} ${String(line['statusCode'])}`,
    );
    expect(logged).toEqual(
      expect.arrayContaining([
        'GET /v1/wallet 200',
        'GET /v1/wallet 401',
        'DELETE /v1/wallet 404',
        'GET /v1/verify/sessions/:id 200',
        'GET /v1/verify/sessions 200',
        'POST /v1/verify/sessions/:id/cancel 200',
        'GET /session/:id 200',
        'HEAD /session/:id 200',
        'POST /session/:id 400',
        'POST /session/:id 303',
        'GET /session/:id 404',
        'DELETE /session/:id 404',
        'GET /session/:id 500',
      ]),
    );
    // The unknown session's page, and each look-alike GET.
    expect(logged.filter((line) => line === 'GET /session/:id 404')).toHaveLength(
      1 + misdirected.filter((request) => request.method === 'GET' && !request.url.endsWith('/extra')).length,
    );
    // A path one segment longer looks most like the capture form's upload route, and is named by it.
    expect(logged).toContain('GET /session/:id/documents 404');
    const faults = logs.lines.filter((line) => line['msg'] === 'request failed with a server error');
    expect(faults.map((line) => (line['err'] as { message: string }).message)).toEqual([
      'could not handle GET /session/:id (key: sk_test_[redacted])',
      'could not handle GET /session/:id (key: sk_test_[redacted])',
      'could not handle GET /v1/wallet (key: sk_test_[redacted])',
    ]);
  });
});
