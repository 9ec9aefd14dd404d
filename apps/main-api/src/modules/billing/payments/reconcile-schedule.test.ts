import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '#test-timing';
import {
  type BillingTestApp,
  liveBalance,
  paymentByReference,
  startBillingApp,
} from '../../../../test/billing-fixtures.js';

// The app runs the reconciliation job on its own every PAYMENT_RECONCILE_INTERVAL_MS once ready.

const MINUTE = 60_000;
let t: BillingTestApp;

beforeAll(async () => {
  t = await startBillingApp({ env: { SANDBOX_STK_DELAY_MS: '0', PAYMENT_RECONCILE_INTERVAL_MS: '50' } });
});
afterAll(async () => {
  await t?.close();
});

describe('the reconciliation job started by the app', () => {
  it('settles a payment whose callback was lost without being asked', async () => {
    const before = await liveBalance(t.db, t.organizationId);
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/billing/pay',
      headers: await t.headers(),
      // The sandbox number that pays but never calls back: only the status query finds the success.
      payload: { method: 'mobile_money', amount: 300, phone: '0700000004' },
    });
    expect(response.statusCode).toBe(200);
    const { reference } = response.json() as { reference: string };
    expect((await paymentByReference(t.db, reference)).status).toBe('pending');

    t.clock.advance(3 * MINUTE);
    await eventually(async () => (await paymentByReference(t.db, reference)).status === 'succeeded');
    expect(await liveBalance(t.db, t.organizationId)).toBe(before + 300);
  });
});
