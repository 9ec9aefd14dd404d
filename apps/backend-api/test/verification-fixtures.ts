import type { ApiKeyEnvironment, Database } from '@platform/db';
import {
  ledgerTransactions,
  verificationSessions,
  verificationSessionTransitions,
  webhookEvents,
} from '@platform/db/schema';
import { ensureWallet, ledgerBalances, topUpWallet } from '@platform/ledger';
import { eq, sql } from 'drizzle-orm';
import type { BackendApp } from '../src/app.js';

export const TEST_VERIFY_URL = 'https://verify.example.test';

/**
 * Tables a verification suite empties between tests (organizations take the rest with them). TRUNCATE, because
 * the ledger refuses DELETE, and an organization whose wallet has ledger history cannot be deleted before it.
 */
export async function truncateVerificationData(db: Database): Promise<void> {
  await db.execute(
    sql`truncate verification_session_transitions, verification_sessions, verification_prices, ledger_entries,
        ledger_transactions, wallets, webhook_delivery_attempts, webhook_events, notifications, idempotency_records cascade`,
  );
}

/** Adds money to a wallet, as the wallets command does. */
export async function fundWallet(db: Database, organizationId: string, environment: ApiKeyEnvironment, amount: number) {
  await db.transaction((tx) =>
    topUpWallet(tx, { organizationId, environment }, { amount, reference: `test-funding:${crypto.randomUUID()}` }),
  );
}

/** The wallet's cached balances next to what its ledger says. */
export async function walletState(db: Database, organizationId: string, environment: ApiKeyEnvironment) {
  const wallet = await ensureWallet(db, { organizationId, environment });
  return {
    available: wallet.availableBalance,
    held: wallet.heldBalance,
    ledger: await ledgerBalances(db, wallet.id),
  };
}

/** The kinds of ledger movements recorded for a session's hold, e.g. ['hold', 'capture']. */
export async function holdMovements(db: Database, sessionId: string): Promise<string[]> {
  const rows = await db
    .select({ kind: ledgerTransactions.kind })
    .from(ledgerTransactions)
    .where(eq(ledgerTransactions.reference, `verification_session:${sessionId}`))
    .orderBy(ledgerTransactions.createdAt);
  return rows.map((row) => row.kind).sort();
}

export async function transitionsOf(db: Database, sessionId: string) {
  return db
    .select({
      from: verificationSessionTransitions.fromStatus,
      to: verificationSessionTransitions.toStatus,
      actor: verificationSessionTransitions.actor,
    })
    .from(verificationSessionTransitions)
    .where(eq(verificationSessionTransitions.sessionId, sessionId))
    .orderBy(verificationSessionTransitions.createdAt, verificationSessionTransitions.id);
}

export async function eventTypesOf(db: Database, sessionId: string): Promise<string[]> {
  const rows = await db
    .select({ type: webhookEvents.type })
    .from(webhookEvents)
    .where(sql`${webhookEvents.payload} -> 'data' ->> 'sessionId' = ${sessionId}`)
    .orderBy(webhookEvents.createdAt, webhookEvents.id);
  return rows.map((row) => row.type);
}

export function countSessions(db: Database, organizationId?: string): Promise<number> {
  return db.$count(
    verificationSessions,
    organizationId === undefined ? undefined : eq(verificationSessions.organizationId, organizationId),
  );
}

export async function statusOf(db: Database, sessionId: string) {
  const [row] = await db
    .select({ status: verificationSessions.status })
    .from(verificationSessions)
    .where(eq(verificationSessions.id, sessionId));
  return row?.status;
}

/** POST /v1/verify/sessions through the app. */
export function createSessionRequest(app: BackendApp, apiKey: string, body: unknown, idempotencyKey?: string) {
  return app.inject({
    method: 'POST',
    url: '/v1/verify/sessions',
    headers: {
      'x-service-api-key': apiKey,
      ...(idempotencyKey === undefined ? {} : { 'x-idempotency-key': idempotencyKey }),
    },
    payload: body as object,
  });
}

/** Creates a session and returns its id (the request must succeed). */
export async function createdSessionId(
  app: BackendApp,
  apiKey: string,
  body: object = { type: 'kyc', externalEndUserId: 'end-user-1' },
) {
  const response = await createSessionRequest(app, apiKey, body);
  if (response.statusCode !== 201)
    throw new Error(`Creating a session failed: ${response.statusCode} ${response.body}`);
  return response.json().data.sessionId as string;
}
