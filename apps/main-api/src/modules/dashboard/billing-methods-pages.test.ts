import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeSandboxCheckout, formKeyIn } from '../../../test/dashboard-billing-fixtures.js';
import { cookieOf, type DashboardHarness, startDashboardHarness } from '../../../test/dashboard-harness.js';
import { insertOrganization } from '../../../test/helpers.js';
import { insertSavedNumber } from '../../../test/subscription-fixtures.js';
import { listPaymentMethods } from '../billing/index.js';

// The payment methods page (docs/decisions.md#dashboard-pages): a card added by paying at the sandbox checkout, an
// M-Pesa number listed, a removal (once), another organization's method a 404, and a member without the controls.

let h: DashboardHarness;
let owner: string;
let organizationId: string;
let otherMethodId: string;
let otherId: string;

const OWNER = { sub: 'user_methods_owner', email: 'halima@example.com', givenName: 'Halima', familyName: 'Omondi' };
const MEMBER = { sub: 'user_methods_member', email: 'musa@example.com', givenName: 'Musa', familyName: 'Kibet' };
const page = () => `/dashboard/billing/payment-methods?env=live&org=${organizationId}`;

beforeAll(async () => {
  h = await startDashboardHarness();
  const njia = await h.organizationWith('Njia Ltd', { owner: OWNER, member: MEMBER });
  organizationId = njia.id;
  owner = njia.cookies.owner;
  await insertSavedNumber(h.t.db, organizationId);
  otherId = await insertOrganization(h.t.db, { name: 'Other Ltd' });
  otherMethodId = await insertSavedNumber(h.t.db, otherId);
});
afterAll(async () => {
  await h?.close();
});

describe('the payment methods page', () => {
  it('lists the saved M-Pesa number, and adds a card by paying with it at the checkout', async () => {
    const before = await h.get(page(), owner);
    expect(before.statusCode).toBe(200);
    expect(before.body).toContain('M-Pesa 0712345678');
    expect(before.body).toContain('Add a card: pay by card');
    const cookie = cookieOf(before, owner);
    const started = await h.post(
      '/dashboard/billing/wallet/top-up',
      cookie,
      { key: formKeyIn(before.body), method: 'card', amount: '100' },
      page(),
    );
    expect(started.statusCode).toBe(303);
    await completeSandboxCheckout(h, String(started.headers.location));
    const methods = await listPaymentMethods(h.t.db, organizationId);
    expect(methods.filter((method) => method.card !== null)).toHaveLength(1);
    const after = await h.get(page(), owner);
    expect(after.body).toMatch(/card ending \d{4}/);
  });

  it('removes a method, once, and answers an unknown, malformed or other organization method with the 404 page', async () => {
    const [method] = await listPaymentMethods(h.t.db, organizationId);
    const path = `/dashboard/billing/payment-methods/${method?.id}/remove`;
    const removed = await h.post(path, owner, {}, page());
    expect(removed.statusCode).toBe(303);
    expect(removed.headers.location).toBe('/dashboard/billing/payment-methods?notice=removed');
    expect((await listPaymentMethods(h.t.db, organizationId)).map(({ id }) => id)).not.toContain(method?.id);
    expect((await h.post(path, owner, {}, page())).statusCode).toBe(303);
    for (const id of [otherMethodId, '00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      const refused = await h.post(`/dashboard/billing/payment-methods/${id}/remove`, owner, {}, page());
      expect(refused.statusCode, id).toBe(404);
    }
    expect(await listPaymentMethods(h.t.db, otherId)).toHaveLength(1);
  });

  it('shows a member the methods without a control, and refuses the removal', async () => {
    const cookie = await h.signIn(MEMBER);
    const list = await h.get(page(), cookie);
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain('M-Pesa 0712345678');
    expect(list.body).not.toContain('/remove"');
    expect(list.body).not.toContain('Add a card');
    const [method] = await listPaymentMethods(h.t.db, organizationId);
    const refused = await h.post(
      `/dashboard/billing/payment-methods/${method?.id}/remove`,
      cookieOf(list, cookie),
      {},
      page(),
    );
    expect(refused.statusCode).toBe(403);
    expect(await listPaymentMethods(h.t.db, organizationId)).toHaveLength(1);
  });

  it('speaks Kiswahili', async () => {
    const list = await h.get(`${page()}&lang=sw`, owner);
    expect(list.body).toContain('<html lang="sw"');
    expect(list.body).toContain('Njia za malipo');
  });
});
