import { randomUUID } from 'node:crypto';
import type { BankTransferConfirmation, Database, Invoice } from '@platform/db';
import { auditEvents, bankTransferConfirmations, invoices } from '@platform/db/schema';
import { and, asc, eq } from 'drizzle-orm';
import { type BillingTestApp, startBillingApp } from './billing-fixtures.js';
import { insertOrganization, insertUser, tokenFor } from './helpers.js';

/** The finance member of the platform organization, who confirms bank transfers. */
export const FINANCE_ID = 'user_finance';
/** A member of the platform organization in another role: the platform's admin, who confirms nothing. */
export const PLATFORM_ADMIN_ID = 'user_platform_admin';

/** A seller with its bank account, as production names them. */
export const SELLER_WITH_BANK = {
  SELLER_NAME: 'Kilima Mail Ltd',
  SELLER_ADDRESS: 'Kilima House, 12 Moi Avenue, Nairobi',
  SELLER_KRA_PIN: 'P051234567Q',
  SELLER_BANK_NAME: 'Kenya Commercial Bank',
  SELLER_BANK_ACCOUNT_NAME: 'Kilima Mail Ltd',
  SELLER_BANK_ACCOUNT_NUMBER: '1234567890',
  SELLER_BANK_BRANCH: 'Moi Avenue, Nairobi',
};

export interface TransferTestApp extends BillingTestApp {
  platformOrganizationId: string;
  /** Headers of `userId` (the finance member by default), for the finance routes. */
  financeHeaders(userId?: string, extra?: Record<string, string>): Promise<Record<string, string>>;
}

/**
 * The billing test app with a platform organization (PLATFORM_ORGANIZATION_ID) whose finance member confirms
 * transfers, and an admin who may not.
 */
export async function startTransferApp(options: Parameters<typeof startBillingApp>[0] = {}): Promise<TransferTestApp> {
  const platformOrganizationId = randomUUID();
  const t = await startBillingApp({
    ...options,
    env: { PLATFORM_ORGANIZATION_ID: platformOrganizationId, ...options.env },
  });
  await insertUser(t.db, { id: FINANCE_ID });
  await insertUser(t.db, { id: PLATFORM_ADMIN_ID });
  await insertOrganization(t.db, {
    id: platformOrganizationId,
    name: 'The platform',
    members: [
      { userId: FINANCE_ID, role: 'finance' },
      { userId: PLATFORM_ADMIN_ID, role: 'admin' },
    ],
  });
  return Object.assign(t, {
    platformOrganizationId,
    async financeHeaders(userId = FINANCE_ID, extra: Record<string, string> = {}) {
      return { authorization: `Bearer ${await tokenFor(userId, { now: t.clock.now(), expiresIn: 3600 })}`, ...extra };
    },
  });
}

/** POST /v1/billing/pay by the payer, by bank transfer. */
export async function payByTransfer(t: BillingTestApp, body: object, extra: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/v1/billing/pay',
    headers: await t.headers(extra),
    payload: { method: 'bank_transfer', ...body },
  });
}

/** POST /v1/finance/payments/:reference/confirm, by the finance member unless told otherwise. */
export async function confirmTransfer(
  t: TransferTestApp,
  reference: string,
  body: unknown,
  options: { userId?: string; headers?: Record<string, string> } = {},
) {
  return t.app.inject({
    method: 'POST',
    url: `/v1/finance/payments/${encodeURIComponent(reference)}/confirm`,
    headers: await t.financeHeaders(options.userId, options.headers),
    payload: body as object,
  });
}

export async function allInvoices(db: Database): Promise<Invoice[]> {
  return db.select().from(invoices).orderBy(asc(invoices.sequence));
}

export async function allConfirmations(db: Database): Promise<BankTransferConfirmation[]> {
  return db.select().from(bankTransferConfirmations).orderBy(asc(bankTransferConfirmations.createdAt));
}

/** The organization's audit events of `action`, oldest first. */
export function auditEventsOf(db: Database, organizationId: string, action: string) {
  return db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.organizationId, organizationId), eq(auditEvents.action, action)))
    .orderBy(asc(auditEvents.createdAt), asc(auditEvents.id));
}
