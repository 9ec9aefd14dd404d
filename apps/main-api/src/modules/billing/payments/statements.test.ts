import { createStatementLog, statementSummaryMarkingPrepared } from '@platform/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missing, postgresServer } from '#test-prerequisites';
import { type BillingTestApp, insertPayments, startBillingApp } from '../../../../test/billing-fixtures.js';

// The checkout page polls a payment while the payer confirms it: after the membership check, one prepared read.
describe.skipIf(missing(postgresServer))('statements per payment read (PostgreSQL)', () => {
  const log = createStatementLog();
  let t: BillingTestApp;

  beforeAll(async () => {
    t = await startBillingApp({ statementLog: log });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('GET /v1/billing/payments/:reference: the membership, then the payment with its receipt and invoice numbers', async () => {
    const [reference] = await insertPayments(t, [{ createdAt: new Date('2026-03-01T09:00:00Z'), status: 'pending' }]);
    const headers = await t.headers();
    log.take();
    const response = await t.app.inject({ method: 'GET', url: `/v1/billing/payments/${reference}`, headers });
    expect(response.json().data).toMatchObject({ reference, status: 'pending' });
    const sent = log.take().map(statementSummaryMarkingPrepared);
    expect(sent).toEqual(['select memberships (prepared)', 'select payments (prepared)']);
  });

  it('GET /v1/billing/payments/:reference with something that is no reference: 404 without reading payments', async () => {
    const headers = await t.headers();
    for (const reference of ['not-a-reference', 'PAY-%E2%80%AE']) {
      log.take();
      const response = await t.app.inject({ method: 'GET', url: `/v1/billing/payments/${reference}`, headers });
      expect(response.statusCode, reference).toBe(404);
      expect(response.json()).toMatchObject({ success: false, code: 'not_found' });
      expect(log.take().map(statementSummaryMarkingPrepared)).not.toContain('select payments (prepared)');
    }
  });
});
