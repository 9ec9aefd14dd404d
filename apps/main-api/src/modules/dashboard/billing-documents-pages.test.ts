import { notifications } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeSandboxCheckout, referenceIn, topUpLive } from '../../../test/dashboard-billing-fixtures.js';
import { type DashboardHarness, startDashboardHarness } from '../../../test/dashboard-harness.js';

// Receipts and invoices opened in a browser (docs/decisions.md#dashboard-pages): the link of a notification opens the
// document with the dashboard's cookie; another organization's reference, an unknown one and a payment without the
// document are the 404 page.

let h: DashboardHarness;
let owner: string;
let organizationId: string;
let paidReference: string;
let transferReference: string;

const OWNER = { sub: 'user_documents_owner', email: 'neema@example.com', givenName: 'Neema', familyName: 'Achieng' };
const OTHER = { sub: 'user_documents_other', email: 'juma@example.com', givenName: 'Juma', familyName: 'Ali' };

beforeAll(async () => {
  h = await startDashboardHarness();
  const risiti = await h.organizationWith('Risiti Ltd', { owner: OWNER });
  organizationId = risiti.id;
  owner = risiti.cookies.owner;
  await h.organizationWith('Elsewhere Ltd', { owner: OTHER });
  const started = await topUpLive(h, owner, organizationId, { amount: '3000', method: 'card' });
  paidReference = referenceIn(String(started.headers.location));
  await completeSandboxCheckout(h, String(started.headers.location));
  const transfer = await topUpLive(h, owner, organizationId, { amount: '4000', method: 'bank_transfer' });
  expect(transfer.statusCode).toBe(303);
  transferReference = /PAY-[0-9a-f-]+/.exec(String(transfer.headers.location))?.[0] ?? '';
});
afterAll(async () => {
  await h?.close();
});

describe("a payment's documents in a browser", () => {
  it("opens the receipt from its notification's link, with the dashboard's cookie", async () => {
    const all = await h.t.db.select().from(notifications).where(eq(notifications.userId, OWNER.sub));
    const told = all.find((note) => note.title === 'Receipt issued');
    expect(told?.actionUrl).toBe(`/dashboard/billing/payments/${paidReference}/receipt?org=${organizationId}`);
    const receipt = await h.get(String(told?.actionUrl), owner);
    expect(receipt.statusCode).toBe(200);
    expect(receipt.headers['content-type']).toContain('text/html');
    expect(receipt.headers['cache-control']).toBe('private, no-store');
    expect(receipt.body).toContain('RCT-');
    expect(receipt.body).toContain(paidReference);
    expect(receipt.body).toContain('KES 3,000');
    const pdf = await h.t.app.inject({
      method: 'GET',
      url: String(told?.actionUrl),
      headers: { cookie: owner, accept: 'application/pdf' },
    });
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('sends a bank transfer to its invoice, which names the account and the reference to write', async () => {
    const invoice = await h.get(
      `/dashboard/billing/payments/${transferReference}/invoice?org=${organizationId}`,
      owner,
    );
    expect(invoice.statusCode).toBe(200);
    expect(invoice.body).toContain('INV-');
    expect(invoice.body).toContain('KES 4,000');
  });

  it('answers a document the payment does not have, an unknown or malformed reference with the 404 page', async () => {
    for (const url of [
      `/dashboard/billing/payments/${transferReference}/receipt`,
      `/dashboard/billing/payments/${paidReference}/invoice`,
      '/dashboard/billing/payments/PAY-00000000-0000-4000-8000-000000000000/receipt',
      '/dashboard/billing/payments/not-a-reference/receipt',
    ]) {
      const page = await h.get(`${url}?org=${organizationId}`, owner);
      expect(page.statusCode, url).toBe(404);
      expect(page.headers['content-type']).toContain('text/html');
    }
  });

  it("answers another organization's member with the 404 page, and a browser without a session with sign-in", async () => {
    const other = await h.signIn(OTHER);
    expect(other).not.toBe('');
    const page = await h.get(`/dashboard/billing/payments/${paidReference}/receipt`, other);
    expect(page.statusCode).toBe(404);
    expect(page.body).not.toContain(paidReference);
    const stranger = await h.get(`/dashboard/billing/payments/${paidReference}/receipt?org=${organizationId}`, other);
    expect(stranger.statusCode).toBe(404);
    const anonymous = await h.t.app.inject({
      method: 'GET',
      url: `/dashboard/billing/payments/${paidReference}/receipt`,
    });
    expect(anonymous.statusCode).toBe(303);
    expect(anonymous.headers.location).toBe('/login');
  });
});
