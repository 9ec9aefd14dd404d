import { paymentMethods } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  allPayments,
  type BillingTestApp,
  liveBalance,
  paymentByReference,
} from '../../../../test/billing-fixtures.js';
import { usePayApp } from '../../../../test/pay-fixtures.js';
import { submitSandboxCheckout } from '../../../../test/sandbox-checkout.js';

// POST /v1/billing/pay with a saved method: a saved card charged at once, and a removed method never charged.

const suite = usePayApp();
const { pay } = suite;
let t: BillingTestApp;
beforeAll(() => {
  t = suite.t;
});

describe('POST /v1/billing/pay with saved_method', () => {
  it('charges a saved card at once and answers success and a message', async () => {
    const first = (await pay({ method: 'card', amount: 1000 })).json();
    await submitSandboxCheckout(t, first.checkoutUrl, 'pay');
    const [card] = await t.db.select().from(paymentMethods);
    const before = await liveBalance(t.db, t.organizationId);

    const response = await pay({ method: 'saved_method', amount: 4000, paymentMethodId: card?.id });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ success: true, message: 'Payment of KES 4,000 successful.' });
    expect(await liveBalance(t.db, t.organizationId)).toBe(before + 4000);
    expect(await paymentByReference(t.db, response.json().reference)).toMatchObject({
      method: 'saved_method',
      channel: 'card',
      status: 'succeeded',
      paymentMethodId: card?.id,
    });
  });

  it("gives 404 for an unknown, removed or another organization's method", async () => {
    const [other] = await t.db
      .insert(paymentMethods)
      .values({
        organizationId: t.otherOrganizationId,
        type: 'mobile_money',
        provider: 'sandbox',
        fingerprint: '254711000000',
        phone: '254711000000',
      })
      .returning();
    for (const id of [other?.id, '6a0c9c52-52c4-4a27-9d1a-0d2a8c3f0b11', 'not-a-uuid']) {
      const response = await pay({ method: 'saved_method', amount: 100, paymentMethodId: id });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'not_found', error: 'Payment method not found' });
    }
    expect(await allPayments(t.db)).toEqual([]);
  });
});

describe('DELETE /v1/billing/payment-methods/:id', () => {
  it("removes the organization's own method only, and removing it again succeeds", async () => {
    const [own] = await t.db
      .insert(paymentMethods)
      .values({
        organizationId: t.organizationId,
        type: 'mobile_money',
        provider: 'sandbox',
        fingerprint: '254712000000',
        phone: '254712000000',
      })
      .returning();
    const [other] = await t.db
      .insert(paymentMethods)
      .values({
        organizationId: t.otherOrganizationId,
        type: 'mobile_money',
        provider: 'sandbox',
        fingerprint: '254712000000',
        phone: '254712000000',
      })
      .returning();
    const remove = async (id: string | undefined) =>
      t.app.inject({ method: 'DELETE', url: `/v1/billing/payment-methods/${id}`, headers: await t.headers() });

    expect((await remove(other?.id)).statusCode).toBe(404);
    expect((await remove('not-a-uuid')).statusCode).toBe(404);
    const removed = await remove(own?.id);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ success: true, message: 'Payment method removed' });
    expect((await remove(own?.id)).statusCode).toBe(200);

    const list = await t.app.inject({ method: 'GET', url: '/v1/billing/payment-methods', headers: await t.headers() });
    expect(list.json().data.paymentMethods).toEqual([]);
    const [otherAfter] = await t.db
      .select()
      .from(paymentMethods)
      .where(eq(paymentMethods.id, other?.id ?? ''));
    expect(otherAfter?.deletedAt).toBeNull();

    const charge = await pay({ method: 'saved_method', amount: 100, paymentMethodId: own?.id });
    expect(charge.statusCode).toBe(404);
  });
});
