import { tableChecksums } from '@platform/db/testing';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type BillingTestApp,
  deletePayments,
  insertPayments,
  OUTSIDER_ID,
  startBillingApp,
} from '../../../../test/billing-fixtures.js';
import { tokenFor } from '../../../../test/helpers.js';

// GET /v1/billing/payments, as JSON pages and as the CSV export (docs/decisions.md#billing-documents). The payments are
// inserted directly, at chosen times, so the filters and the order can be checked to the microsecond.

let t: BillingTestApp;

beforeAll(async () => {
  t = await startBillingApp();
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await deletePayments(t.db);
});

async function list(query = '', headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'GET',
    url: `/v1/billing/payments${query}`,
    headers: { ...(await t.headers()), ...headers },
  });
}

interface Listed {
  payments: Array<{ reference: string }>;
  nextCursor: string | null;
}

async function listed(query = ''): Promise<Listed> {
  const response = await list(query);
  expect(response.statusCode).toBe(200);
  return (response.json() as { data: Listed }).data;
}

const referencesOf = (page: Listed) => page.payments.map((payment) => payment.reference);

/** Minutes after a fixed moment, 2026-03-01 09:00 UTC (12:00 in Nairobi). */
const at = (minutes: number) => new Date(Date.parse('2026-03-01T09:00:00Z') + minutes * 60_000);

describe('GET /v1/billing/payments', () => {
  it("lists the organization's payments newest first, each exactly as GET /v1/billing/payments/:reference answers it", async () => {
    const [older, newer, newest, paidByMpesa] = await insertPayments(t, [
      { createdAt: at(0), status: 'failed', failureReason: 'Declined' },
      {
        createdAt: at(1),
        purpose: 'mail_subscription',
        plan: 'growth',
        seats: 5_001,
        billingCycle: 'yearly',
        amount: 4_500_900,
      },
      { createdAt: at(2), status: 'pending', method: 'mobile_money', channel: 'mobile_money', phone: '254712345678' },
      {
        createdAt: at(3),
        method: 'mobile_money',
        channel: 'mobile_money',
        provider: 'daraja',
        phone: '254712345678',
        mpesaReceiptNumber: 'QKT2XYZ8AB',
      },
    ]);
    await insertPayments(t, [{ createdAt: at(4) }], t.otherOrganizationId);

    const page = await listed();
    expect(referencesOf(page)).toEqual([paidByMpesa, newest, newer, older]);
    expect(page.nextCursor).toBeNull();
    for (const item of page.payments) {
      const single = await t.app.inject({
        method: 'GET',
        url: `/v1/billing/payments/${item.reference}`,
        headers: await t.headers(),
      });
      expect(item).toEqual(single.json().data);
    }
    expect(page.payments[0]).toMatchObject({ mpesaReceiptNumber: 'QKT2XYZ8AB' });
    expect(page.payments[1]).toMatchObject({ mpesaReceiptNumber: null });
    expect(page.payments[2]).toMatchObject({
      amount: 4_500_900,
      subscription: { plan: 'growth', seats: 5_001, billingCycle: 'yearly' },
      receiptNumber: null,
    });
  });

  it('filters by status, method and purpose, together', async () => {
    const [cardTopUp, failedCard, mpesa, purchase] = await insertPayments(t, [
      { createdAt: at(0) },
      { createdAt: at(1), status: 'failed' },
      { createdAt: at(2), method: 'mobile_money', channel: 'mobile_money', phone: '254712345678' },
      { createdAt: at(3), purpose: 'mail_subscription', plan: 'core', seats: 2, billingCycle: 'monthly' },
    ]);
    expect(referencesOf(await listed('?status=failed'))).toEqual([failedCard]);
    expect(referencesOf(await listed('?method=mobile_money'))).toEqual([mpesa]);
    expect(referencesOf(await listed('?purpose=mail_subscription'))).toEqual([purchase]);
    expect(referencesOf(await listed('?status=succeeded&method=card&purpose=wallet_topup'))).toEqual([cardTopUp]);
    expect(referencesOf(await listed('?status=expired'))).toEqual([]);
  });

  it('filters by period: a date is a day in Nairobi (a `to` day included), a date-time an exact moment', async () => {
    const [lastOfFebruary, firstOfMarch, endOfMarch, firstOfApril] = await insertPayments(t, [
      // 23:59 on 28 February in Nairobi, though 1 March has begun in no place west of it yet
      { createdAt: new Date('2026-02-28T20:59:59.999999Z') },
      { createdAt: new Date('2026-02-28T21:00:00Z') },
      { createdAt: new Date('2026-03-31T20:59:59.999Z') },
      { createdAt: new Date('2026-03-31T21:00:00Z') },
    ]);
    expect(referencesOf(await listed('?from=2026-03-01&to=2026-03-31'))).toEqual([endOfMarch, firstOfMarch]);
    expect(referencesOf(await listed('?from=2026-04-01'))).toEqual([firstOfApril]);
    expect(referencesOf(await listed('?to=2026-02-28'))).toEqual([lastOfFebruary]);
    expect(referencesOf(await listed('?from=2026-02-28T21:00:00Z&to=2026-03-31T21:00:00Z'))).toEqual([
      endOfMarch,
      firstOfMarch,
    ]);
    expect(referencesOf(await listed('?from=2026-03-01T00:00:00%2B03:00&to=2026-03-01T00:00:00.001%2B03:00'))).toEqual([
      firstOfMarch,
    ]);
  });

  it('pages with a cursor: every payment once, in order, and new payments never shift the pages still to read', async () => {
    // Two share a creation time to the microsecond: the id orders them, and the cursor keeps them apart.
    const references = await insertPayments(t, [
      { createdAt: at(0) },
      { createdAt: at(1) },
      { createdAt: at(1) },
      { createdAt: at(2) },
      { createdAt: at(3) },
    ]);
    const all = referencesOf(await listed());
    expect([...all].sort()).toEqual([...references].sort());

    const first = await listed('?limit=2');
    expect(referencesOf(first)).toEqual(all.slice(0, 2));
    await insertPayments(t, [{ createdAt: at(10) }]);
    const second = await listed(`?limit=2&cursor=${first.nextCursor}`);
    expect(referencesOf(second)).toEqual(all.slice(2, 4));
    const third = await listed(`?limit=2&cursor=${second.nextCursor}`);
    expect(referencesOf(third)).toEqual(all.slice(4));
    expect(third.nextCursor).toBeNull();
  });

  it('gives 20 a page by default and up to 100 when asked', async () => {
    await insertPayments(
      t,
      Array.from({ length: 101 }, (_, index) => ({ createdAt: at(index) })),
    );
    const byDefault = await listed();
    expect(byDefault.payments).toHaveLength(20);
    expect(byDefault.nextCursor).not.toBeNull();
    const most = await listed('?limit=100');
    expect(most.payments).toHaveLength(100);
    const rest = await listed(`?limit=100&cursor=${most.nextCursor}`);
    expect(rest.payments).toHaveLength(1);
    expect(rest.nextCursor).toBeNull();
  });

  it.each([
    ['a limit above 100', '?limit=101', 'querystring/limit'],
    ['a limit of 0', '?limit=0', 'querystring/limit'],
    ['a limit that is not a number', '?limit=ten', 'querystring/limit'],
    ['an unknown status', '?status=paid', 'querystring/status'],
    ['an unknown method', '?method=cash', 'querystring/method'],
    ['an unknown purpose', '?purpose=donation', 'querystring/purpose'],
    ['a `from` that is no date', '?from=yesterday', 'querystring/from'],
    ['a day that does not exist', '?to=2026-02-30', 'querystring/to'],
    ['a date-time without a time zone', '?from=2026-03-01T09:00:00', 'querystring/from'],
    ['`from` after `to`', '?from=2026-03-02&to=2026-03-01', 'querystring/from'],
    ['a `from` of 0001-01-01 (in Nairobi, year 0 in UTC)', '?from=0001-01-01', 'querystring/from'],
    ['a `from` of year 0', '?from=0000-01-01T00:00:00Z', 'querystring/from'],
    ['a `from` of 0001-01-01 east of UTC', '?from=0001-01-01T00:00:00%2B01:00', 'querystring/from'],
    ['a `to` of year 10000 in UTC', '?to=9999-12-31T23:59:59-12:00', 'querystring/to'],
    ["a `to` of JavaScript's last day", '?to=%2B275760-09-13', 'querystring/to'],
    ['a cursor this API did not return', '?cursor=bm90LWEtY3Vyc29y', 'querystring/cursor'],
    ['an unknown parameter', '?sort=amount', 'querystring/sort'],
  ])('refuses %s with 400 naming it, and changes nothing', async (_label, query, path) => {
    await insertPayments(t, [{ createdAt: at(0) }]);
    const before = await tableChecksums(t.db);
    for (const accept of ['application/json', 'text/csv']) {
      const response = await list(query, { accept });
      expect(response.statusCode).toBe(400);
      expect(response.headers['content-type']).toContain('application/json');
      const body = response.json() as { code: string; details: Array<{ path: string }> };
      expect(body.code).toBe('validation_error');
      expect(body.details.map((detail) => detail.path)).toContain(path);
    }
    expect(await tableChecksums(t.db)).toEqual(before);
  });

  it('takes the first and last days that can be stored, as JSON and CSV', async () => {
    await insertPayments(t, [{ createdAt: at(0) }]);
    for (const accept of ['application/json', 'text/csv']) {
      const response = await list('?from=0001-01-02&to=9999-12-31', { accept });
      expect(response.statusCode, response.body).toBe(200);
    }
  });

  it("shows another organization's member only their own organization's payments", async () => {
    await insertPayments(t, [{ createdAt: at(0) }]);
    const [theirs] = await insertPayments(t, [{ createdAt: at(1) }], t.otherOrganizationId);
    const response = await t.app.inject({
      method: 'GET',
      url: '/v1/billing/payments',
      headers: { authorization: `Bearer ${await tokenFor(OUTSIDER_ID)}`, 'x-organization-id': t.otherOrganizationId },
    });
    expect(referencesOf(response.json().data)).toEqual([theirs]);
  });
});

describe('GET /v1/billing/payments with Accept: text/csv', () => {
  const header = [
    'createdAt',
    'completedAt',
    'reference',
    'receiptNumber',
    'invoiceNumber',
    'status',
    'purpose',
    'method',
    'channel',
    'amount',
    'currency',
    'plan',
    'seats',
    'billingCycle',
    'phone',
    'paymentMethodId',
    'transferReference',
    'mpesaReceiptNumber',
    'failureReason',
  ];

  async function csv(query = '') {
    const response = await list(query, { accept: 'text/csv' });
    expect(response.statusCode).toBe(200);
    return response;
  }

  it('answers the filtered payments as a CSV file with a header row, newest first', async () => {
    const [failed, purchase] = await insertPayments(t, [
      { createdAt: at(0), status: 'failed', failureReason: 'Declined' },
      {
        createdAt: at(1),
        status: 'failed',
        purpose: 'mail_subscription',
        plan: 'growth',
        seats: 5_001,
        billingCycle: 'yearly',
        amount: 4_500_900,
        failureReason: 'Timed out',
      },
      { createdAt: at(2) },
    ]);
    t.clock.set(new Date('2026-03-02T08:00:00Z'));
    const response = await csv('?status=failed');
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="payments-2026-03-02.csv"');
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(response.body.split('\r\n').at(-1)).toBe('');
    expect(parse(response.body)).toEqual([
      header,
      [
        '2026-03-01T09:01:00.000Z',
        '2026-03-01T09:01:00.000Z',
        purchase,
        '',
        '',
        'failed',
        'mail_subscription',
        'card',
        'card',
        '4500900',
        'KES',
        'growth',
        '5001',
        'yearly',
        '',
        '',
        '',
        '',
        'Timed out',
      ],
      [
        '2026-03-01T09:00:00.000Z',
        '2026-03-01T09:00:00.000Z',
        failed,
        '',
        '',
        'failed',
        'wallet_topup',
        'card',
        'card',
        '1000',
        'KES',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        'Declined',
      ],
    ]);
  });

  it('starts after the payment a cursor names, and takes no limit: the export has no pages', async () => {
    const [, second, third] = await insertPayments(t, [
      { createdAt: at(3) },
      { createdAt: at(2) },
      { createdAt: at(1) },
    ]);
    const first = await listed('?limit=1');
    const rows = (parse((await csv(`?limit=1&cursor=${first.nextCursor}`)).body) as string[][]).slice(1);
    expect(rows.map((row) => row[header.indexOf('reference')])).toEqual([second, third]);
  });

  it('answers only the header row when nothing matches', async () => {
    const response = await csv('?status=cancelled');
    expect(parse(response.body)).toEqual([header]);
  });

  it('quotes text with commas, quotes and line breaks, and makes text a spreadsheet would run as a formula plain text', async () => {
    const reasons = [
      'Declined, "insufficient funds"\nCall your bank',
      '=HYPERLINK("https://evil.example","Click")',
      '+254712345678',
      '-1+1',
      '@SUM(A1:A2)',
      '\tindented',
      '\r=1+1',
    ];
    await insertPayments(
      t,
      reasons.map((failureReason, index) => ({ createdAt: at(-index), status: 'failed', failureReason })),
    );
    const body = (await csv()).body;
    expect(body).toContain('"Declined, ""insufficient funds""\nCall your bank"');
    expect(body).toContain(`"'=HYPERLINK(""https://evil.example"",""Click"")"`);
    const written = (parse(body) as string[][]).slice(1).map((row) => row[header.indexOf('failureReason')]);
    expect(written).toEqual([
      'Declined, "insufficient funds"\nCall your bank',
      `'=HYPERLINK("https://evil.example","Click")`,
      "'+254712345678",
      "'-1+1",
      "'@SUM(A1:A2)",
      "'\tindented",
      "'\r=1+1",
    ]);
  });

  it('writes every payment of an export larger than one page (500), once each, in order, as the pages are read', async () => {
    const count = 1_201;
    // Three share each creation time, so page boundaries fall inside groups of equal times.
    await insertPayments(
      t,
      Array.from({ length: count }, (_, index) => ({ createdAt: at(Math.floor(index / 3)) })),
    );
    const json: string[] = [];
    for (let cursor: string | null | undefined; cursor !== null; ) {
      const page = await listed(`?limit=100${cursor === undefined ? '' : `&cursor=${cursor}`}`);
      json.push(...referencesOf(page));
      cursor = page.nextCursor;
    }
    const response = await csv();
    // Streamed: written as it is read, so its length is not known when the answer starts.
    expect(response.headers['content-length']).toBeUndefined();
    expect(response.headers['transfer-encoding']).toBe('chunked');
    const rows = (parse(response.body) as string[][]).slice(1).map((row) => row[header.indexOf('reference')]);
    expect(rows).toHaveLength(count);
    expect(new Set(rows).size).toBe(count);
    expect(rows).toEqual(json);
  });
});
