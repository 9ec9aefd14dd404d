import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BILLING, DEVELOPER, MEMBER, useAuditApp } from '../../../test/audit-fixtures.js';
import { insertSavedCard } from '../../../test/subscription-fixtures.js';

// What the audit log records of allowed origins, payments and payment methods.

const setup = useAuditApp();
const { send, recordedBy, madeBy } = setup;

describe('allowed origins', () => {
  it('records the list set, with the origins as stored, and nothing for a refused one', async () => {
    let set!: Awaited<ReturnType<typeof send>>;
    const url = `/v1/organizations/${setup.t.organizationId}/allowed-origins/live`;
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
    const cardId = await insertSavedCard(setup.t.db, setup.t.organizationId);
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
