import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebhookDelivery } from '@platform/webhooks';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { policyViolationsOf } from '#test-browser';
import { chromiumBrowser, missing } from '#test-prerequisites';
import {
  type DashboardPlatform,
  freshPage,
  pageChecker,
  SIZES,
  signUp,
  startDashboardPlatform,
} from './dashboard-browser.js';
import { organizationWithTestSession } from './database.js';

// A developer sets up an integration from the dashboard's Developers pages in a browser
// (docs/decisions.md#dashboard-pages): a test key whose secret is shown once, the webhook endpoint set to the test's
// own HTTP server, which fails the first try and answers 200 after, a test event followed through the delivery log,
// a redelivery with the same webhook-id, the key's first call (a test session through backend-api, seen on
// Verifications), and an allowed origin, in Kiswahili. The delivery worker backend-api runs is
// run here, on a clock of the test's own, so each try is made when the journey says. Each page checked with axe-core
// at a phone's size and a desktop's, and photographed (SCREENSHOT_DIR, /tmp/shots-developers).

const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/shots-developers';

interface Receiver {
  url: string;
  /** The `webhook-id` of every callback received, in order. */
  ids: string[];
  /** The events whose next callback is answered 503 (then 200): this journey's own, not another's. */
  failOnce: Set<string>;
  server: Server;
}

async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = { url: '', ids: [], failOnce: new Set(), server: createServer() };
  receiver.server.on('request', (request, response) => {
    request.resume();
    request.on('end', () => {
      const id = String((request.headers as IncomingHttpHeaders)['webhook-id']);
      receiver.ids.push(id);
      if (receiver.failOnce.delete(id)) {
        response.writeHead(503, { 'content-type': 'text/plain' }).end('Down for maintenance, token=abc123secret');
      } else {
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
      }
    });
  });
  await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}/hooks`;
  return receiver;
}

describe.skipIf(missing(chromiumBrowser))('the Developers pages in a browser', () => {
  let platform: DashboardPlatform;
  let receiver: Receiver;
  let backendUrl: string;
  /** The worker's clock: an hour later at each run, so the retry it scheduled is due. */
  let workerClock = Date.now();
  const runWorker = () => {
    workerClock += 60 * 60 * 1000;
    return createWebhookDelivery({
      db: platform.database.db,
      allowPrivateTargets: true,
      now: () => new Date(workerClock),
    }).runOnce();
  };

  beforeAll(async () => {
    // The receiver is the test's own, on 127.0.0.1: main-api accepts it as a webhook URL only when told to.
    receiver = await startReceiver();
    // backend-api beside main-api on the same database, as in production, for the API key's first call and the
    // hosted page; its delivery worker is off, since the test runs the worker itself.
    platform = await startDashboardPlatform({
      env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
      backend: { env: { WEBHOOK_DELIVERY_ENABLED: 'false' } },
    });
    backendUrl = platform.backend?.url ?? '';
  });
  afterAll(async () => {
    receiver?.server.closeAllConnections();
    await new Promise((resolve) => receiver?.server.close(resolve));
    await platform?.close();
  });

  const subnav = (page: Page, name: string) =>
    page.getByRole('navigation', { name: /Developer settings|Mipangilio ya wasanidi/ }).getByRole('link', { name });

  it.each(SIZES)('creates a key, sets the webhook, follows a test event and redelivers it ($name)', async (size) => {
    const { mainUrl } = platform;
    const page = await freshPage(platform, size);
    const violations = policyViolationsOf(page);
    const check = pageChecker(platform, page, size, SHOTS);
    const email = `dev-${size.name}@duka.example`;
    await signUp(platform, page, { email, givenName: 'Achieng', familyName: 'Otieno' });
    await organizationWithTestSession(platform.database.db, email, `Duka Tech ${size.name}`);

    // API keys: a test key, its secret shown once on the form's answer.
    await page.goto(`${mainUrl}/dashboard?lang=en`);
    await page.getByRole('link', { name: 'Developers' }).click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await page.getByText('No key yet.').waitFor();
    await check('1-keys');
    await page.getByLabel('Name').fill('Till server');
    await page.getByRole('button', { name: 'Create the key' }).click();
    await page.getByRole('heading', { name: 'Your new key "Till server"' }).waitFor();
    const secret = await page.getByRole('textbox', { name: 'Secret key' }).inputValue();
    expect(secret).toMatch(/^sk_test_[\w-]{43}$/);
    expect(page.url()).not.toContain(secret);
    await check('2-key-created');
    await subnav(page, 'API keys').click();
    await page.getByRole('cell', { name: 'Till server', exact: true }).waitFor();
    expect(await page.content()).not.toContain(secret);
    await page.getByRole('cell', { name: `sk_test_…${secret.slice(-4)}` }).waitFor();

    // The webhook endpoint: the test's server, then a test event.
    await subnav(page, 'Webhook endpoint').click();
    await page.getByRole('heading', { name: 'Webhook endpoint' }).waitFor();
    await page.getByLabel('Endpoint URL').fill(receiver.url);
    await page.getByRole('button', { name: 'Save the URL' }).click();
    await page.getByText('The URL is saved').waitFor();
    await check('3-webhook-endpoint');
    await page.getByRole('button', { name: 'Show the signing secret' }).click();
    expect(await page.getByRole('textbox', { name: 'Signing secret' }).inputValue()).toMatch(/^whsec_/);
    await check('4-signing-secret');
    await page.getByRole('button', { name: 'Send a test event' }).click();
    await page.getByText('Test event sent').waitFor();
    const eventId = new URL(page.url()).pathname.split('/').at(-1) ?? '';
    expect(eventId).toMatch(/^msg_/);

    // The first try fails: the log shows it, with its status, latency and the scrubbed answer.
    receiver.failOnce.add(eventId);
    expect(await runWorker()).toMatchObject({ retrying: 1 });
    await subnav(page, 'Delivery log').click();
    await page.getByRole('heading', { name: 'Delivery log' }).waitFor();
    await page.getByRole('cell', { name: 'Failed, trying again', exact: true }).waitFor();
    await page.getByText(/HTTP 503, \d+ ms/).waitFor();
    expect(await page.content()).not.toContain('abc123secret');
    await check('5-delivery-log-failing');
    await page.getByLabel('Outcome').selectOption('delivered');
    await page.getByRole('button', { name: 'Show events' }).click();
    await page.getByText('No event matches').waitFor();

    // The retry answers 200; the event's page shows both tries.
    expect(await runWorker()).toMatchObject({ delivered: 1 });
    await page.goto(`${mainUrl}/dashboard/developers/events/${eventId}`);
    await page.getByRole('heading', { name: 'Webhook event' }).waitFor();
    await page.getByRole('definition').filter({ hasText: /^503$/ }).waitFor();
    await page.getByRole('definition').filter({ hasText: '{"received":true}' }).waitFor();
    await check('6-event-delivered');

    // Redeliver: a second delivery with the same webhook-id.
    await page.getByRole('button', { name: 'Redeliver' }).click();
    await page.getByText('Redelivery scheduled').waitFor();
    expect(await runWorker()).toMatchObject({ delivered: 1 });
    await page.reload();
    await page.getByRole('heading', { name: 'Delivery 2, try 1' }).waitFor();
    expect(receiver.ids.filter((id) => id === eventId)).toHaveLength(3);
    await check('7-event-redelivered');

    // The new key's first call: a test session through backend-api, then followed on Verifications.
    const created = await fetch(`${backendUrl}/v1/verify/sessions`, {
      method: 'POST',
      headers: {
        'x-service-api-key': secret,
        'content-type': 'application/json',
        'idempotency-key': crypto.randomUUID(),
      },
      body: JSON.stringify({ type: 'kyc', externalEndUserId: `till-customer-${size.name}`, appName: 'Duka App' }),
    });
    expect(created.status).toBe(201);
    const { sessionId, verificationUrl } = (
      (await created.json()) as {
        data: { sessionId: string; verificationUrl: string };
      }
    ).data;
    await page.getByRole('link', { name: 'Verifications' }).click();
    await page.getByRole('cell', { name: `till-customer-${size.name}` }).waitFor();
    await page.goto(`${mainUrl}/dashboard/verifications/${sessionId}`);
    await page.getByRole('heading', { name: 'Verification session' }).waitFor();
    await page.getByText('No decision yet.').waitFor();
    await check('8-session-from-key');

    // The end user's part on the hosted page, decided there with the test session's sandbox controls; the session's
    // page then shows the decision, each status change, and the callbacks with their answers.
    await page.goto(verificationUrl);
    await Promise.all([
      page.waitForURL((url) => url.searchParams.get('notice') === 'consent_recorded'),
      page.getByRole('button', { name: 'I agree' }).click(),
    ]);
    await Promise.all([
      page.waitForURL((url) => url.searchParams.get('notice') === 'submitted'),
      page.getByRole('button', { name: 'Submit' }).click(),
    ]);
    await Promise.all([
      page.waitForURL((url) => url.searchParams.get('notice') === 'approved'),
      page.getByRole('button', { name: 'Approve' }).click(),
    ]);
    expect(await page.locator('#session-status').textContent()).toBe('Verified');
    await runWorker();
    await page.goto(`${mainUrl}/dashboard/verifications/${sessionId}`);
    await page.getByText(/^Verified\. Decided by .+ on /).waitFor();
    await page
      .getByRole('listitem')
      .filter({ hasText: /: Verified, by / })
      .waitFor();
    expect(await page.getByText(/delivered/).count()).toBeGreaterThan(0);
    await check('8b-session-decided');

    // In Kiswahili: the keys, then an allowed origin for the SDK.
    await page.getByRole('link', { name: 'Kiswahili' }).click();
    await page.getByRole('link', { name: 'Wasanidi' }).click();
    await page.getByRole('heading', { name: 'Funguo za API' }).waitFor();
    await check('9-keys-sw');
    await subnav(page, 'Asili zinazoruhusiwa').click();
    await page.getByRole('heading', { name: 'Asili zinazoruhusiwa' }).waitFor();
    await page.getByLabel('Asili', { exact: true }).fill('https://shop.example');
    await page.getByRole('button', { name: 'Ongeza asili' }).click();
    await page.getByText('Asili imeongezwa.').waitFor();
    await page.getByRole('button', { name: 'Ondoa https://shop.example' }).waitFor();
    await check('10-origins-sw');
    expect(violations).toEqual([]);
    await page.close();
  });
});
