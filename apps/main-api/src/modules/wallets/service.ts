import { type ApiKeyEnvironment, apiKeyEnvironments, type Database, type Wallet } from '@platform/db';
import { ensureWallet, setLowBalanceThreshold, type WalletStatementPage, walletStatement } from '@platform/ledger';
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

/** One environment's wallet, created empty when it was never used. */
export async function getOrganizationWallet(db: Database, scope: WalletScope): Promise<OrganizationWalletView> {
  return walletView(await ensureWallet(db, scope));
}

/** Both wallets, live first. */
export async function listOrganizationWallets(db: Database, organizationId: string): Promise<OrganizationWalletView[]> {
  const views: OrganizationWalletView[] = [];
  for (const environment of apiKeyEnvironments) {
    views.push(await getOrganizationWallet(db, { organizationId, environment }));
  }
  return views;
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
