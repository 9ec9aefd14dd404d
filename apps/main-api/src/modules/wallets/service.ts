import { randomUUID } from 'node:crypto';
import { type ApiKeyEnvironment, apiKeyEnvironments, type Database, type Transaction, type Wallet } from '@platform/db';
import {
  ensureWallet,
  type NewWalletOptions,
  setLowBalanceThreshold,
  topUpWallet,
  type WalletStatementPage,
  walletStatement,
} from '@platform/ledger';
import { type AuditContext, recordAuditEvent } from '../audit/index.js';
import type { OrganizationWalletView } from './schemas.js';

// An organization's wallets as its members see them on the main API (docs/decisions.md#wallet-statement,
// docs/decisions.md#low-balance-alerts): balances, the low-balance threshold, and the statement, which is
// @platform/ledger's query, the same backend-api answers an API key with.

interface WalletScope {
  organizationId: string;
  environment: ApiKeyEnvironment;
}

function walletView(wallet: Wallet): OrganizationWalletView {
  return {
    environment: wallet.environment,
    currency: 'KES',
    available: wallet.availableBalance,
    held: wallet.heldBalance,
    lowBalanceThreshold: wallet.lowBalanceThreshold,
    lowBalanceAlertedAt: wallet.lowBalanceAlertedAt?.toISOString() ?? null,
  };
}

/**
 * One environment's wallet, created when it was never used: empty, or a test wallet with its test credit
 * (docs/decisions.md#test-credit).
 */
export async function getOrganizationWallet(
  db: Database,
  scope: WalletScope,
  options: NewWalletOptions = {},
): Promise<OrganizationWalletView> {
  return walletView(await ensureWallet(db, scope, options));
}

/** Both wallets, live first. */
export async function listOrganizationWallets(
  db: Database,
  organizationId: string,
  options: NewWalletOptions = {},
): Promise<OrganizationWalletView[]> {
  const views: OrganizationWalletView[] = [];
  for (const environment of apiKeyEnvironments) {
    views.push(await getOrganizationWallet(db, { organizationId, environment }, options));
  }
  return views;
}

/**
 * The ledger reference of a test top-up: a new one each, so each top-up is one movement of its own; or the one of a
 * dashboard form (its key, a UUID it carries), so the form posted twice tops up once.
 */
function testTopUpReference(key: string | undefined): string {
  return `test_top_up:${key ?? randomUUID()}`;
}

/**
 * Adds `amount` whole KES of test credit to the test wallet at once, free and without a provider
 * (docs/decisions.md#test-top-ups): one ledger top-up and its audit event, in the caller's transaction (the route's,
 * which stores its idempotent answer with them). With a `key` the ledger tops up once per key (`applied` false for a
 * repeat, which records nothing).
 */
export async function topUpTestWallet(
  tx: Transaction,
  {
    organizationId,
    amount,
    audit,
    testCredit,
    key,
  }: { organizationId: string; amount: number; audit: AuditContext } & {
    testCredit: number;
    key?: string;
  },
): Promise<{ wallet: OrganizationWalletView; transactionId: string; applied: boolean }> {
  const scope = { organizationId, environment: 'test' as const };
  // A wallet never used starts with its test credit first, as on any first use.
  await ensureWallet(tx, scope, { testCredit });
  const result = await topUpWallet(tx, scope, {
    amount,
    reference: testTopUpReference(key),
    description: 'Test top-up',
  });
  const answer = { wallet: walletView(result.wallet), transactionId: result.transactionId, applied: result.applied };
  if (!result.applied) return answer;
  await recordAuditEvent(tx, audit, {
    organizationId,
    action: 'wallet.test_topped_up',
    targetType: 'wallet',
    targetId: 'test',
    details: { environment: 'test', amount, transactionId: result.transactionId },
  });
  return answer;
}

/**
 * Sets (or, with null, clears) the wallet's low-balance threshold and records who did it in the audit log, in one
 * transaction. A new setting re-arms the alert.
 */
export async function updateLowBalanceThreshold(
  db: Database,
  {
    organizationId,
    environment,
    lowBalanceThreshold,
    audit,
  }: WalletScope & {
    lowBalanceThreshold: number | null;
    audit: AuditContext;
  },
): Promise<OrganizationWalletView> {
  return db.transaction(async (tx) => {
    const { wallet, previous } = await setLowBalanceThreshold(tx, { organizationId, environment }, lowBalanceThreshold);
    await recordAuditEvent(tx, audit, {
      organizationId,
      action: 'wallet.low_balance_threshold_changed',
      targetType: 'wallet',
      targetId: environment,
      details: { environment, from: previous, to: lowBalanceThreshold },
    });
    return walletView(wallet);
  });
}

/** A page of the wallet's statement, newest first. */
export function organizationWalletTransactions(
  db: Database,
  scope: WalletScope,
  page: { limit: number; cursor: string | undefined },
): Promise<WalletStatementPage> {
  return walletStatement(db, scope, page);
}
