import { randomUUID } from 'node:crypto';
import type { AuditEvent } from '@platform/db/schema';
import { auditEvents, memberships, users } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BillingTestApp, PAYER_ID, startBillingApp } from '../../../test/billing-fixtures.js';
import { tokenFor } from '../../../test/helpers.js';
import { insertSavedCard, insertSubscription } from '../../../test/subscription-fixtures.js';

// The changes the audit log records, made through the routes as members of each role: each recorded once, in the
// change's transaction, with its actor, target, request id and IP; nothing for a refused or failed change; never
// a secret.

const DEVELOPER = 'user_audit_developer';
const BILLING = 'user_audit_billing';
const MEMBER = 'user_audit_member';
/** What `inject` gives as the client's address. */
const CLIENT_IP = '127.0.0.1';

let t: BillingTestApp;
/** Every secret the tests were shown: none may be in the audit log. */
const secretsShown: string[] = [];

beforeAll(async () => {
  t = await startBillingApp();
  for (const [userId, role] of [
    [DEVELOPER, 'developer'],
    [BILLING, 'billing'],
    [MEMBER, 'member'],
  ] as const) {
    await t.db.insert(users).values({ id: userId, email: `${userId}@example.com` });
    await t.db.insert(memberships).values({ organizationId: t.organizationId, userId, role });
  }
});
afterAll(async () => {
  await t?.close();
});

async function send(
  userId: string,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
  extraHeaders: Record<string, string> = {},
) {
  return t.app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${await tokenFor(userId, { now: t.clock.now(), expiresIn: 3600 })}`,
      'x-organization-id': t.organizationId,
      ...extraHeaders,
    },
    ...(payload === undefined ? {} : { payload }),
  });
}

async function allEvents(): Promise<AuditEvent[]> {
  return t.db.select().from(auditEvents).where(eq(auditEvents.organizationId, t.organizationId));
}

/** The events recorded while `act` ran (the log is append-only, so those are the rows that were not there before). */
async function recordedBy(act: () => Promise<unknown>): Promise<AuditEvent[]> {
  const before = new Set((await allEvents()).map((event) => event.id));
  await act();
  return (await allEvents()).filter((event) => !before.has(event.id));
}

/** The context a request's events carry: its user, its x-request-id and the client's address. */
function madeBy(userId: string, response: { headers: Record<string, unknown> }) {
  return { actorUserId: userId, requestId: response.headers['x-request-id'], ip: CLIENT_IP };
}

const PLATFORM = { actorUserId: null, requestId: null, ip: null };

describe('API keys', () => {
  it('records a creation and a revocation, once each, by the developer who made them', async () => {
    let created!: Awaited<ReturnType<typeof send>>;
    const creation = await recordedBy(async () => {
      created = await send(DEVELOPER, 'POST', '/v1/api-keys', { environment: 'live', name: 'Server' });
      expect(created.statusCode, created.body).toBe(201);
    });
    const key = created.json<{ data: { id: string; secret: string; lastFour: string } }>().data;
    secretsShown.push(key.secret);
    expect(creation).toEqual([
      expect.objectContaining({
        ...madeBy(DEVELOPER, created),
        organizationId: t.organizationId,
        action: 'api_key.created',
        targetType: 'api_key',
        targetId: key.id,
        details: {
          name: 'Server',
          environment: 'live',
          prefix: 'sk_live_',
          lastFour: key.lastFour,
          rateLimitPerMinute: null,
        },
      }),
    ]);

    let revoked!: Awaited<ReturnType<typeof send>>;
    const revocation = await recordedBy(async () => {
      revoked = await send(DEVELOPER, 'DELETE', `/v1/api-keys/${key.id}`);
      expect(revoked.statusCode).toBe(200);
    });
    expect(revocation).toEqual([
      expect.objectContaining({
        ...madeBy(DEVELOPER, revoked),
        action: 'api_key.revoked',
        targetType: 'api_key',
        targetId: key.id,
      }),
    ]);

    // Revoking it again succeeds but changes nothing, so it records nothing.
    const again = await recordedBy(async () => {
      expect((await send(DEVELOPER, 'DELETE', `/v1/api-keys/${key.id}`)).statusCode).toBe(200);
    });
    expect(again).toEqual([]);
  });

  it('records nothing for a refused or failed change', async () => {
    const events = await recordedBy(async () => {
      expect((await send(DEVELOPER, 'POST', '/v1/api-keys', { environment: 'live', name: ' ' })).statusCode).toBe(400);
      expect((await send(BILLING, 'POST', '/v1/api-keys', { environment: 'live' })).statusCode).toBe(403);
      expect((await send(DEVELOPER, 'DELETE', `/v1/api-keys/${randomUUID()}`)).statusCode).toBe(404);
      expect((await send(MEMBER, 'DELETE', `/v1/api-keys/${randomUUID()}`)).statusCode).toBe(403);
    });
    expect(events).toEqual([]);
  });
});

describe('webhook endpoints and their secrets', () => {
  it('records the default URL set and cleared, without its query string', async () => {
    let set!: Awaited<ReturnType<typeof send>>;
    let cleared!: Awaited<ReturnType<typeof send>>;
    const events = await recordedBy(async () => {
      set = await send(DEVELOPER, 'PUT', '/v1/webhooks/endpoints/test', {
        defaultUrl: 'https://hooks.example.com/callback?token=receiver-token-1234',
      });
      expect(set.statusCode, set.body).toBe(200);
      cleared = await send(DEVELOPER, 'PATCH', '/v1/webhooks/endpoints/test', { defaultUrl: null });
      expect(cleared.statusCode, cleared.body).toBe(200);
    });
    secretsShown.push('receiver-token-1234');
    const change = { action: 'webhook_endpoint.updated', targetType: 'webhook_endpoint', targetId: 'test' };
    expect(events).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          ...madeBy(DEVELOPER, set),
          ...change,
          details: { environment: 'test', defaultUrl: 'https://hooks.example.com/callback' },
        }),
        expect.objectContaining({
          ...madeBy(DEVELOPER, cleared),
          ...change,
          details: { environment: 'test', defaultUrl: null },
        }),
      ]),
    );
    expect(events).toHaveLength(2);
  });

  it('records that a secret was revealed and rotated, never the secret, and nothing for a refused reveal', async () => {
    let revealed!: Awaited<ReturnType<typeof send>>;
    const reveal = await recordedBy(async () => {
      revealed = await send(DEVELOPER, 'POST', '/v1/webhooks/endpoints/live/secret/reveal');
      expect(revealed.statusCode, revealed.body).toBe(200);
    });
    secretsShown.push(revealed.json<{ data: { secret: string } }>().data.secret);
    expect(reveal).toEqual([
      expect.objectContaining({
        ...madeBy(DEVELOPER, revealed),
        action: 'webhook_secret.revealed',
        targetType: 'webhook_endpoint',
        targetId: 'live',
        details: { environment: 'live' },
      }),
    ]);

    const refused = await recordedBy(async () => {
      expect((await send(DEVELOPER, 'POST', '/v1/webhooks/endpoints/live/secret/reveal')).statusCode).toBe(409);
      expect((await send(BILLING, 'POST', '/v1/webhooks/endpoints/live/secret/rotate')).statusCode).toBe(403);
      expect((await send(MEMBER, 'PUT', '/v1/webhooks/endpoints/live', { defaultUrl: null })).statusCode).toBe(403);
      expect(
        (await send(DEVELOPER, 'PUT', '/v1/webhooks/endpoints/live', { defaultUrl: 'http://10.0.0.1/x' })).statusCode,
      ).toBe(400);
    });
    expect(refused).toEqual([]);

    let rotated!: Awaited<ReturnType<typeof send>>;
    const rotation = await recordedBy(async () => {
      rotated = await send(PAYER_ID, 'POST', '/v1/webhooks/endpoints/live/secret/rotate');
      expect(rotated.statusCode, rotated.body).toBe(200);
    });
    const { secret, previousSecretExpiresAt } = rotated.json<{
      data: { secret: string; previousSecretExpiresAt: string };
    }>().data;
    secretsShown.push(secret);
    expect(rotation).toEqual([
      expect.objectContaining({
        ...madeBy(PAYER_ID, rotated),
        action: 'webhook_secret.rotated',
        targetType: 'webhook_endpoint',
        targetId: 'live',
        details: { environment: 'live', previousSecretExpiresAt },
      }),
    ]);
  });
});

describe('allowed origins', () => {
  it('records the list set, with the origins as stored, and nothing for a refused one', async () => {
    let set!: Awaited<ReturnType<typeof send>>;
    const url = `/v1/organizations/${t.organizationId}/allowed-origins/live`;
    const events = await recordedBy(async () => {
      set = await send(DEVELOPER, 'PUT', url, { origins: ['https://Shop.Example'] });
      expect(set.statusCode, set.body).toBe(200);
      expect((await send(DEVELOPER, 'PUT', url, { origins: ['http://shop.example'] })).statusCode).toBe(400);
      expect((await send(BILLING, 'PUT', url, { origins: [] })).statusCode).toBe(403);
    });
    expect(events).toEqual([
      expect.objectContaining({
        ...madeBy(DEVELOPER, set),
        action: 'allowed_origins.updated',
        targetType: 'allowed_origins',
        targetId: 'live',
        details: { environment: 'live', origins: ['https://shop.example'] },
      }),
    ]);
  });
});

describe('payments and payment methods', () => {
  it('records the start of a payment by the member who paid, and nothing for a refused one', async () => {
    let paid!: Awaited<ReturnType<typeof send>>;
    const events = await recordedBy(async () => {
      paid = await send(
        BILLING,
        'POST',
        '/v1/billing/pay',
        { method: 'card', amount: 1_500 },
        { 'idempotency-key': randomUUID() },
      );
      expect(paid.statusCode, paid.body).toBe(200);
    });
    const { reference } = paid.json<{ reference: string }>();
    expect(events).toEqual([
      expect.objectContaining({
        ...madeBy(BILLING, paid),
        action: 'payment.started',
        targetType: 'payment',
        targetId: reference,
        details: {
          amount: 1_500,
          currency: 'KES',
          purpose: 'wallet_topup',
          method: 'card',
          channel: 'card',
          provider: 'sandbox',
        },
      }),
    ]);

    const refused = await recordedBy(async () => {
      expect((await send(BILLING, 'POST', '/v1/billing/pay', { method: 'card', amount: 0 })).statusCode).toBe(400);
      expect((await send(DEVELOPER, 'POST', '/v1/billing/pay', { method: 'card', amount: 100 })).statusCode).toBe(403);
      const unknownCard = { method: 'saved_method', amount: 100, paymentMethodId: randomUUID() };
      expect((await send(BILLING, 'POST', '/v1/billing/pay', unknownCard)).statusCode).toBe(404);
    });
    expect(refused).toEqual([]);
  });

  it('records the removal of a payment method once, by the member who removed it', async () => {
    const cardId = await insertSavedCard(t.db, t.organizationId);
    let removed!: Awaited<ReturnType<typeof send>>;
    const events = await recordedBy(async () => {
      expect((await send(MEMBER, 'DELETE', `/v1/billing/payment-methods/${cardId}`)).statusCode).toBe(403);
      removed = await send(BILLING, 'DELETE', `/v1/billing/payment-methods/${cardId}`);
      expect(removed.statusCode, removed.body).toBe(200);
      expect((await send(BILLING, 'DELETE', `/v1/billing/payment-methods/${cardId}`)).statusCode).toBe(200);
      expect((await send(BILLING, 'DELETE', `/v1/billing/payment-methods/${randomUUID()}`)).statusCode).toBe(404);
    });
    expect(events).toEqual([
      expect.objectContaining({
        ...madeBy(BILLING, removed),
        action: 'payment_method.removed',
        targetType: 'payment_method',
        targetId: cardId,
        details: { type: 'card', brand: 'visa', last4: '4081' },
      }),
    ]);
  });
});

describe('subscriptions', () => {
  let subscriptionId: string;
  let cardId: string;

  beforeAll(async () => {
    cardId = await insertSavedCard(t.db, t.organizationId);
    const today = t.clock.now().toISOString().slice(0, 10);
    const subscription = await insertSubscription(t.db, t.organizationId, {
      plan: 'core',
      seats: 10,
      cycle: 'monthly',
      anchor: today,
      paymentMethodId: cardId,
    });
    subscriptionId = subscription.id;
  });

  const terms = (plan: string, seats: number, billingCycle: string) => ({ plan, seats, billingCycle });

  it('records an upgrade paid by card: its payment by the member, the change once the payment settles', async () => {
    let upgraded!: Awaited<ReturnType<typeof send>>;
    const events = await recordedBy(async () => {
      upgraded = await send(
        BILLING,
        'POST',
        '/v1/billing/upgrade',
        { newPlan: 'growth', newSeats: 25, newCycle: 'monthly', paymentMethodId: cardId },
        { 'idempotency-key': randomUUID() },
      );
      expect(upgraded.statusCode, upgraded.body).toBe(200);
    });
    const started = events.find((event) => event.action === 'payment.started');
    expect(started).toMatchObject({
      ...madeBy(BILLING, upgraded),
      targetType: 'payment',
      details: { purpose: 'mail_subscription_change', method: 'saved_method', plan: 'growth', seats: 25 },
    });
    expect(events.map((event) => event.action).sort()).toEqual([
      'payment.started',
      'payment.succeeded',
      'subscription.changed',
    ]);
    expect(events.find((event) => event.action === 'payment.succeeded')).toMatchObject({
      ...PLATFORM,
      targetId: started?.targetId,
      details: { from: 'pending', to: 'succeeded', purpose: 'mail_subscription_change' },
    });
    expect(events.find((event) => event.action === 'subscription.changed')).toMatchObject({
      ...PLATFORM,
      targetType: 'subscription',
      targetId: subscriptionId,
      details: {
        kind: 'upgrade',
        before: terms('core', 10, 'monthly'),
        after: terms('growth', 25, 'monthly'),
        paymentReference: started?.targetId,
        requestedByUserId: BILLING,
      },
    });
  });

  it('records a downgrade scheduled for the period end as the member who asked, and nothing for a refused one', async () => {
    let downgraded!: Awaited<ReturnType<typeof send>>;
    const events = await recordedBy(async () => {
      const unknownCard = { newPlan: 'scale', newSeats: 100, newCycle: 'monthly', paymentMethodId: randomUUID() };
      expect((await send(BILLING, 'POST', '/v1/billing/upgrade', unknownCard)).statusCode).toBe(404);
      const refused = { newPlan: 'core', newSeats: 5, newCycle: 'monthly' };
      expect((await send(DEVELOPER, 'POST', '/v1/billing/upgrade', refused)).statusCode).toBe(403);
      downgraded = await send(PAYER_ID, 'POST', '/v1/billing/upgrade', {
        newPlan: 'core',
        newSeats: 5,
        newCycle: 'monthly',
      });
      expect(downgraded.statusCode, downgraded.body).toBe(200);
    });
    expect(events).toEqual([
      expect.objectContaining({
        ...madeBy(PAYER_ID, downgraded),
        action: 'subscription.change_scheduled',
        targetId: subscriptionId,
        details: expect.objectContaining({
          before: terms('growth', 25, 'monthly'),
          after: terms('core', 5, 'monthly'),
          price: 500,
          replaced: null,
        }),
      }),
    ]);
  });

  it('records a cancel and a resume as the member who asked, and nothing for a refused or repeated one', async () => {
    let canceled!: Awaited<ReturnType<typeof send>>;
    let resumed!: Awaited<ReturnType<typeof send>>;
    const events = await recordedBy(async () => {
      expect((await send(MEMBER, 'POST', '/v1/billing/subscription/cancel')).statusCode).toBe(403);
      expect((await send(BILLING, 'POST', '/v1/billing/subscription/resume')).statusCode).toBe(409);
      canceled = await send(BILLING, 'POST', '/v1/billing/subscription/cancel');
      expect(canceled.statusCode, canceled.body).toBe(200);
      expect((await send(PAYER_ID, 'POST', '/v1/billing/subscription/cancel')).statusCode).toBe(200);
      resumed = await send(PAYER_ID, 'POST', '/v1/billing/subscription/resume');
      expect(resumed.statusCode, resumed.body).toBe(200);
    });
    expect(events).toHaveLength(2);
    expect(events).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          ...madeBy(BILLING, canceled),
          action: 'subscription.cancel_requested',
          targetType: 'subscription',
          targetId: subscriptionId,
          details: expect.objectContaining({ status: 'active' }),
        }),
        expect.objectContaining({
          ...madeBy(PAYER_ID, resumed),
          action: 'subscription.resumed',
          targetId: subscriptionId,
        }),
      ]),
    );
  });

  it("records a renewal as the platform's", async () => {
    t.clock.advance(32 * 24 * 60 * 60 * 1000);
    const events = await recordedBy(async () => {
      await t.renew();
    });
    const actions = events.map((event) => event.action).sort();
    expect(actions).toContain('subscription.renewed');
    for (const event of events) expect(event).toMatchObject(PLATFORM);
    expect(events.find((event) => event.action === 'subscription.renewed')).toMatchObject({
      targetId: subscriptionId,
      // The downgrade scheduled above is what the renewal applies.
      details: { kind: 'renewal', before: terms('growth', 25, 'monthly'), after: terms('core', 5, 'monthly') },
    });
  });
});

describe('the whole log', () => {
  it('holds none of the secrets the routes showed', async () => {
    expect(secretsShown.length).toBeGreaterThanOrEqual(4);
    const log = JSON.stringify(await allEvents());
    for (const secret of secretsShown) expect(log).not.toContain(secret);
  });
});
