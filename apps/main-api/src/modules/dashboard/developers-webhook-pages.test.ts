import { auditEvents } from '@platform/db/schema';
import { createWebhookDelivery, enqueueWebhookEvent, setDefaultWebhookUrl } from '@platform/webhooks';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type DashboardHarness, startDashboardHarness } from '../../../test/dashboard-harness.js';
import { insertOrganization } from '../../../test/helpers.js';
import { type CallbackReceiver, startCallbackReceiver } from '../../../test/webhook-delivery-fixtures.js';
import { getWebhookEvent } from '../webhook-deliveries/index.js';
import { listWebhookEndpoints } from '../webhooks/index.js';
import { DELIVERY_LOG_PAGE_SIZE } from './developers-events-routes.js';

// The Developers pages' webhook endpoint, delivery log and event page (docs/decisions.md#dashboard-pages): the URL
// set, the signing secret shown once and rotated, a test event, every try with its status, latency and scrubbed
// answer, filters and cursor pages, the redelivery with the same webhook-id, bad input, and the role policy. The
// delivery worker (backend-api's in production) runs on a clock of its own, ahead of the app's, so a retry is due
// when the test says.

let h: DashboardHarness;
let receiver: CallbackReceiver;
let ownerCookie: string;
let memberCookie: string;
let organizationId: string;
let otherOrganizationId: string;
let workerClock: Date;

const OWNER = { sub: 'user_njeri', email: 'njeri@example.com', givenName: 'Njeri', familyName: 'Wambui' };
const MEMBER = { sub: 'user_kiprop', email: 'kiprop@example.com', givenName: 'Kiprop', familyName: 'Kibet' };

const at = (path: string, org = organizationId) => `${path}${path.includes('?') ? '&' : '?'}org=${org}`;
const runWorker = () =>
  createWebhookDelivery({ db: h.t.db, allowPrivateTargets: true, now: () => workerClock }).runOnce();
const endpointOf = async (environment: 'test' | 'live', org = organizationId) =>
  (await listWebhookEndpoints(h.t.db, { organizationId: org, now: new Date() })).find(
    (each) => each.environment === environment,
  );

beforeAll(async () => {
  h = await startDashboardHarness();
  receiver = await startCallbackReceiver();
  const works = await h.organizationWith('Jua Kali Works', { owner: OWNER, member: MEMBER });
  organizationId = works.id;
  ownerCookie = works.cookies.owner;
  memberCookie = works.cookies.member;
  otherOrganizationId = await insertOrganization(h.t.db, { name: 'Other Ltd' });
});
beforeEach(() => {
  workerClock = new Date(Date.now() + 60_000);
  receiver.received.length = 0;
  receiver.respond = () => ({ status: 204 });
});
afterAll(async () => {
  await receiver?.close();
  await h?.close();
});

describe('the webhook endpoint page', () => {
  const from = () => at('/dashboard/developers/webhooks?env=live');

  it('sets the URL of the environment shown, and answers a refused or empty URL on the page, unchanged', async () => {
    const saved = await h.post(
      at('/dashboard/developers/webhooks?env=live'),
      ownerCookie,
      { url: 'https://hooks.example.com/platform' },
      from(),
    );
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe('/dashboard/developers/webhooks?notice=saved');
    expect((await endpointOf('live'))?.defaultUrl).toBe('https://hooks.example.com/platform');
    expect((await endpointOf('test'))?.defaultUrl).toBeNull();
    const page = await h.get(at('/dashboard/developers/webhooks?env=live&notice=saved'), ownerCookie);
    expect(page.body).toContain('The URL is saved');
    expect(page.body).toContain('https://hooks.example.com/platform');

    const refused = await h.post(
      at('/dashboard/developers/webhooks?env=live'),
      ownerCookie,
      { url: 'http://10.0.0.7/hooks' },
      from(),
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('The URL was not accepted');
    expect(refused.body).toContain('value="http://10.0.0.7/hooks"');
    const empty = await h.post(at('/dashboard/developers/webhooks?env=live'), ownerCookie, { url: '' }, from());
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('Enter the URL');
    expect((await endpointOf('live'))?.defaultUrl).toBe('https://hooks.example.com/platform');
  });

  it('shows the signing secret once, on the answer to its form, then rotates it for a new one', async () => {
    expect((await h.get(from(), ownerCookie)).body).toContain('Show the signing secret');
    const revealed = await h.post(at('/dashboard/developers/webhooks/secret/reveal?env=live'), ownerCookie, {}, from());
    expect(revealed.statusCode).toBe(200);
    expect(revealed.headers['cache-control']).toBe('no-store');
    const secret = />(whsec_[^<]+)<\/textarea>/.exec(revealed.body)?.[1];
    expect(secret).toBeDefined();
    expect((await endpointOf('live'))?.secretRevealed).toBe(true);

    const later = await h.get(from(), ownerCookie);
    expect(later.body).not.toContain(String(secret));
    expect(later.body).not.toContain('Show the signing secret');
    expect(later.body).toContain('The signing secret was shown');
    const again = await h.post(at('/dashboard/developers/webhooks/secret/reveal?env=live'), ownerCookie, {}, from());
    expect(again.statusCode).toBe(409);
    expect(again.body).not.toContain('whsec_');

    const rotated = await h.post(at('/dashboard/developers/webhooks/secret/rotate?env=live'), ownerCookie, {}, from());
    expect(rotated.statusCode).toBe(200);
    const next = />(whsec_[^<]+)<\/textarea>/.exec(rotated.body)?.[1];
    expect(next).toBeDefined();
    expect(next).not.toBe(secret);
    expect(rotated.body).toContain('The previous secret also signs events until');
    expect((await endpointOf('live'))?.previousSecretExpiresAt).not.toBeNull();
  });

  it('sends no test event without a URL, and says so', async () => {
    const other = await insertOrganization(h.t.db, { name: 'No URL', members: [{ userId: OWNER.sub }] });
    const page = at('/dashboard/developers/webhooks?env=test', other);
    expect((await h.get(page, ownerCookie)).body).not.toContain('Send a test event');
    const refused = await h.post(at('/dashboard/developers/webhooks/test?env=test', other), ownerCookie, {}, page);
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toContain('Set the URL first');
  });

  it('shows a member the settings without a form or a secret', async () => {
    const page = await h.get(from(), memberCookie);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('https://hooks.example.com/platform');
    expect(page.body).not.toContain('<form method="post" action="/dashboard/developers/webhooks');
    expect(page.body).toContain('owners, admins and developers change them');
  });
});

describe('the delivery log and an event', () => {
  it('follows a test event through a failing try, a delivered one and a redelivery with the same webhook-id', async () => {
    await setDefaultWebhookUrl(h.t.db, {
      organizationId,
      environment: 'test',
      defaultUrl: `${receiver.origin}/hooks`,
      now: new Date(),
    });
    const settings = at('/dashboard/developers/webhooks?env=test');
    expect((await h.get(settings, ownerCookie)).body).toContain('Send a test event');
    const sent = await h.post(at('/dashboard/developers/webhooks/test?env=test'), ownerCookie, {}, settings);
    expect(sent.statusCode).toBe(303);
    const eventUrl = String(sent.headers.location);
    expect(eventUrl).toMatch(/^\/dashboard\/developers\/events\/msg_\w+\?notice=test_sent$/);
    const eventId = eventUrl.split('/').at(-1)?.split('?')[0] ?? '';

    receiver.respond = () => ({ status: 503, body: 'Down {"password":"hunter2"} Bearer abc.def' });
    expect(await runWorker()).toMatchObject({ retrying: 1 });
    const log = await h.get(at('/dashboard/developers/events?env=test'), ownerCookie);
    expect(log.statusCode).toBe(200);
    expect(log.body).toContain('webhook.test');
    expect(log.body).toContain('Failed, trying again');
    expect(log.body).toMatch(/HTTP 503, \d+ ms/);
    expect(log.body).toContain('[redacted]');
    expect(log.body).not.toContain('hunter2');
    expect(
      (await h.get(at('/dashboard/developers/events?env=test&outcome=delivered'), ownerCookie)).body,
    ).not.toContain(eventId);
    expect(
      (await h.get(at('/dashboard/developers/events?env=test&type=wallet.balance_low'), ownerCookie)).body,
    ).not.toContain(eventId);
    expect(
      (await h.get(at('/dashboard/developers/events?env=test&outcome=retrying&type=webhook.test'), ownerCookie)).body,
    ).toContain(eventId);

    receiver.respond = () => ({ status: 200, body: '{"received":true}' });
    workerClock = new Date((await getWebhookEvent(h.t.db, organizationId, eventId)).nextAttemptAt ?? workerClock);
    expect(await runWorker()).toMatchObject({ delivered: 1 });
    const page = await h.get(at(eventUrl), ownerCookie);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Test event sent');
    expect(page.body).toContain('Delivered');
    expect(page.body).toContain('503');
    expect(page.body).toContain('{&quot;received&quot;:true}');
    expect(page.body).toMatch(/\d+ ms/);
    expect(page.body).toContain('Redeliver');

    const redelivered = await h.post(
      at(`/dashboard/developers/events/${eventId}/redeliver?env=test`),
      ownerCookie,
      {},
      at(eventUrl),
    );
    expect(redelivered.statusCode).toBe(303);
    expect(redelivered.headers.location).toBe(`/dashboard/developers/events/${eventId}?notice=redelivered`);
    expect(await runWorker()).toMatchObject({ delivered: 1 });
    expect(receiver.received.map((each) => each.headers['webhook-id'])).toEqual([eventId, eventId, eventId]);
    const detail = await getWebhookEvent(h.t.db, organizationId, eventId);
    expect(detail.attempts.map((attempt) => [attempt.delivery, attempt.attempt])).toEqual([
      [1, 1],
      [1, 2],
      [2, 1],
    ]);
    const after = await h.get(at(String(redelivered.headers.location)), ownerCookie);
    expect(after.body).toContain('Redelivery scheduled');
    expect(after.body.match(/class="card"/g)).toHaveLength(3);
    expect(after.body).toContain('Delivery 2, try 1');
  });

  it('shows live events on live pages only, and pages through the log with the cursor', async () => {
    const paged = await insertOrganization(h.t.db, { name: 'Many Events', members: [{ userId: OWNER.sub }] });
    for (let index = 0; index <= DELIVERY_LOG_PAGE_SIZE; index += 1) {
      await enqueueWebhookEvent(h.t.db, {
        organizationId: paged,
        environment: 'test',
        type: `paged.event_${index}`,
        data: {},
        targetUrl: null,
        now: new Date(Date.UTC(2026, 10, 1, 0, index)),
      });
    }
    await enqueueWebhookEvent(h.t.db, {
      organizationId: paged,
      environment: 'live',
      type: 'live.only',
      data: {},
      targetUrl: null,
      now: new Date(),
    });
    const first = await h.get(at('/dashboard/developers/events?env=test', paged), ownerCookie);
    expect(first.body.match(/paged\.event_\d+/g)).toHaveLength(DELIVERY_LOG_PAGE_SIZE);
    expect(first.body).not.toContain('live.only');
    const next = /href="(\/dashboard\/developers\/events\?cursor=[^"]+)"/.exec(first.body)?.[1] ?? '';
    const second = await h.get(at(next.replaceAll('&amp;', '&'), paged), ownerCookie);
    expect(second.body.match(/paged\.event_\d+/g)).toEqual(['paged.event_0']);
    expect(second.body).toContain('First page');
    const live = await h.get(at('/dashboard/developers/events?env=live', paged), ownerCookie);
    expect(live.body).toContain('live.only');
    const badCursor = await h.get(at('/dashboard/developers/events?env=test&cursor=nonsense', paged), ownerCookie);
    expect(badCursor.statusCode).toBe(400);
    const badOutcome = await h.get(at('/dashboard/developers/events?outcome=%3Cb%3E', paged), ownerCookie);
    expect(badOutcome.statusCode).toBe(400);
    expect(badOutcome.body).not.toContain('<b>');
  });

  it("answers another organization's event and an unknown one with the 404 page, and redelivers neither", async () => {
    const theirs = await enqueueWebhookEvent(h.t.db, {
      organizationId: otherOrganizationId,
      environment: 'test',
      type: 'verification_session.verified',
      data: {},
      targetUrl: null,
      now: new Date(),
    });
    for (const id of [theirs.id, 'msg_unknown', 'not an id']) {
      const path = `/dashboard/developers/events/${encodeURIComponent(id)}`;
      expect((await h.get(at(path), ownerCookie)).statusCode).toBe(404);
      expect((await h.post(at(`${path}/redeliver`), ownerCookie, {})).statusCode).toBe(404);
    }
    expect((await getWebhookEvent(h.t.db, otherOrganizationId, theirs.id)).deliveries).toBe(1);
  });

  it('shows a member the log and an event without the Redeliver form, in Kiswahili when asked', async () => {
    const log = await h.get(at('/dashboard/developers/events?env=test&lang=sw'), memberCookie);
    expect(log.statusCode).toBe(200);
    expect(log.body).toContain('Kumbukumbu ya utumaji');
    const eventId = /href="\/dashboard\/developers\/events\/(msg_\w+)"/.exec(log.body)?.[1] ?? '';
    const page = await h.get(at(`/dashboard/developers/events/${eventId}?lang=sw`), memberCookie);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Majaribio');
    expect(page.body).not.toContain('/redeliver');
  });
});

describe("clearing the webhook endpoint's URL", () => {
  it('clears the URL of the environment shown through the API service, with its form token, and says so', async () => {
    const org = await insertOrganization(h.t.db, {
      name: 'Clear Works',
      members: [
        { userId: OWNER.sub, role: 'owner' },
        { userId: MEMBER.sub, role: 'member' },
      ],
    });
    for (const environment of ['test', 'live'] as const) {
      await setDefaultWebhookUrl(h.t.db, {
        organizationId: org,
        environment,
        defaultUrl: `https://hooks.example.com/${environment}`,
        now: new Date(),
      });
    }
    const page = at('/dashboard/developers/webhooks?env=live', org);
    const shown = await h.get(page, ownerCookie);
    expect(shown.body).toContain(
      `<form method="post" action="/dashboard/developers/webhooks/clear?org=${org}&amp;env=live"`,
    );
    expect(shown.body).toContain('Remove the URL');

    const noToken = await h.t.app.inject({
      method: 'POST',
      url: at('/dashboard/developers/webhooks/clear?env=live', org),
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: ownerCookie },
      payload: '',
    });
    expect(noToken.statusCode).toBe(403);
    expect((await endpointOf('live', org))?.defaultUrl).toBe('https://hooks.example.com/live');
    // A member reads the URL but has no form to clear it, and its post is refused.
    expect((await h.get(page, memberCookie)).body).not.toContain('/dashboard/developers/webhooks/clear');
    const asMember = await h.post(at('/dashboard/developers/webhooks/clear?env=live', org), memberCookie, {}, page);
    expect(asMember.statusCode).toBe(403);
    expect((await endpointOf('live', org))?.defaultUrl).toBe('https://hooks.example.com/live');

    const cleared = await h.post(at('/dashboard/developers/webhooks/clear?env=live', org), ownerCookie, {}, page);
    expect(cleared.statusCode).toBe(303);
    expect(cleared.headers.location).toBe('/dashboard/developers/webhooks?notice=cleared');
    expect((await endpointOf('live', org))?.defaultUrl).toBeNull();
    expect((await endpointOf('test', org))?.defaultUrl).toBe('https://hooks.example.com/test');
    const events = await h.t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.organizationId, org), eq(auditEvents.action, 'webhook_endpoint.updated')));
    expect(events.map((event) => event.details)).toEqual([{ environment: 'live', defaultUrl: null }]);

    const after = await h.get(at('/dashboard/developers/webhooks?env=live&notice=cleared', org), ownerCookie);
    expect(after.body).toContain('The URL is removed');
    expect(after.body).toContain('No URL is set');
    expect(after.body).not.toContain('Remove the URL');
    // The form to set one again starts empty.
    expect(after.body).toMatch(/<input id="webhook-url" type="url" name="url" required="" maxlength="2048" value=""/);

    const sw = await h.get(at('/dashboard/developers/webhooks?env=test&lang=sw', org), ownerCookie);
    expect(sw.body).toContain('Ondoa URL');
  });
});
