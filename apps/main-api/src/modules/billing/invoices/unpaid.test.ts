import { describe, expect, it } from 'vitest';
import { confirmTransfer } from '../../../../test/bank-transfer-fixtures.js';
import { LARGE_TOP_UP, useTransferSuite } from '../../../../test/bank-transfer-suite.js';
import { unpaidInvoiceCount } from './service.js';

// How many of an organization's invoices are unpaid (the dashboard's Home): those whose bank transfer is awaited.

const suite = useTransferSuite();

describe('unpaidInvoiceCount', () => {
  it('counts the invoices awaiting their transfer, of the organization only, until the money is confirmed', async () => {
    const { t } = suite;
    expect(await unpaidInvoiceCount(t.db, t.organizationId)).toBe(0);
    const first = await suite.started({ amount: LARGE_TOP_UP });
    await suite.started({ amount: LARGE_TOP_UP + 1 });
    expect(await unpaidInvoiceCount(t.db, t.organizationId)).toBe(2);
    expect(await unpaidInvoiceCount(t.db, t.otherOrganizationId)).toBe(0);
    const confirmed = await confirmTransfer(t, first.instructions.reference, {
      amountReceived: LARGE_TOP_UP,
      bankReference: 'FT26330XYZ12',
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(await unpaidInvoiceCount(t.db, t.organizationId)).toBe(1);
  });
});
