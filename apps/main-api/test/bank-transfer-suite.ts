import { memberships, notifications } from '@platform/db/schema';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import {
  FINANCE_ID,
  payByTransfer,
  SELLER_WITH_BANK,
  startTransferApp,
  type TransferTestApp,
} from './bank-transfer-fixtures.js';
import { deletePayments } from './billing-fixtures.js';
import { insertUser } from './helpers.js';

/** A member of the payer's organization besides the payer (told of a transfer too). */
export const COLLEAGUE_ID = 'user_transfer_colleague';
/** Above the 1,000,000 KES card limit: only a bank transfer pays it. */
export const LARGE_TOP_UP = 2_000_000;

/** What POST /v1/billing/pay answers for a bank transfer. */
export interface Started {
  reference: string;
  message: string;
  instructions: { bankName: string; accountName: string; accountNumber: string; branch: string; reference: string };
  invoice: { number: string; url: string; amount: number; dueAt: string; expiresAt: string };
}

/** The bank transfer suites: the app with the seller's bank account and finance staff, and what they ask it. */
export interface TransferSuite {
  readonly t: TransferTestApp;
  /** Pays by bank transfer as the payer; the answer must be 200. */
  started(body: object, extra?: Record<string, string>): Promise<Started>;
  /** GET the payment's invoice as the payer, with `headers` over theirs. */
  invoiceOf(reference: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** GET /v1/finance/payments as a finance member (or `userId`). */
  listTransfers(query?: string, userId?: string): Promise<LightMyRequestResponse>;
}

/**
 * Registers the suite's hooks: before it, a transfer app (bank transfers up to 5,000,000) whose payer's organization has
 * a colleague as a member; before each test, no payments and no notifications, the clock at the present; after it, the
 * app closed. Read `t` inside tests or hooks.
 */
export function useTransferSuite(): TransferSuite {
  let app: TransferTestApp | undefined;
  const t = (): TransferTestApp => {
    if (app === undefined) throw new Error('The transfer app is started before the suite runs');
    return app;
  };

  beforeAll(async () => {
    app = await startTransferApp({ env: { ...SELLER_WITH_BANK, MAX_AMOUNT_BANK_TRANSFER: '5000000' } });
    await insertUser(app.db, { id: COLLEAGUE_ID });
    await app.db
      .insert(memberships)
      .values({ organizationId: app.organizationId, userId: COLLEAGUE_ID, role: 'member' });
  });
  afterAll(async () => {
    await app?.close();
  });
  beforeEach(async () => {
    await deletePayments(t().db);
    await t().db.delete(notifications);
    t().clock.set(new Date());
  });

  return {
    get t() {
      return t();
    },
    async started(body, extra = {}) {
      const response = await payByTransfer(t(), body, extra);
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    },
    async invoiceOf(reference, headers = {}) {
      return t().app.inject({
        method: 'GET',
        url: `/v1/billing/payments/${reference}/invoice`,
        headers: { ...(await t().headers()), ...headers },
      });
    },
    async listTransfers(query = '', userId = FINANCE_ID) {
      return t().app.inject({
        method: 'GET',
        url: `/v1/finance/payments${query}`,
        headers: await t().financeHeaders(userId),
      });
    },
  };
}
