import { randomUUID } from 'node:crypto';
import { tableChecksums } from '@platform/db/testing';
import { answerOf } from '@platform/http/testing';
import { notifyUser } from '@platform/notifications';
import { enqueueWebhookEvent, newWebhookEventId } from '@platform/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BillingTestApp, OUTSIDER_ID, PAYER_ID, startBillingApp } from '../../test/billing-fixtures.js';
import { tokenFor } from '../../test/helpers.js';
import { insertSavedCard, insertSubscription } from '../../test/subscription-fixtures.js';

// OWASP API1 (object level authorization), for every main-api route that takes an id, in its path or its body:
// another user's or another organization's object gets exactly the answer of a random id that does not exist
// (status and body, all but the request id), and nothing is stored or changed. Where the owner can use the id,
// the owner's own request then succeeds, so the id was real and the route works.
// Not here: DELETE /v1/api-keys/:id (api-keys/isolation-auth-openapi.test.ts already compares another
// organization's key with an unknown one, body for body); X-Organization-Id itself (organization-access.test.ts
// compares an unknown organization with one the user is not in); /v1/webhooks/endpoints/:environment, whose parameter is `live` or
// `test` of the caller's own organization, not an object id; the public pages under /v1/billing/sandbox/checkout
// and /v1/billing/checkout/complete, where the unguessable payment reference is the credential.

type Headers = Record<string, string>;
type Answered = Promise<{ statusCode: number; body: string }>;

interface IdRoute {
  name: string;
  /** Makes the object, owned by the payer or the payer's organization; returns its id. */
  object(): Promise<string>;
  /** The same id, or a random unknown one, in the request. */
  send(headers: Headers, id: string): Answered;
  /** The payer's own request with the object's id: what it answers. */
  ownerStatus: number;
  /** A random id of the route's format. */
  unknownId(): string;
}

let t: BillingTestApp;
let outsider: Headers;

beforeAll(async () => {
  t = await startBillingApp();
  outsider = { authorization: `Bearer ${await tokenFor(OUTSIDER_ID)}`, 'x-organization-id': t.otherOrganizationId };
  // Both organizations have a subscription with something due on an upgrade, so an upgrade request reaches the
  // lookup of its card whoever sends it.
  const today = new Date().toISOString().slice(0, 10);
  for (const organizationId of [t.organizationId, t.otherOrganizationId]) {
    await insertSubscription(t.db, organizationId, { plan: 'core', seats: 5, cycle: 'monthly', anchor: today });
  }
});
afterAll(async () => {
  await t?.close();
});

const inject = (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  headers: Headers,
  payload?: object,
): Answered => t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });

const payerCard = () => insertSavedCard(t.db, t.organizationId);
const payerWebhookEvent = async () =>
  (
    await enqueueWebhookEvent(t.db, {
      organizationId: t.organizationId,
      environment: 'test',
      type: 'verification_session.verified',
      data: { status: 'verified' },
      targetUrl: null,
      now: new Date(),
    })
  ).id;
// Each test asks for more seats than any before it, so an upgrade is due whatever earlier tests applied.
let upgradeSeats = 20;
const upgradeWith = (paymentMethodId: string, seats = upgradeSeats) => ({
  newPlan: 'growth',
  newSeats: seats,
  newCycle: 'monthly',
  paymentMethodId,
});
const payWith = (paymentMethodId: string) => ({ method: 'saved_method', amount: 100, paymentMethodId });

const routes: IdRoute[] = [
  {
    name: 'PATCH /v1/notifications/:id/read',
    object: async () =>
      (await notifyUser(t.db, { userId: PAYER_ID, title: 'Receipt', message: 'Paid', type: 'info' })).id,
    send: (headers, id) => inject('PATCH', `/v1/notifications/${id}/read`, headers),
    ownerStatus: 200,
    unknownId: randomUUID,
  },
  {
    name: 'GET /v1/billing/payments/:reference',
    object: async () => {
      const started = await inject('POST', '/v1/billing/pay', await t.headers(), { method: 'card', amount: 500 });
      expect(started.statusCode).toBe(200);
      return (JSON.parse(started.body) as { reference: string }).reference;
    },
    send: (headers, reference) => inject('GET', `/v1/billing/payments/${reference}`, headers),
    ownerStatus: 200,
    unknownId: () => `PAY-${randomUUID()}`,
  },
  {
    name: 'GET /v1/billing/payments/:reference/receipt',
    // A saved card is charged at once by the sandbox: the payment succeeds and has its receipt.
    object: async () => {
      const paid = await inject('POST', '/v1/billing/pay', await t.headers(), payWith(await payerCard()));
      expect(paid.statusCode).toBe(200);
      return (JSON.parse(paid.body) as { reference: string }).reference;
    },
    send: (headers, reference) => inject('GET', `/v1/billing/payments/${reference}/receipt`, headers),
    ownerStatus: 200,
    unknownId: () => `PAY-${randomUUID()}`,
  },
  {
    name: 'GET /v1/billing/payments/:reference/invoice',
    // A bank transfer has its invoice as soon as it starts.
    object: async () => {
      const started = await inject('POST', '/v1/billing/pay', await t.headers(), {
        method: 'bank_transfer',
        amount: 2_000_000,
      });
      expect(started.statusCode).toBe(200);
      return (JSON.parse(started.body) as { reference: string }).reference;
    },
    send: (headers, reference) => inject('GET', `/v1/billing/payments/${reference}/invoice`, headers),
    ownerStatus: 200,
    unknownId: () => `PAY-${randomUUID()}`,
  },
  {
    name: 'GET /v1/webhooks/events/:eventId',
    object: payerWebhookEvent,
    send: (headers, id) => inject('GET', `/v1/webhooks/events/${id}`, headers),
    ownerStatus: 200,
    unknownId: () => newWebhookEventId(),
  },
  {
    name: 'POST /v1/webhooks/events/:eventId/redeliver',
    object: payerWebhookEvent,
    send: (headers, id) => inject('POST', `/v1/webhooks/events/${id}/redeliver`, headers),
    ownerStatus: 202,
    unknownId: () => newWebhookEventId(),
  },
  {
    name: 'DELETE /v1/billing/payment-methods/:id',
    object: payerCard,
    send: (headers, id) => inject('DELETE', `/v1/billing/payment-methods/${id}`, headers),
    ownerStatus: 200,
    unknownId: randomUUID,
  },
  {
    name: 'POST /v1/billing/pay with a saved method (paymentMethodId)',
    object: payerCard,
    send: (headers, id) => inject('POST', '/v1/billing/pay', headers, payWith(id)),
    ownerStatus: 200,
    unknownId: randomUUID,
  },
  {
    name: 'POST /v1/billing/upgrade (paymentMethodId)',
    object: payerCard,
    send: (headers, id) => inject('POST', '/v1/billing/upgrade', headers, upgradeWith(id)),
    ownerStatus: 200,
    unknownId: randomUUID,
  },
];

describe('object level authorization (main-api)', () => {
  it.each(routes.map((route) => [route.name, route] as const))(
    "%s: answers another user's or organization's id as an unknown one, and changes nothing",
    async (_name, route) => {
      upgradeSeats += 5;
      const id = await route.object();
      const before = await tableChecksums(t.db);
      const unknown = answerOf(await route.send(outsider, route.unknownId()));
      expect(unknown.status).toBe(404);
      expect(answerOf(await route.send(outsider, id))).toEqual(unknown);
      expect(await tableChecksums(t.db)).toEqual(before);

      expect((await route.send(await t.headers(), id)).statusCode).toBe(route.ownerStatus);
    },
  );

  // Removal is soft: the row stays, so each route must look past it as if it were not there.
  it.each([
    ['POST /v1/billing/pay with a saved method (paymentMethodId)', payWith],
    ['POST /v1/billing/upgrade (paymentMethodId)', upgradeWith],
  ] as const)(
    "%s: answers the organization's own removed method as an unknown one, and changes nothing",
    async (name, body) => {
      upgradeSeats += 5;
      const id = await payerCard();
      expect((await inject('DELETE', `/v1/billing/payment-methods/${id}`, await t.headers())).statusCode).toBe(200);
      const url = name.startsWith('POST /v1/billing/pay ') ? '/v1/billing/pay' : '/v1/billing/upgrade';
      const before = await tableChecksums(t.db);
      const unknown = answerOf(await inject('POST', url, await t.headers(), body(randomUUID())));
      expect(unknown.status).toBe(404);
      expect(answerOf(await inject('POST', url, await t.headers(), body(id)))).toEqual(unknown);
      expect(await tableChecksums(t.db)).toEqual(before);
    },
  );
});
