import { randomUUID } from 'node:crypto';
import type { ApiKeyEnvironment, Database, VerificationStatus, VerificationType } from '@platform/db';
import {
  auditEvents,
  ledgerTransactions,
  verificationSessions,
  verificationSessionTransitions,
  wallets,
  webhookDeliveryAttempts,
  webhookEvents,
} from '@platform/db/schema';
import type { DocumentVault } from '@platform/document-vault';
import { placeHold, topUpWallet } from '@platform/ledger';
import {
  commitMove,
  holdReferenceOf,
  type VerifiedOutputs,
  verifiedOutputsKey,
} from '@platform/verification-lifecycle';
import { enqueueWebhookEvent } from '@platform/webhooks';
import { and, asc, eq } from 'drizzle-orm';

// Sessions as backend-api creates them (a pending row, its price held from a funded wallet, the created transition
// and callback), so main-api's session routes can be tested without backend-api; later statuses are reached through
// the lifecycle's own moves.

export interface NewTestSession {
  organizationId: string;
  environment?: ApiKeyEnvironment;
  type?: VerificationType;
  externalEndUserId?: string;
  createdAt?: Date;
  price?: number;
}

/** A pending session with its price held (and the wallet funded for it); its id. */
export async function insertPendingSession(db: Database, input: NewTestSession): Promise<string> {
  const id = randomUUID();
  const type = input.type ?? 'kyc';
  const environment = input.environment ?? 'test';
  const price = input.price ?? (type === 'kyc' ? 50 : 200);
  const createdAt = input.createdAt ?? new Date();
  const wallet = { organizationId: input.organizationId, environment };
  await db.transaction(async (tx) => {
    await topUpWallet(tx, wallet, { amount: price + 100, reference: `session-test-funding:${id}` });
    const { wallet: held } = await placeHold(tx, wallet, {
      amount: price,
      reference: holdReferenceOf(id),
      description: `${type} verification`,
    });
    await tx.insert(verificationSessions).values({
      id,
      organizationId: input.organizationId,
      environment,
      walletId: held.id,
      type,
      status: 'pending',
      externalEndUserId: input.externalEndUserId ?? `end-user-${id.slice(0, 8)}`,
      appName: 'Acme Lending',
      decisionSource: 'manual',
      price,
      requiredDocuments: type === 'kyc' ? ['national_id_or_passport', 'selfie'] : ['certificate_of_incorporation'],
      expiresAt: new Date(createdAt.getTime() + 86_400_000),
      createdAt,
      updatedAt: createdAt,
    });
    await tx
      .insert(verificationSessionTransitions)
      .values({ sessionId: id, fromStatus: null, toStatus: 'pending', actor: 'api_key:test-key', createdAt });
    await enqueueWebhookEvent(tx, {
      organizationId: input.organizationId,
      environment,
      type: 'verification_session.created',
      data: { sessionId: id, type, status: 'pending', previousStatus: null, environment },
      targetUrl: null,
      now: createdAt,
    });
  });
  return id;
}

/** Moves the session as its decider would (the lifecycle's move, with every consequence). */
export async function moveTestSession(
  db: Database,
  sessionId: string,
  move: { to: VerificationStatus; actor: string; reason?: string; now?: Date },
): Promise<void> {
  await commitMove(db, { sessionId, now: move.now ?? new Date(), ...move }, {});
}

/** Records delivery attempts of the session's callback of `type`, as the delivery worker would. */
export async function recordAttempts(
  db: Database,
  eventType: string,
  sessionId: string,
  attempts: Array<{ responseStatus: number | null; at: Date }>,
): Promise<string> {
  const events = await db.select({ id: webhookEvents.id, payload: webhookEvents.payload }).from(webhookEvents);
  const event = events.find(
    (row) =>
      (row.payload as { type: string; data: { sessionId?: string } }).data.sessionId === sessionId &&
      (row.payload as { type: string }).type === eventType,
  );
  if (event === undefined) throw new Error(`No ${eventType} event for the session`);
  let attempt = 0;
  for (const { responseStatus, at } of attempts) {
    attempt += 1;
    const delivered = responseStatus !== null && responseStatus >= 200 && responseStatus < 300;
    await db.insert(webhookDeliveryAttempts).values({
      eventId: event.id,
      attempt,
      url: 'https://hooks.example.com/secret-path?token=abc',
      responseStatus,
      error: responseStatus === null ? 'connect ECONNREFUSED 203.0.113.9:443' : null,
      durationMs: 12,
      outcome: delivered ? 'delivered' : attempt === attempts.length ? 'failed' : 'retrying',
      createdAt: at,
    });
  }
  const delivered = attempts.find((row) => row.responseStatus !== null && row.responseStatus < 300);
  await db
    .update(webhookEvents)
    .set({
      attempts: attempts.length,
      status: delivered === undefined ? 'pending' : 'delivered',
      deliveredAt: delivered?.at ?? null,
    })
    .where(eq(webhookEvents.id, event.id));
  return event.id;
}

/** The wallet's available and held balances. */
export async function walletBalances(db: Database, organizationId: string, environment: ApiKeyEnvironment) {
  const [wallet] = await db
    .select({ available: wallets.availableBalance, held: wallets.heldBalance })
    .from(wallets)
    .where(and(eq(wallets.organizationId, organizationId), eq(wallets.environment, environment)));
  return wallet;
}

/** The kinds of ledger movements of the session's hold, sorted (['hold', 'release'] once released). */
export async function holdMovements(db: Database, sessionId: string): Promise<string[]> {
  const rows = await db
    .select({ kind: ledgerTransactions.kind })
    .from(ledgerTransactions)
    .where(eq(ledgerTransactions.reference, holdReferenceOf(sessionId)));
  return rows.map((row) => row.kind).sort();
}

/** The types of the session's callbacks, oldest first. */
export async function callbackTypes(db: Database, sessionId: string): Promise<string[]> {
  const rows = await db
    .select({ type: webhookEvents.type, payload: webhookEvents.payload })
    .from(webhookEvents)
    .orderBy(asc(webhookEvents.createdAt), asc(webhookEvents.id));
  return rows
    .filter((row) => (row.payload as { data: { sessionId?: string } }).data.sessionId === sessionId)
    .map((row) => row.type);
}

/** The organization's audit events of `action`. */
export function auditEventsOf(db: Database, organizationId: string, action: string) {
  return db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.organizationId, organizationId), eq(auditEvents.action, action)));
}

/**
 * Verifies the session as a decision source would (processing, then verified) and seals what was verified on it, as
 * backend-api's storeVerifiedOutputs does (docs/decisions.md#verified-data).
 */
export async function verifyWithOutputs(
  db: Database,
  vault: Pick<DocumentVault, 'seal'>,
  session: { id: string; type: VerificationType },
  outputs: VerifiedOutputs,
): Promise<void> {
  await moveTestSession(db, session.id, { to: 'processing', actor: 'hosted_page' });
  await moveTestSession(db, session.id, { to: 'verified', actor: 'smile_id' });
  const { sealed } = vault.seal({
    key: verifiedOutputsKey(session),
    bytes: Buffer.from(JSON.stringify(outputs)),
    contentType: 'application/json',
  });
  await db.update(verificationSessions).set({ verifiedOutputs: sealed }).where(eq(verificationSessions.id, session.id));
}

/** Erases the session's personal data as retention does: the verified data cleared, the session stamped. */
export async function eraseVerifiedOutputs(db: Database, sessionId: string, at = new Date()): Promise<void> {
  await db
    .update(verificationSessions)
    .set({ personalDataErasedAt: at, submittedDetails: null, verifiedOutputs: null })
    .where(eq(verificationSessions.id, sessionId));
}
