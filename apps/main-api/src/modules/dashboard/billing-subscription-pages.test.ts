import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeSandboxCheckout, formKeyIn } from '../../../test/dashboard-billing-fixtures.js';
import { cookieOf, type DashboardHarness, startDashboardHarness } from '../../../test/dashboard-harness.js';
import { insertOrganization } from '../../../test/helpers.js';
import { insertSavedCard, insertSubscription, subscriptionOf } from '../../../test/subscription-fixtures.js';
import { subscriptionViewOf } from '../billing/index.js';

// The Subscription page and choosing a plan (docs/decisions.md#dashboard-pages): the facts, cancel and resume, the
// price list's price and the server's preview, a purchase at the sandbox checkout and a change charged to a saved
// card, each once per form; and what a role without billing:write sees.

let h: DashboardHarness;
let owner: string;
let subscribedId: string;
let newcomerId: string;
let cardId: string;

const OWNER = { sub: 'user_plan_owner', email: 'wairimu@example.com', givenName: 'Wairimu', familyName: 'Njeri' };
const DEVELOPER = { sub: 'user_plan_dev', email: 'kamau@example.com', givenName: 'Kamau', familyName: 'Otieno' };
const today = () => new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  h = await startDashboardHarness();
  const barua = await h.organizationWith('Barua Ltd', { owner: OWNER, developer: DEVELOPER });
  subscribedId = barua.id;
  owner = barua.cookies.owner;
  newcomerId = await insertOrganization(h.t.db, { name: 'Mpya Ltd', members: [{ userId: OWNER.sub }] });
  cardId = await insertSavedCard(h.t.db, subscribedId);
  await insertSubscription(h.t.db, subscribedId, {
    plan: 'core',
    seats: 10,
    cycle: 'monthly',
    anchor: today(),
    paymentMethodId: cardId,
  });
});
afterAll(async () => {
  await h?.close();
});

const at = (path: string, organizationId: string) => `${path}${path.includes('?') ? '&' : '?'}org=${organizationId}`;

describe('the Subscription page', () => {
  it('shows the plan, seats, cycle, status and next renewal, with the cancel form', async () => {
    const page = await h.get(at('/dashboard/billing', subscribedId), owner);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Core');
    expect(page.body).toContain('Monthly');
    expect(page.body).toContain('Active');
    expect(page.body).toContain('Next renewal');
    expect(page.body).toContain('action="/dashboard/billing/subscription/cancel"');
    expect(page.body).toContain('href="/dashboard/billing/plan"');
  });

  it('cancels at the period end and resumes, each once', async () => {
    const from = at('/dashboard/billing', subscribedId);
    const canceled = await h.post('/dashboard/billing/subscription/cancel', owner, {}, from);
    expect(canceled.statusCode).toBe(303);
    expect(canceled.headers.location).toBe('/dashboard/billing?notice=canceled');
    expect((await subscriptionOf(h.t.db, subscribedId)).cancelAtPeriodEnd).toBe(true);
    const page = await h.get(at(String(canceled.headers.location), subscribedId), owner);
    expect(page.body).toContain('Set to cancel');
    expect(page.body).toContain('action="/dashboard/billing/subscription/resume"');
    const resumed = await h.post('/dashboard/billing/subscription/resume', owner, {}, from);
    expect(resumed.statusCode).toBe(303);
    expect((await subscriptionOf(h.t.db, subscribedId)).cancelAtPeriodEnd).toBe(false);
    const again = await h.post('/dashboard/billing/subscription/resume', owner, {}, from);
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain('role="alert"');
  });

  it('shows a developer the subscription without a control, and refuses the forms', async () => {
    const cookie = await h.signIn(DEVELOPER);
    const page = await h.get(at('/dashboard/billing', subscribedId), cookie);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Core');
    expect(page.body).not.toContain('subscription/cancel');
    expect(page.body).not.toContain('href="/dashboard/billing/plan"');
    const refused = await h.post(
      '/dashboard/billing/subscription/cancel',
      cookieOf(page, cookie),
      {},
      at('/dashboard', subscribedId),
    );
    expect(refused.statusCode).toBe(403);
    const plan = await h.get(at('/dashboard/billing/plan?plan=growth&seats=20&cycle=monthly', subscribedId), cookie);
    expect(plan.statusCode).toBe(200);
    expect(plan.body).toContain('Due today');
    expect(plan.body).not.toContain('method="post" action="/dashboard/billing/plan"');
  });

  it('speaks Kiswahili', async () => {
    const page = await h.get(at('/dashboard/billing?lang=sw', subscribedId), owner);
    expect(page.body).toContain('<html lang="sw"');
    expect(page.body).toContain('Usasishaji unaofuata');
  });
});

describe('choosing a plan', () => {
  it('prices the choice from the price list and previews the change as the server does', async () => {
    const page = await h.get(at('/dashboard/billing/plan?plan=growth&seats=20&cycle=monthly', subscribedId), owner);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('selected');
    expect(page.body).toMatch(/Price list: KES [\d,]+ a period/);
    expect(page.body).toContain('Due today');
    expect(page.body).toContain('visa card ending 4081');
    expect(page.headers['content-security-policy']).toContain("form-action 'self' http://main-api.test");
  });

  it('says what is wrong with a choice it cannot price, keeping it', async () => {
    for (const seats of ['0', 'many', '2000000']) {
      const page = await h.get(
        at(`/dashboard/billing/plan?plan=growth&seats=${seats}&cycle=monthly`, subscribedId),
        owner,
      );
      expect(page.statusCode, seats).toBe(400);
      expect(page.body).toContain('role="alert"');
      expect(page.body).toContain(`value="${seats}"`);
    }
    const same = await h.get(at('/dashboard/billing/plan?plan=core&seats=10&cycle=monthly', subscribedId), owner);
    expect(same.statusCode).toBe(400);
  });

  it('changes the plan, charged to the saved card, once per form', async () => {
    const from = at('/dashboard/billing/plan?plan=growth&seats=20&cycle=monthly', subscribedId);
    const page = await h.get(from, owner);
    const fields = {
      key: formKeyIn(page.body),
      plan: 'growth',
      seats: '20',
      cycle: 'monthly',
      paymentMethodId: cardId,
    };
    const changed = await h.post('/dashboard/billing/plan', owner, fields, from);
    expect(changed.statusCode).toBe(303);
    expect(String(changed.headers.location)).toMatch(/^\/dashboard\/billing\?notice=(changed|charging)$/);
    const view = await subscriptionViewOf(h.t.db, subscribedId);
    expect(view).toMatchObject({ plan: 'growth', seats: 20 });
    const again = await h.post('/dashboard/billing/plan', owner, fields, from);
    expect(again.statusCode).toBe(303);
    expect(await subscriptionViewOf(h.t.db, subscribedId)).toMatchObject({ plan: 'growth', seats: 20 });
  });

  it('buys a plan at the sandbox checkout, and the subscription starts when it is paid', async () => {
    const from = at('/dashboard/billing/plan?plan=scale&seats=5&cycle=yearly', newcomerId);
    const page = await h.get(from, owner);
    expect(page.body).toContain('You pay');
    const fields = { key: formKeyIn(page.body), plan: 'scale', seats: '5', cycle: 'yearly' };
    const started = await h.post('/dashboard/billing/plan', owner, fields, from);
    expect(started.statusCode).toBe(303);
    expect(String(started.headers.location)).toMatch(/^http:\/\/main-api\.test\/.*PAY-/);
    // The same form again goes to the same checkout: one payment.
    const twice = await h.post('/dashboard/billing/plan', owner, fields, from);
    expect(twice.statusCode).toBe(303);
    expect(twice.headers.location).toBe(started.headers.location);
    expect(await subscriptionViewOf(h.t.db, newcomerId)).toBeNull();
    await completeSandboxCheckout(h, String(started.headers.location));
    expect(await subscriptionViewOf(h.t.db, newcomerId)).toMatchObject({ plan: 'scale', seats: 5, status: 'active' });
  });

  it('refuses a confirm form without its key or with bad terms, changing nothing', async () => {
    const from = at('/dashboard/billing/plan', newcomerId);
    for (const fields of <Record<string, string>[]>[
      { plan: 'growth', seats: '3', cycle: 'monthly' },
      { key: crypto.randomUUID(), plan: 'gold', seats: '3', cycle: 'monthly' },
      { key: crypto.randomUUID(), plan: 'growth', seats: '-3', cycle: 'weekly' },
    ]) {
      const refused = await h.post('/dashboard/billing/plan', owner, fields, from);
      expect(refused.statusCode).toBe(400);
    }
    expect(await subscriptionViewOf(h.t.db, newcomerId)).toMatchObject({ plan: 'scale' });
  });
});
