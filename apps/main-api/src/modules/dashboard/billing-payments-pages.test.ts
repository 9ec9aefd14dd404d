import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertPayments } from '../../../test/billing-fixtures.js';
import { referenceIn, topUpLive } from '../../../test/dashboard-billing-fixtures.js';
import { type DashboardHarness, startDashboardHarness } from '../../../test/dashboard-harness.js';
import { insertOrganization } from '../../../test/helpers.js';
import { PAYMENTS_PAGE_SIZE } from './billing-payments-routes.js';

// The payment history (docs/decisions.md#dashboard-pages): the organization's payments only, its filters and cursor
// pages, each payment's document, and the CSV of the filtered history (quoted, with the formula guard).

let h: DashboardHarness;
let owner: string;
let organizationId: string;
let failedReference: string;
let transferReference: string;

const OWNER = { sub: 'user_history_owner', email: 'zawadi@example.com', givenName: 'Zawadi', familyName: 'Wekesa' };
const TRICKY = '=HYPERLINK("http://x.example"), then "quoted"\nand a new line';

beforeAll(async () => {
  h = await startDashboardHarness();
  const historia = await h.organizationWith('Historia Ltd', { owner: OWNER });
  organizationId = historia.id;
  owner = historia.cookies.owner;
  const otherId = await insertOrganization(h.t.db, { name: 'Other Ltd' });
  const at = (minute: number) => new Date(Date.UTC(2026, 10, 2, 7, minute));
  [failedReference = ''] = await insertPayments({ db: h.t.db, organizationId }, [
    { createdAt: at(1), status: 'failed', amount: 777, failureReason: TRICKY },
  ]);
  const transfer = await topUpLive(h, owner, organizationId, { amount: '9000', method: 'bank_transfer' });
  transferReference = referenceIn(String(transfer.headers.location));
  await insertPayments(
    { db: h.t.db, organizationId },
    Array.from({ length: PAYMENTS_PAGE_SIZE }, (_, index) => ({ createdAt: at(10 + index), amount: 100 + index })),
  );
  await insertPayments({ db: h.t.db, organizationId: otherId }, [{ createdAt: at(5), amount: 424_242 }], otherId);
});
afterAll(async () => {
  await h?.close();
});

const history = (query = '') => h.get(`/dashboard/billing/payments?org=${organizationId}${query}`, owner);

describe('the payment history', () => {
  it("lists the organization's payments, newest first, a page at a time", async () => {
    const first = await history();
    expect(first.statusCode).toBe(200);
    expect(first.body).not.toContain('424,242');
    expect(first.body.match(/<tr>/g)).toHaveLength(PAYMENTS_PAGE_SIZE + 1);
    expect(first.body).toContain(transferReference);
    const next = /href="(\/dashboard\/billing\/payments\?[^"]*cursor=[^"]+)"/.exec(first.body)?.[1];
    expect(next).toBeDefined();
    const second = await h.get(`${(next ?? '').replaceAll('&amp;', '&')}&org=${organizationId}`, owner);
    expect(second.body).toContain(failedReference);
    expect(second.body).toContain('First page');
  });

  it('filters by status, method and period, and says what it cannot read', async () => {
    const failed = await history('&status=failed');
    expect(failed.body).toContain(failedReference);
    expect(failed.body).not.toContain(transferReference);
    const transfers = await history('&method=bank_transfer');
    expect(transfers.body).toContain(transferReference);
    expect(transfers.body).toContain(`/dashboard/billing/payments/${transferReference}/invoice`);
    const before = await history('&to=2026-11-01');
    expect(before.body).toContain('No payment matches.');
    const bad = await history('&status=lost');
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('role="alert"');
    const badPeriod = await history('&from=2026-11-05&to=2026-11-01');
    expect(badPeriod.statusCode).toBe(400);
    expect(badPeriod.body).toContain('value="2026-11-05"');
  });

  it('downloads the filtered history as CSV, quoted, with the formula guard', async () => {
    const page = await history('&status=failed');
    expect(page.body).toContain('href="/dashboard/billing/payments.csv?status=failed"');
    const csv = await h.get(`/dashboard/billing/payments.csv?status=failed&org=${organizationId}`, owner);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="payments-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = csv.body.split('\r\n');
    expect(lines[0]).toContain('"reference"');
    expect(csv.body).toContain(`"${failedReference}"`);
    expect(csv.body).toContain('"\'=HYPERLINK(""http://x.example""), then ""quoted""\nand a new line"');
    expect(csv.body).not.toContain(transferReference);
    const all = await h.get(`/dashboard/billing/payments.csv?org=${organizationId}`, owner);
    expect(all.body.trim().split('\r\n')).toHaveLength(PAYMENTS_PAGE_SIZE + 3);
  });

  it('speaks Kiswahili', async () => {
    const page = await history('&lang=sw');
    expect(page.body).toContain('<html lang="sw"');
    expect(page.body).toContain('Historia ya malipo');
  });
});

describe('the page after a card checkout', () => {
  it("links back to the organization's payment history on the dashboard", async () => {
    const page = await h.t.app.inject({
      method: 'GET',
      url: `/v1/billing/checkout/complete?reference=${failedReference}`,
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`href="/dashboard/billing/payments?org=${organizationId}"`);
    expect(page.body).toContain('See your payments on the dashboard');
  });
});
