import { randomUUID } from 'node:crypto';
import type { Payment } from '@platform/db';
import { organizations, receipts } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { SELLER_WITH_BANK, startTransferApp, type TransferTestApp } from './bank-transfer-fixtures.js';
import { capturingLogger, PAYER_ID, paymentByReference } from './billing-fixtures.js';
import { type FakeDaraja, fakeDarajaEnv, startFakeDaraja } from './fake-daraja.js';
import { FAKE_PAYSTACK_SECRET, type FakePaystack, startFakePaystack } from './fake-paystack.js';
import { insertOrganization, tokenFor } from './helpers.js';

// Organizations retired while money is on its way to them (docs/decisions.md#retired-organizations-take-no-money): an
// app on a fake Paystack and a fake Daraja (which call it back), with the platform's finance member, and a fresh
// customer organization per case, since a retirement cannot be undone.

export interface RetirementTestApp {
  t: TransferTestApp;
  paystack: FakePaystack;
  daraja: FakeDaraja;
  /** Warn and error lines the app and its jobs wrote. */
  logs: ReturnType<typeof capturingLogger>;
  close(): Promise<void>;
}

export async function startRetirementApp(options: { maxConnections?: number } = {}): Promise<RetirementTestApp> {
  const paystack = await startFakePaystack();
  const daraja = await startFakeDaraja();
  const logs = capturingLogger('warn');
  const t = await startTransferApp({
    listen: true,
    logger: logs.logger,
    ...(options.maxConnections === undefined ? {} : { maxConnections: options.maxConnections }),
    env: {
      ...SELLER_WITH_BANK,
      ...fakeDarajaEnv(daraja.url),
      PAYSTACK_SECRET_KEY: FAKE_PAYSTACK_SECRET,
      PAYSTACK_BASE_URL: paystack.url,
    },
  });
  paystack.webhookUrl = `${t.url}/v1/billing/webhooks/paystack`;
  return {
    t,
    paystack,
    daraja,
    logs,
    async close() {
      await t.close();
      await paystack.close();
      await daraja.close();
    },
  };
}

/** A new organization whose owner is the payer (PAYER_ID): its id. */
export function newCustomer(t: TransferTestApp): Promise<string> {
  return insertOrganization(t.db, { name: `Customer ${randomUUID().slice(0, 8)}`, members: [{ userId: PAYER_ID }] });
}

/** The payer's headers acting for `organizationId`. */
export async function payerHeaders(t: TransferTestApp, organizationId: string): Promise<Record<string, string>> {
  return {
    authorization: `Bearer ${await tokenFor(PAYER_ID, { now: t.clock.now(), expiresIn: 3600 })}`,
    'x-organization-id': organizationId,
  };
}

/** POST /v1/billing/pay by the payer for `organizationId`. */
export async function payFor(t: TransferTestApp, organizationId: string, body: object) {
  return t.app.inject({
    method: 'POST',
    url: '/v1/billing/pay',
    headers: await payerHeaders(t, organizationId),
    payload: body,
  });
}

/** A payment the payer started for `organizationId` (the pay request must answer 200): its answer. */
export async function startedFor(
  t: TransferTestApp,
  organizationId: string,
  body: object,
): Promise<{ reference: string; instructions?: { reference: string } }> {
  const response = await payFor(t, organizationId, body);
  if (response.statusCode !== 200) throw new Error(`The payment was refused: ${response.body}`);
  return response.json();
}

/** DELETE /v1/organizations/:id by its owner, the payer. */
export async function retire(t: TransferTestApp, organizationId: string) {
  return t.app.inject({
    method: 'DELETE',
    url: `/v1/organizations/${organizationId}`,
    headers: { authorization: `Bearer ${await tokenFor(PAYER_ID, { now: t.clock.now(), expiresIn: 3600 })}` },
  });
}

export async function retiredAtOf(t: TransferTestApp, organizationId: string): Promise<Date | null> {
  const [row] = await t.db.select().from(organizations).where(eq(organizations.id, organizationId));
  return row?.retiredAt ?? null;
}

/** GET /v1/finance/refunds-due as the finance member: the refunds listed. */
export async function refundsDue(t: TransferTestApp): Promise<Array<Record<string, unknown>>> {
  const response = await t.app.inject({
    method: 'GET',
    url: '/v1/finance/refunds-due?limit=100',
    headers: await t.financeHeaders(),
  });
  if (response.statusCode !== 200) throw new Error(`The refunds due were refused: ${response.body}`);
  return response.json().data.refunds;
}

/** The payment and how many receipts it has. */
export async function paymentWithReceipts(
  t: TransferTestApp,
  reference: string,
): Promise<{ payment: Payment; receipts: number }> {
  const payment = await paymentByReference(t.db, reference);
  const issued = await t.db.select().from(receipts).where(eq(receipts.paymentId, payment.id));
  return { payment, receipts: issued.length };
}
