import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formKeyIn } from '../../../test/dashboard-billing-fixtures.js';
import { cookieOf, csrfOf, type DashboardHarness, startDashboardHarness } from '../../../test/dashboard-harness.js';
import { insertOrganization } from '../../../test/helpers.js';
import { listPayments } from '../billing/index.js';
import { listOrganizationWallets } from '../wallets/index.js';

// The Wallet page (docs/decisions.md#dashboard-pages): both balances and the statement, the free test top-up (once
// per form, whatever the number of posts), the live top-up locked until activation, and who sees which control.

let h: DashboardHarness;
let owner: string;
let organizationId: string;
let lockedId: string;

const OWNER = { sub: 'user_wallet_owner', email: 'amani@example.com', givenName: 'Amani', familyName: 'Mwangi' };
const MEMBER = { sub: 'user_wallet_member', email: 'baraka@example.com', givenName: 'Baraka', familyName: 'Kiprop' };
const FROM = () => `/dashboard/billing/wallet?env=test&org=${organizationId}`;

async function testBalance(id: string): Promise<number> {
  const wallets = await listOrganizationWallets(h.t.db, id);
  return wallets.find((wallet) => wallet.environment === 'test')?.available ?? -1;
}

const NO_FILTER = { status: undefined, method: undefined, purpose: undefined, from: undefined, to: undefined };

beforeAll(async () => {
  h = await startDashboardHarness();
  const pochi = await h.organizationWith('Pochi Traders', { owner: OWNER, member: MEMBER });
  organizationId = pochi.id;
  owner = pochi.cookies.owner;
  lockedId = await insertOrganization(h.t.db, {
    name: 'Not Yet Live',
    activated: false,
    members: [{ userId: OWNER.sub, role: 'owner' }],
  });
});
afterAll(async () => {
  await h?.close();
});

describe('the Wallet page', () => {
  it('shows both balances and the test statement, with the test top-up form', async () => {
    const page = await h.get(`/dashboard/billing/wallet?org=${organizationId}&env=test`, owner);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Test wallet: available');
    expect(page.body).toContain('Live wallet: available');
    expect(page.body).toContain('action="/dashboard/billing/wallet/test-top-up"');
    expect(page.body).toContain('Test wallet statement');
    expect(page.body).toContain('href="/dashboard/billing"');
  });

  it('tops up the test wallet once, however many times the form is posted', async () => {
    const before = await testBalance(organizationId);
    const page = await h.get(FROM(), owner);
    const key = formKeyIn(page.body);
    const first = await h.post('/dashboard/billing/wallet/test-top-up', owner, { key, amount: '12,500' }, FROM());
    expect(first.statusCode).toBe(303);
    expect(first.headers.location).toBe('/dashboard/billing/wallet?notice=topped_up');
    const again = await h.post('/dashboard/billing/wallet/test-top-up', owner, { key, amount: '12,500' }, FROM());
    expect(again.statusCode).toBe(303);
    expect(await testBalance(organizationId)).toBe(before + 12_500);
    const after = await h.get(`${String(first.headers.location)}&org=${organizationId}`, owner);
    expect(after.body).toContain('The test wallet is topped up.');
    expect(after.body).toContain('KES 12,500');
    expect(after.body).toContain('Top-up');
  });

  it('refuses an amount that is not whole shillings, keeping the form and changing nothing', async () => {
    const before = await testBalance(organizationId);
    for (const amount of ['', '0', '12.50', 'ten', '1000000001']) {
      const page = await h.get(FROM(), owner);
      const refused = await h.post(
        '/dashboard/billing/wallet/test-top-up',
        owner,
        { key: formKeyIn(page.body), amount },
        FROM(),
      );
      expect(refused.statusCode, amount).toBe(400);
      expect(refused.body).toContain('role="alert"');
      expect(refused.body).toContain(`value="${amount}"`);
    }
    const noKey = await h.post('/dashboard/billing/wallet/test-top-up', owner, { amount: '100' }, FROM());
    expect(noKey.statusCode).toBe(400);
    expect(await testBalance(organizationId)).toBe(before);
  });

  it('locks live top-ups until the organization is activated, and links to the activation', async () => {
    const page = await h.get(`/dashboard/billing/wallet?org=${lockedId}&env=live`, owner);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Live top-ups are locked until the organization is activated');
    expect(page.body).toContain('href="/dashboard/activation"');
    expect(page.body).not.toContain('action="/dashboard/billing/wallet/top-up"');
    const cookie = cookieOf(page, owner);
    const refused = await h.post(
      '/dashboard/billing/wallet/top-up',
      cookie,
      { key: crypto.randomUUID(), amount: '500', method: 'card' },
      '/dashboard/billing/wallet',
    );
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('not activated');
  });

  it('starts a live card top-up at the sandbox checkout, once per form', async () => {
    const page = await h.get(`/dashboard/billing/wallet?org=${organizationId}&env=live`, owner);
    expect(page.body).toContain('action="/dashboard/billing/wallet/top-up"');
    // The answer sends the browser to the checkout: the page's forms may go there.
    expect(page.headers['content-security-policy']).toContain("form-action 'self' http://main-api.test");
    const cookie = cookieOf(page, owner);
    const fields = { key: formKeyIn(page.body), amount: '2000', method: 'card' };
    const started = await h.post('/dashboard/billing/wallet/top-up', cookie, fields, '/dashboard/billing/wallet');
    expect(started.statusCode).toBe(303);
    expect(String(started.headers.location)).toMatch(/^http:\/\/main-api\.test\/.*PAY-/);
    // The same form again (a second click, a reload): back to the same checkout, no second payment.
    const again = await h.post('/dashboard/billing/wallet/top-up', cookie, fields, '/dashboard/billing/wallet');
    expect(again.statusCode).toBe(303);
    expect(again.headers.location).toBe(started.headers.location);
    const payments = await listPayments(h.t.db, organizationId, { ...NO_FILTER, limit: 10, cursor: undefined });
    expect(payments.payments).toHaveLength(1);
  });

  it('starts one payment when the same form is posted several times at the same instant', async () => {
    const paymentsNow = async () =>
      (await listPayments(h.t.db, organizationId, { ...NO_FILTER, limit: 100, cursor: undefined })).payments.length;
    const before = await paymentsNow();
    const page = await h.get(`/dashboard/billing/wallet?org=${organizationId}&env=live`, owner);
    const cookie = cookieOf(page, owner);
    const payload = new URLSearchParams({
      key: formKeyIn(page.body),
      amount: '3000',
      method: 'card',
      _csrf: csrfOf(page.body),
    }).toString();
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        h.t.app.inject({
          method: 'POST',
          url: '/dashboard/billing/wallet/top-up',
          headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
          payload,
        }),
      ),
    );
    expect(await paymentsNow()).toBe(before + 1);
    const sent = answers.filter((answer) => answer.statusCode === 303);
    expect(sent.length).toBeGreaterThanOrEqual(1);
    expect(new Set(sent.map((answer) => answer.headers.location)).size).toBe(1);
    // The others were refused while the first ran, and said so on the page.
    for (const refused of answers.filter((answer) => answer.statusCode !== 303)) {
      expect(refused.statusCode).toBe(409);
      expect(refused.body).toContain('This form is being sent already');
    }
  });

  it('shows a member the balances but no top-up, and refuses the form', async () => {
    const cookie = await h.signIn(MEMBER);
    const page = await h.get(`/dashboard/billing/wallet?org=${organizationId}&env=test`, cookie);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Test wallet: available');
    expect(page.body).not.toContain('action="/dashboard/billing/wallet/test-top-up"');
    const refused = await h.post(
      '/dashboard/billing/wallet/test-top-up',
      cookieOf(page, cookie),
      { key: crypto.randomUUID(), amount: '100' },
      '/dashboard/billing/wallet',
    );
    expect(refused.statusCode).toBe(403);
  });

  it('speaks Kiswahili', async () => {
    const page = await h.get(`/dashboard/billing/wallet?org=${organizationId}&env=test&lang=sw`, owner);
    expect(page.body).toContain('<html lang="sw"');
    expect(page.body).toContain('Ongeza salio la majaribio');
  });
});
