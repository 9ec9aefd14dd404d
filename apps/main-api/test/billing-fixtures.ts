import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Database, DatabaseHandle, NewPayment, Payment } from '@platform/db';
import { ledgerTransactions, notifications, paymentEvents, payments, wallets } from '@platform/db/schema';
import { createTestDatabase, type StatementLog } from '@platform/db/testing';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger, LightMyRequestResponse } from 'fastify';
import pino from 'pino';
import { closedPort, eventually } from '#test-timing';
import { buildApp } from '../src/app.js';
import type { MainApiConfig } from '../src/config.js';
import { expireBankTransfers, type TransferExpiryRound } from '../src/modules/billing/bank-transfers/index.js';
import { invoiceIssuer } from '../src/modules/billing/invoices/index.js';
import {
  PAYMENT_ALARMS_METRIC,
  type PaymentAlarmKind,
  paymentAlarmsIn,
} from '../src/modules/billing/payments/alarms.js';
import {
  issueMissingReceipts,
  type MissingReceiptsRound,
  missingReceiptRounds,
} from '../src/modules/billing/payments/missing-receipts.js';
import { type ReconciliationRound, reconcilePayments } from '../src/modules/billing/payments/reconcile.js';
import type { SettlementContext } from '../src/modules/billing/payments/settle-payment.js';
import { processStkCallback } from '../src/modules/billing/providers/daraja/service.js';
import { createPaymentProviders } from '../src/modules/billing/providers/from-config.js';
import { receiptIssuer } from '../src/modules/billing/receipts/index.js';
import {
  type RenewalRound,
  renewDueSubscriptions,
  subscriptionPaymentHooks,
} from '../src/modules/billing/subscriptions/index.js';
import { createLocalFolderStorage } from '../src/storage/local-folder.js';
import type { FakeDaraja } from './fake-daraja.js';
import { insertOrganization, insertUser, TEST_PROVIDER_TIMEOUT_MS, testConfig, tokenFor } from './helpers.js';
import { type ManualTimeouts, manualTimeouts } from './manual-timeouts.js';

export const PAYER_ID = 'user_payer';

/** Receipts as the app issues them with the test configuration (the sandbox seller), for settlement contexts of tests. */
export const testReceipts = receiptIssuer(testConfig().payments.seller);
const PAYER_EMAIL = 'payer@example.com';
export const OUTSIDER_ID = 'user_outsider';

/**
 * When a card payment whose answer never came is first looked up: 2 x PROVIDER_TIMEOUT_MS (the README's rule),
 * which startBillingApp sets to TEST_PROVIDER_TIMEOUT_MS. Tests move the app's clock by it.
 */
export const CONFIRMATION_DELAY_MS = 2 * TEST_PROVIDER_TIMEOUT_MS;

export interface BillingTestApp {
  app: ReturnType<typeof buildApp>;
  database: DatabaseHandle;
  db: Database;
  config: MainApiConfig;
  /** The listening address (when started with listen: true), equal to PUBLIC_URL. */
  url: string;
  organizationId: string;
  otherOrganizationId: string;
  /** Headers of the payer acting for their organization. */
  headers(extra?: Record<string, string>): Promise<Record<string, string>>;
  /** The app's clock: starts at the real time and moves only when told to. */
  clock: { now(): Date; advance(ms: number): void; set(at: Date): void };
  /**
   * The provider requests' time limits, run out by hand: `t.timeouts.expireOnHang(fake.server)` makes a request
   * the fake leaves unanswered time out at once (PROVIDER_TIMEOUT_MS itself is a generous 30 s).
   */
  timeouts: ManualTimeouts;
  /** One round of the reconciliation job, with the app's configuration and clock. */
  reconcile(): Promise<ReconciliationRound>;
  /** One round of the subscription renewal job, with the app's configuration and clock. */
  renew(): Promise<RenewalRound>;
  /** One round of the bank transfer expiry job, with the app's clock. */
  expireTransfers(): Promise<TransferExpiryRound>;
  /** One round of the job issuing the receipts of payments that succeeded before receipts existed (the app's clock). */
  issueMissingReceipts(batchSize?: number): Promise<MissingReceiptsRound>;
  /** That job's rounds as one instance runs them on its schedule (a fresh instance each call). */
  missingReceiptRounds(): () => Promise<MissingReceiptsRound>;
  close(): Promise<void>;
}

/**
 * main-api on a fresh database with a payer (PAYER_ID, a member of `organizationId`) and an outsider in
 * another organization. Billing settings come from `env`; the reconciliation and renewal jobs do not run on
 * their own (tests call `reconcile` and `renew`). With `listen`, the app serves on 127.0.0.1 at PUBLIC_URL, so providers' fakes
 * can call it back. PROVIDER_TIMEOUT_MS is TEST_PROVIDER_TIMEOUT_MS unless `env` says otherwise, and each
 * provider request's limit can be run out by hand (`timeouts`).
 */
export async function startBillingApp(
  options: {
    env?: NodeJS.ProcessEnv;
    listen?: boolean;
    maxConnections?: number;
    /** Where the app and the test's job runs log (silent by default). */
    logger?: FastifyBaseLogger;
    /** Runs before ready(), e.g. to add a hook. */
    setup?: (app: ReturnType<typeof buildApp>) => void;
    /** PostgreSQL only: records every statement the app sends (docs/decisions.md#statements-per-request). */
    statementLog?: StatementLog;
  } = {},
): Promise<BillingTestApp> {
  const database = await createTestDatabase({
    ...(options.maxConnections === undefined ? {} : { maxConnections: options.maxConnections }),
    ...(options.statementLog === undefined ? {} : { statementLog: options.statementLog }),
  });
  // A port that was free a moment ago, so PUBLIC_URL can name the address before the app listens on it.
  const port = options.listen === true ? await closedPort() : 0;
  const url = options.listen === true ? `http://127.0.0.1:${port}` : 'http://main-api.test';
  const avatarDir = await mkdtemp(path.join(tmpdir(), 'main-api-billing-'));
  const config = testConfig({
    AVATAR_LOCAL_DIR: avatarDir,
    PUBLIC_URL: url,
    PAYMENT_RECONCILE_INTERVAL_MS: '0',
    RENEWAL_INTERVAL_MS: '0',
    BANK_TRANSFER_EXPIRY_INTERVAL_MS: '0',
    SANDBOX_STK_DELAY_MS: '0',
    PROVIDER_TIMEOUT_MS: String(TEST_PROVIDER_TIMEOUT_MS),
    ...options.env,
  });
  const storage = createLocalFolderStorage({ directory: avatarDir, publicUrl: config.publicUrl });
  let offsetMs = 0;
  const now = () => new Date(Date.now() + offsetMs);
  const timeouts = manualTimeouts();
  const app = buildApp(
    {
      database,
      storage,
      now,
      providerTimeout: timeouts.timeout,
      ...(options.logger === undefined ? {} : { logger: options.logger }),
    },
    config,
  );
  options.setup?.(app);
  await app.ready();
  if (options.listen === true) await app.listen({ host: '127.0.0.1', port });

  const { db } = database;
  await insertUser(db, { id: PAYER_ID, email: PAYER_EMAIL });
  await insertUser(db, { id: OUTSIDER_ID });
  const organizationId = await insertOrganization(db, { members: [{ userId: PAYER_ID, role: 'owner' }] });
  const otherOrganizationId = await insertOrganization(db, { members: [{ userId: OUTSIDER_ID, role: 'owner' }] });

  const log = options.logger ?? pino({ level: 'silent' });
  const ctx: SettlementContext = {
    db,
    now,
    hooks: subscriptionPaymentHooks,
    receipts: receiptIssuer(config.payments.seller),
    log,
    alarms: paymentAlarmsIn(app.metrics),
  };
  const providers = createPaymentProviders(config.payments, {
    publicUrl: url,
    now,
    log,
    providerTimeout: timeouts.timeout,
    deliverSandboxStkCallback: (body) => processStkCallback(ctx, 'sandbox', body, 'sandbox_callback'),
  });

  return {
    app,
    database,
    db,
    config,
    url,
    organizationId,
    otherOrganizationId,
    async headers(extra = {}) {
      return {
        authorization: `Bearer ${await tokenFor(PAYER_ID, { now: now(), expiresIn: 3600 })}`,
        'x-organization-id': organizationId,
        ...extra,
      };
    },
    clock: {
      now,
      advance(ms) {
        offsetMs += ms;
      },
      set(at) {
        offsetMs = at.getTime() - Date.now();
      },
    },
    timeouts,
    reconcile() {
      return reconcilePayments({ ctx, providers, config: config.payments });
    },
    renew() {
      return renewDueSubscriptions({
        ctx,
        providers,
        config: config.payments,
        invoices: invoiceIssuer(config.payments.seller, config.payments.bankTransfer.account),
      });
    },
    expireTransfers() {
      return expireBankTransfers({ ctx });
    },
    issueMissingReceipts(batchSize) {
      return issueMissingReceipts({ ctx, ...(batchSize === undefined ? {} : { batchSize }) });
    },
    missingReceiptRounds() {
      return missingReceiptRounds({ ctx });
    },
    async close() {
      await providers.close();
      await app.close();
      await database.close();
      await rm(avatarDir, { recursive: true, force: true });
    },
  };
}

/**
 * Starts an M-Pesa payment of `amount` through `POST /v1/billing/pay` (it must answer 200): its reference, the
 * CheckoutRequestID of the prompt the fake Daraja got, and the answer.
 */
export async function promptMpesaPayment(
  t: BillingTestApp,
  daraja: Pick<FakeDaraja, 'lastPrompt'>,
  amount: number,
  phone = '0708 374 149',
): Promise<{ reference: string; checkoutRequestId: string; response: LightMyRequestResponse }> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/v1/billing/pay',
    headers: await t.headers(),
    payload: { method: 'mobile_money', amount, phone },
  });
  if (response.statusCode !== 200) throw new Error(`The M-Pesa payment was refused: ${response.body}`);
  const { reference } = response.json<{ reference: string }>();
  return { reference, checkoutRequestId: daraja.lastPrompt().checkoutRequestId, response };
}

/** A payment as inserted directly, at a chosen time: a succeeded card top-up of 1,000 unless told otherwise. */
export type PaymentRow = Partial<NewPayment> & { createdAt: Date };

/** Inserts payments of `organizationId` (the payer's by default) directly, as `rows` say; their references. */
export async function insertPayments(
  t: Pick<BillingTestApp, 'db' | 'organizationId'>,
  rows: PaymentRow[],
  organizationId = t.organizationId,
): Promise<string[]> {
  const values = rows.map((row) => {
    const status = row.status ?? 'succeeded';
    return {
      reference: `PAY-${randomUUID()}`,
      organizationId,
      method: 'card' as const,
      channel: 'card' as const,
      purpose: 'wallet_topup' as const,
      provider: 'sandbox' as const,
      amount: 1_000,
      nextCheckAt: row.createdAt,
      completedAt: status === 'pending' ? null : row.createdAt,
      ...row,
      status,
    };
  });
  const inserted = await t.db.insert(payments).values(values).returning({ reference: payments.reference });
  return inserted.map((row) => row.reference);
}

export async function paymentByReference(db: Database, reference: string): Promise<Payment> {
  const [payment] = await db.select().from(payments).where(eq(payments.reference, reference));
  if (payment === undefined) throw new Error(`No payment ${reference}`);
  return payment;
}

/**
 * Removes every payment, for tests that start each case without any, with what refers to them (receipts, invoices,
 * transfer confirmations, payment events, subscription changes). TRUNCATE, in one statement: receipts, invoices and
 * transfer confirmations refuse DELETE. It takes every table's lock, so a settlement still running (a test that did
 * not wait for the sandbox payment it started: untilSettled) would deadlock with it.
 */
export async function deletePayments(db: Database): Promise<void> {
  await db.execute(sql`truncate receipts, invoices, bank_transfer_confirmations, payments cascade`);
}

/**
 * Waits until the payment is no longer pending: a test that starts a sandbox M-Pesa payment waits for its callback
 * to settle it, so no settlement is still running when the next test empties the tables.
 */
export async function untilSettled(db: Database, reference: string): Promise<Payment> {
  await eventually(async () => (await paymentByReference(db, reference)).status !== 'pending');
  return paymentByReference(db, reference);
}

export async function allPayments(db: Database): Promise<Payment[]> {
  return db.select().from(payments).orderBy(asc(payments.createdAt));
}

/** The organization's live wallet balance (0 when it has no wallet yet). */
export async function liveBalance(db: Database, organizationId: string): Promise<number> {
  const [wallet] = await db
    .select({ available: wallets.availableBalance })
    .from(wallets)
    .where(and(eq(wallets.organizationId, organizationId), eq(wallets.environment, 'live')));
  return wallet?.available ?? 0;
}

/** How many top-up ledger transactions a payment produced (must never exceed 1). */
export async function topUpsOf(db: Database, reference: string): Promise<number> {
  const rows = await db
    .select({ id: ledgerTransactions.id })
    .from(ledgerTransactions)
    .where(and(eq(ledgerTransactions.kind, 'top_up'), eq(ledgerTransactions.reference, `payment:${reference}`)));
  return rows.length;
}

/** The status changes recorded for a payment, oldest first, as `from->to`. */
export async function transitionsOf(db: Database, paymentId: string): Promise<string[]> {
  const rows = await db
    .select({ from: paymentEvents.fromStatus, to: paymentEvents.toStatus })
    .from(paymentEvents)
    .where(and(eq(paymentEvents.paymentId, paymentId), eq(paymentEvents.type, 'status_changed')))
    .orderBy(asc(paymentEvents.createdAt), asc(paymentEvents.id));
  return rows.map((row) => `${row.from}->${row.to}`);
}

export async function notificationsOf(db: Database, userId: string) {
  return db.select().from(notifications).where(eq(notifications.userId, userId));
}

/** A logger that keeps every line at `level` and above, parsed, for tests that read what was logged. */
export function capturingLogger(level: 'info' | 'warn' | 'error' = 'warn'): {
  logger: FastifyBaseLogger;
  lines: Array<Record<string, unknown>>;
} {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino(
    { level },
    { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  return { logger, lines };
}

/** How often `payment_alarms_total{kind}` was raised in this app (as /metrics reports it). */
export async function alarmsRaised(app: BillingTestApp['app'], kind: PaymentAlarmKind): Promise<number> {
  const metric = app.metrics.registry.getSingleMetric(PAYMENT_ALARMS_METRIC);
  if (metric === undefined) return 0;
  const { values } = await metric.get();
  return values.find((value) => value.labels['kind'] === kind)?.value ?? 0;
}
