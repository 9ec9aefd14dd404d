import { randomUUID } from 'node:crypto';
import type {
  DatabaseExecutor,
  Transaction,
  VerificationSession,
  VerificationStatus,
  VerificationType,
} from '@platform/db';
import { verificationSessions } from '@platform/db/schema';
import { insufficientFunds, notFound } from '@platform/errors';
import { ensureWallet, InsufficientFundsError, placeHold } from '@platform/ledger';
import { formatKes } from '@platform/pricing';
import { and, desc, eq, type SQL } from 'drizzle-orm';
import { decodeCursor, pageOf } from '../../shared/pagination.js';
import { afterPosition, cursorTimeOf } from '../../shared/pagination-repository.js';
import {
  holdReferenceOf,
  type LifecycleOptions,
  recordSessionCreated,
  SESSION_NOT_FOUND,
  type SessionOwner,
} from './lifecycle.js';
import { type VerificationPriceList, verificationPriceOf } from './prices.js';
import { requiredDocumentsFor } from './required-documents.js';
import type { VerificationSessionView } from './schemas.js';

export interface NewSessionInput {
  type: VerificationType;
  externalEndUserId: string;
  appName: string | null;
  /** Already checked (checkCallbackUrl). */
  callbackUrl: string | null;
}

export interface CreateSessionContext extends LifecycleOptions {
  owner: SessionOwner;
  /** `api_key:<id>`. */
  actor: string;
  /** The key that creates it (null when the platform itself does). */
  apiKeyId: string | null;
  now: Date;
  ttlMs: number;
  prices: VerificationPriceList;
}

/**
 * Creates a pending session and holds its price on the owner's wallet of the same environment, in the caller's
 * transaction: the session, the hold, the first transition and the created event commit together. Too little
 * available balance throws 402 and, as the transaction rolls back, leaves no trace.
 */
export async function createSession(
  tx: Transaction,
  input: NewSessionInput,
  context: CreateSessionContext,
): Promise<VerificationSession> {
  const { owner, now } = context;
  const id = randomUUID();
  const price = await verificationPriceOf(tx, owner.organizationId, input.type, context.prices);
  const wallet =
    price === 0 ? await ensureWallet(tx, owner) : await placeHeldPrice(tx, owner, { id, type: input.type, price });

  const [session] = await tx
    .insert(verificationSessions)
    .values({
      id,
      organizationId: owner.organizationId,
      environment: owner.environment,
      apiKeyId: context.apiKeyId,
      walletId: wallet.id,
      type: input.type,
      status: 'pending',
      externalEndUserId: input.externalEndUserId,
      appName: input.appName,
      callbackUrl: input.callbackUrl,
      price,
      requiredDocuments: requiredDocumentsFor(input.type),
      expiresAt: new Date(now.getTime() + context.ttlMs),
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (session === undefined) throw new Error('Inserting the verification session returned no row');
  await recordSessionCreated(tx, session, context.actor, context);
  return session;
}

async function placeHeldPrice(
  tx: Transaction,
  owner: SessionOwner,
  session: { id: string; type: VerificationType; price: number },
) {
  try {
    const { wallet } = await placeHold(tx, owner, {
      amount: session.price,
      reference: holdReferenceOf(session.id),
      description: `${session.type} verification`,
    });
    return wallet;
  } catch (error) {
    if (error instanceof InsufficientFundsError) {
      throw insufficientFunds(
        `Insufficient wallet balance: a ${session.type} verification costs ${formatKes(session.price)} and your ` +
          `${owner.environment} wallet has ${formatKes(error.available)} available. Top up your wallet and try again.`,
      );
    }
    throw error;
  }
}

/** The owner's session, or 404: unknown ids and other organizations' or environments' sessions look the same. */
export async function getSession(db: DatabaseExecutor, owner: SessionOwner, id: string): Promise<VerificationSession> {
  const [session] = await db
    .select()
    .from(verificationSessions)
    .where(and(eq(verificationSessions.id, id), ownedBy(owner)));
  if (session === undefined) throw notFound(SESSION_NOT_FOUND);
  return session;
}

/** Any session by id, for the hosted page, where the id in the URL is the credential. */
export async function findSessionById(db: DatabaseExecutor, id: string): Promise<VerificationSession | undefined> {
  const [session] = await db.select().from(verificationSessions).where(eq(verificationSessions.id, id));
  return session;
}

export interface ListSessionsInput {
  status: VerificationStatus | undefined;
  externalEndUserId: string | undefined;
  limit: number;
  cursor: string | undefined;
}

/** A page of the owner's sessions, newest first, with the cursor of the next page (null on the last one). */
export async function listSessions(
  db: DatabaseExecutor,
  owner: SessionOwner,
  { status, externalEndUserId, limit, cursor }: ListSessionsInput,
): Promise<{ sessions: VerificationSession[]; nextCursor: string | null }> {
  const conditions: Array<SQL | undefined> = [ownedBy(owner)];
  if (status !== undefined) conditions.push(eq(verificationSessions.status, status));
  if (externalEndUserId !== undefined) conditions.push(eq(verificationSessions.externalEndUserId, externalEndUserId));
  if (cursor !== undefined) conditions.push(afterPosition(verificationSessions, decodeCursor(cursor)));

  const rows = await db
    .select({
      session: verificationSessions,
      position: cursorTimeOf(verificationSessions.createdAt),
    })
    .from(verificationSessions)
    .where(and(...conditions))
    .orderBy(desc(verificationSessions.createdAt), desc(verificationSessions.id))
    .limit(limit + 1);

  const { page, nextCursor } = pageOf(rows, limit, (row) => ({ createdAt: row.position, id: row.session.id }));
  return { sessions: page.map((row) => row.session), nextCursor };
}

/** The session as the API shows it. `verifyUrl` is where the hosted page is served. */
export function sessionView(session: VerificationSession, verifyUrl: string): VerificationSessionView {
  return {
    sessionId: session.id,
    verificationUrl: verificationUrlOf(verifyUrl, session.id),
    type: session.type,
    environment: session.environment,
    status: session.status,
    externalEndUserId: session.externalEndUserId,
    appName: session.appName,
    callbackUrl: session.callbackUrl,
    requiredDocuments: session.requiredDocuments as VerificationSessionView['requiredDocuments'],
    lastError: session.lastError,
    price: session.price,
    createdAt: session.createdAt.toISOString(),
    updatedAt: session.updatedAt.toISOString(),
    expiresAt: session.expiresAt.toISOString(),
    completedAt: session.completedAt?.toISOString() ?? null,
  };
}

function verificationUrlOf(verifyUrl: string, sessionId: string): string {
  return `${verifyUrl}/session/${sessionId}`;
}

const ownedBy = ({ organizationId, environment }: SessionOwner) =>
  and(eq(verificationSessions.organizationId, organizationId), eq(verificationSessions.environment, environment));
