import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DashboardHarness, startDashboardHarness } from '../../../test/dashboard-harness.js';
import { insertOrganization } from '../../../test/helpers.js';
import { auditEventsOf } from '../../../test/verification-session-fixtures.js';
import { getOrganization } from '../organizations/index.js';
import { listOrganizationWallets } from '../wallets/index.js';

// The Settings page (docs/decisions.md#dashboard-pages) as a signed-in browser meets it: the organization's details
// through PATCH /v1/organizations/:id's service and rules (owners only), the low-balance thresholds through the
// wallet route's service (the billing roles), refusals that change nothing, roles, another organization, Kiswahili.

let h: DashboardHarness;
let owner: string;
let billing: string;
let developer: string;
let organizationId: string;
let otherOrganizationId: string;

const OWNER = { sub: 'user_set_owner', email: 'owner@settings.example', givenName: 'Achieng', familyName: 'Otieno' };
const BILLING = { sub: 'user_set_billing', email: 'billing@settings.example', givenName: 'Kip', familyName: 'Rono' };
const DEVELOPER = { sub: 'user_set_dev', email: 'dev@settings.example', givenName: 'Zawadi', familyName: 'Moraa' };

beforeAll(async () => {
  h = await startDashboardHarness();
  const mazao = await h.organizationWith('Mazao Traders', { owner: OWNER, billing: BILLING, developer: DEVELOPER });
  organizationId = mazao.id;
  ({ owner, billing, developer } = mazao.cookies);
  otherOrganizationId = await insertOrganization(h.t.db, { name: 'Someone Else Ltd' });
});
afterAll(async () => {
  await h?.close();
});

const detailsOf = () => getOrganization(h.t.db, OWNER.sub, organizationId);
const thresholdsOf = async () =>
  Object.fromEntries(
    (await listOrganizationWallets(h.t.db, organizationId)).map((wallet) => [
      wallet.environment,
      wallet.lowBalanceThreshold,
    ]),
  );
const from = () => `/dashboard/settings?org=${organizationId}`;

describe("the organization's details", () => {
  it('shows an owner the form with the stored values', async () => {
    const page = await h.get(from(), owner);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Mazao Traders');
    expect(page.body).toContain('action="/dashboard/settings"');
    expect(page.body).toContain('name="kraPin"');
    expect(page.body).toContain('<a href="/dashboard/settings" aria-current="page"');
  });

  it('saves name, KRA PIN, address and billing email under the API rules, audited', async () => {
    const saved = await h.post(
      '/dashboard/settings',
      owner,
      {
        name: ' Mazao Traders Ltd ',
        kraPin: 'p051234567q',
        address: 'Kilimani Business Centre\r\n\r\nNairobi',
        billingEmail: 'accounts@mazao.example',
      },
      from(),
    );
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe('/dashboard/settings?notice=saved');
    expect(await detailsOf()).toMatchObject({
      name: 'Mazao Traders Ltd',
      kraPin: 'P051234567Q',
      address: 'Kilimani Business Centre\nNairobi',
      billingEmail: 'accounts@mazao.example',
    });
    expect(await auditEventsOf(h.t.db, organizationId, 'organization.updated')).toHaveLength(1);
    const page = await h.get(String(saved.headers.location), owner);
    expect(page.body).toContain('The details are saved.');
    expect(page.body).toContain('value="P051234567Q"');
  });

  it('answers bad input with the form again (400), the values kept, changing nothing', async () => {
    const before = await detailsOf();
    const refused = await h.post(
      '/dashboard/settings',
      owner,
      { name: 'Renamed', kraPin: 'A12', address: 'One', billingEmail: 'not an address' },
      from(),
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('role="alert"');
    expect(refused.body).toContain('Check KRA PIN: must be a KRA PIN');
    expect(refused.body).toContain('must be an email address');
    expect(refused.body).toContain('value="Renamed"');
    expect(refused.body).toContain('value="A12"');
    expect(refused.body).toContain('value="not an address"');
    expect(await detailsOf()).toEqual(before);
  });

  it('clears an optional detail left empty', async () => {
    const saved = await h.post('/dashboard/settings', owner, { billingEmail: '  ' }, from());
    expect(saved.statusCode).toBe(303);
    expect((await detailsOf()).billingEmail).toBeNull();
  });

  it('shows the other roles the details without the form, and refuses their save', async () => {
    const page = await h.get(from(), billing);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Mazao Traders Ltd');
    expect(page.body).not.toContain('action="/dashboard/settings"');
    expect(page.body).toContain('Only an owner can change these details.');
    const refused = await h.post('/dashboard/settings', billing, { name: 'Taken over' }, from());
    expect(refused.statusCode).toBe(403);
    expect((await detailsOf()).name).toBe('Mazao Traders Ltd');
  });

  it("answers another organization's settings with the 404 page", async () => {
    const page = await h.get(`/dashboard/settings?org=${otherOrganizationId}`, owner);
    expect(page.statusCode).toBe(404);
    expect(page.body).not.toContain('Someone Else Ltd');
  });
});

describe('the low-balance alerts', () => {
  it('sets and clears the thresholds of both wallets for a billing member, audited', async () => {
    const page = await h.get(from(), billing);
    expect(page.body).toContain('action="/dashboard/settings/low-balance"');
    const saved = await h.post('/dashboard/settings/low-balance', billing, { live: '5000', test: '250' }, from());
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe('/dashboard/settings?notice=alerts');
    expect(await thresholdsOf()).toEqual({ live: 5000, test: 250 });
    expect(await auditEventsOf(h.t.db, organizationId, 'wallet.low_balance_threshold_changed')).toHaveLength(2);
    // Unchanged values are not set again (no second audit event, the alert not re-armed).
    const cleared = await h.post('/dashboard/settings/low-balance', billing, { live: '5000', test: '' }, from());
    expect(cleared.statusCode).toBe(303);
    expect(await thresholdsOf()).toEqual({ live: 5000, test: null });
    expect(await auditEventsOf(h.t.db, organizationId, 'wallet.low_balance_threshold_changed')).toHaveLength(3);
  });

  it('refuses a threshold that is not whole KES (400), changing neither wallet', async () => {
    const before = await thresholdsOf();
    for (const live of ['-5', '12.5', 'lots']) {
      const refused = await h.post('/dashboard/settings/low-balance', owner, { live, test: '100' }, from());
      expect(refused.statusCode).toBe(400);
      expect(refused.body).toContain('must be a whole number of KES');
      expect(refused.body).toContain(`value="${live}"`);
      expect(await thresholdsOf()).toEqual(before);
    }
  });

  it('shows a developer the thresholds without a form, and refuses their save', async () => {
    const page = await h.get(from(), developer);
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('action="/dashboard/settings/low-balance"');
    expect(page.body).toContain('KES 5,000');
    const refused = await h.post('/dashboard/settings/low-balance', developer, { live: '1' }, from());
    expect(refused.statusCode).toBe(403);
    expect((await thresholdsOf()).live).toBe(5000);
  });
});

describe('Settings in Kiswahili', () => {
  it('speaks Kiswahili when asked', async () => {
    const page = await h.get(`${from()}&lang=sw`, owner);
    expect(page.body).toContain('<html lang="sw"');
    expect(page.body).toContain('Mipangilio');
    expect(page.body).toContain('Arifa za salio la chini');
  });
});
