import { mailSubscriptionChanges, payments } from '@platform/db/schema';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BillingTestApp } from '../../../../test/billing-fixtures.js';
import { previewChange, requestChange, useSubscriptionApp } from '../../../../test/subscription-app.js';
import {
  insertSavedCard,
  insertSavedNumber,
  insertSubscription,
  subscriptionOf,
} from '../../../../test/subscription-fixtures.js';

// The routes (routes.ts, schemas.ts): bad input refused before anything changes (a card that cannot pay among it),
// GET /v1/billing/subscription, and the OpenAPI document.

const suite = useSubscriptionApp({ clearIdempotencyRecords: true });
let t: BillingTestApp;
beforeAll(() => {
  t = suite.t;
});

describe('bad input: 400 (404 for an unknown card) and nothing changes', () => {
  const core10 = { plan: 'core', seats: 10, cycle: 'monthly', anchor: '2024-01-01' } as const;

  async function expectNothingChanged(before: { version: number }) {
    expect((await subscriptionOf(t.db, t.organizationId)).version).toBe(before.version);
    expect(await t.db.select().from(mailSubscriptionChanges)).toEqual([]);
    expect(await t.db.select().from(payments)).toEqual([]);
  }

  it.each([
    ['no parameters', {}, ['newPlan', 'newSeats', 'newCycle']],
    ['no newSeats', { newPlan: 'growth', newCycle: 'monthly' }, ['newSeats']],
    ['zero seats', { newPlan: 'growth', newSeats: '0', newCycle: 'monthly' }, ['newSeats']],
    ['too many seats', { newPlan: 'growth', newSeats: '1000001', newCycle: 'monthly' }, ['newSeats']],
    ['fractional seats', { newPlan: 'growth', newSeats: '1.5', newCycle: 'monthly' }, ['newSeats']],
    ['seats that are not a number', { newPlan: 'growth', newSeats: 'ten', newCycle: 'monthly' }, ['newSeats']],
    // Query text is read as an integer only in its ordinary decimal form (docs/decisions.md#strict-validation).
    ['seats in hexadecimal', { newPlan: 'growth', newSeats: '0x19', newCycle: 'monthly' }, ['newSeats']],
    ['seats in exponent notation', { newPlan: 'growth', newSeats: '1e1', newCycle: 'monthly' }, ['newSeats']],
    ['seats in binary', { newPlan: 'growth', newSeats: '0b11', newCycle: 'monthly' }, ['newSeats']],
    ['seats with a leading space', { newPlan: 'growth', newSeats: ' 25', newCycle: 'monthly' }, ['newSeats']],
    ['seats with a leading zero', { newPlan: 'growth', newSeats: '025', newCycle: 'monthly' }, ['newSeats']],
    ['seats with a plus sign', { newPlan: 'growth', newSeats: '+25', newCycle: 'monthly' }, ['newSeats']],
    ['seats with a decimal point', { newPlan: 'growth', newSeats: '25.0', newCycle: 'monthly' }, ['newSeats']],
    ['empty seats', { newPlan: 'growth', newSeats: '', newCycle: 'monthly' }, ['newSeats']],
    ['an unknown plan', { newPlan: 'gold', newSeats: '10', newCycle: 'monthly' }, ['newPlan']],
    ['an unknown cycle', { newPlan: 'growth', newSeats: '10', newCycle: 'weekly' }, ['newCycle']],
  ])('preview with %s', async (_name, query, fields) => {
    const before = await insertSubscription(t.db, t.organizationId, core10);
    t.clock.set(new Date('2024-01-17T10:00:00.000Z'));
    const response = await previewChange(t, query as Record<string, string>);
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.code).toBe('validation_error');
    for (const field of fields) {
      expect(body.details.map((detail: { path: string }) => detail.path).join(' ')).toContain(field);
    }
    await expectNothingChanged(before);
  });

  it('accepts newSeats written as a number in the query string', async () => {
    await insertSubscription(t.db, t.organizationId, core10);
    t.clock.set(new Date('2024-01-17T10:00:00.000Z'));
    const response = await previewChange(t, { newPlan: 'growth', newSeats: '25', newCycle: 'monthly' });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ amountDueToday: 1331, newPrice: 3750 });
  });

  it('names newSeats and says it must be an integer when it is not written as one, and refuses it repeated', async () => {
    await insertSubscription(t.db, t.organizationId, core10);
    t.clock.set(new Date('2024-01-17T10:00:00.000Z'));
    const hex = await previewChange(t, { newPlan: 'growth', newSeats: '0x19', newCycle: 'monthly' });
    expect(hex.json()).toMatchObject({
      success: false,
      code: 'validation_error',
      error: 'newSeats must be a whole number from 1 to 1,000,000',
      details: [{ path: 'querystring/newSeats', message: 'must be a whole number from 1 to 1,000,000' }],
    });
    const twice = await t.app.inject({
      method: 'GET',
      url: '/v1/billing/upgrade/preview?newPlan=growth&newSeats=25&newSeats=25&newCycle=monthly',
      headers: await t.headers(),
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().details).toEqual([
      { path: 'querystring/newSeats', message: 'must be a whole number from 1 to 1,000,000' },
    ]);
  });

  it.each([
    ['no body fields', {}],
    ['seats as a string', { newPlan: 'growth', newSeats: '25', newCycle: 'monthly' }],
    ['an unknown field', { newPlan: 'growth', newSeats: 25, newCycle: 'monthly', coupon: 'FREE' }],
    ['an unknown plan', { newPlan: 'gold', newSeats: 25, newCycle: 'monthly' }],
    ['no card for a change that costs something', { newPlan: 'growth', newSeats: 25, newCycle: 'monthly' }],
  ])('upgrade with %s', async (_name, body) => {
    const before = await insertSubscription(t.db, t.organizationId, core10);
    t.clock.set(new Date('2024-01-17T10:00:00.000Z'));
    const response = await requestChange(t, body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, code: 'validation_error' });
    await expectNothingChanged(before);
  });

  it("refuses an M-Pesa number with 400, and an unknown, removed or other organization's card with 404", async () => {
    const before = await insertSubscription(t.db, t.organizationId, core10);
    t.clock.set(new Date('2024-01-17T10:00:00.000Z'));
    const body = (paymentMethodId: string) => ({
      newPlan: 'growth',
      newSeats: 25,
      newCycle: 'monthly',
      paymentMethodId,
    });

    const number = await requestChange(t, body(await insertSavedNumber(t.db, t.organizationId)));
    expect(number.statusCode).toBe(400);
    expect(number.json().error).toContain('Only a saved bank card');

    const otherCard = await insertSavedCard(t.db, t.otherOrganizationId);
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', otherCard]) {
      const response = await requestChange(t, body(id));
      expect(response.statusCode, id).toBe(404);
      expect(response.json().error).toBe('Payment method not found');
    }
    await expectNothingChanged(before);
  });
});

describe('GET /v1/billing/subscription', () => {
  it('shows the subscription with its price and the credit balance, or null without one', async () => {
    const empty = await t.app.inject({ method: 'GET', url: '/v1/billing/subscription', headers: await t.headers() });
    expect(empty.json()).toEqual({ success: true, data: null });

    const cardId = await insertSavedCard(t.db, t.organizationId);
    await insertSubscription(t.db, t.organizationId, {
      plan: 'growth',
      seats: 120,
      cycle: 'yearly',
      anchor: '2024-01-31',
      credit: 450,
      paymentMethodId: cardId,
    });
    const response = await t.app.inject({ method: 'GET', url: '/v1/billing/subscription', headers: await t.headers() });
    expect(response.json()).toEqual({
      success: true,
      data: {
        plan: 'growth',
        seats: 120,
        billingCycle: 'yearly',
        status: 'active',
        currentPeriodStart: '2024-01-31T00:00:00.000Z',
        currentPeriodEnd: '2025-01-31T00:00:00.000Z',
        renewsAt: '2025-01-31T00:00:00.000Z',
        cancelAtPeriodEnd: false,
        canceledAt: null,
        endedAt: null,
        scheduledChange: null,
        price: { tier: '51-500', pricePerSeatMonthly: 130, monthlyTotal: 15_600, total: 156_000 },
        creditBalance: 450,
        paymentMethodId: cardId,
        changeInProgress: false,
      },
    });
  });

  it('shows only the organization in X-Organization-Id, to its members', async () => {
    await insertSubscription(t.db, t.otherOrganizationId, {
      plan: 'scale',
      seats: 5,
      cycle: 'monthly',
      anchor: '2024-01-01',
    });
    const mine = await t.app.inject({ method: 'GET', url: '/v1/billing/subscription', headers: await t.headers() });
    expect(mine.json().data).toBeNull();
    const theirs = await t.app.inject({
      method: 'GET',
      url: '/v1/billing/subscription',
      headers: await t.headers({ 'x-organization-id': t.otherOrganizationId }),
    });
    expect(theirs.statusCode).toBe(403);
  });
});

describe('OpenAPI', () => {
  it('documents the subscription routes, with the three preview parameters required', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/v1/billing/subscription', '/v1/billing/upgrade/preview', '/v1/billing/upgrade']),
    );
    const parameters = document.paths['/v1/billing/upgrade/preview'].get.parameters as {
      name: string;
      in: string;
      required: boolean;
    }[];
    const query = parameters.filter((parameter) => parameter.in === 'query');
    expect(query.map((parameter) => [parameter.name, parameter.required])).toEqual([
      ['newPlan', true],
      ['newSeats', true],
      ['newCycle', true],
    ]);
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining([
        'UpgradePreview',
        'UpgradePreviewResponse',
        'MailSubscription',
        'MailSubscriptionResponse',
      ]),
    );
  });
});
