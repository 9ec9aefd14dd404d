import { randomUUID } from 'node:crypto';
import type {
  ApiKeyOwner,
  DatabaseExecutor,
  SessionLocale,
  Transaction,
  VerificationSession,
  VerificationStatus,
  VerificationType,
} from '@platform/db';
import { insufficientFunds, notFound } from '@platform/errors';
import { ensureWallet, InsufficientFundsError, placeHold } from '@platform/ledger';
import { decodeCursor, pageOf } from '@platform/pagination';
import { formatKes } from '@platform/pricing';
import {
  findSession,
  holdReferenceOf,
  type LifecycleOptions,
  moveSession,
  recordSessionCreated,
  SESSION_NOT_FOUND,
} from '@platform/verification-lifecycle';
import { type DecisionTable, decisionSourceFor } from './decisions/index.js';
import { findPriceOverride, insertSession, listSessionRows } from './repository.js';
import { requiredDocumentsFor } from './required-documents.js';
import type { VerificationSessionView } from './schemas.js';

/** The service's default price per verification type, whole KES (configuration). */
export type VerificationPriceList = Readonly<Record<VerificationType, number>>;

/** What a session of `type` costs the organization: its own price when it has one, else the default. */
async function verificationPriceOf(
  db: DatabaseExecutor,
  organizationId: string,
  type: VerificationType,
  defaults: VerificationPriceList,
): Promise<number> {
  return (await findPriceOverride(db, organizationId, type)) ?? defaults[type];
}

export interface NewSessionInput {
  type: VerificationType;
  externalEndUserId: string;
  appName: string | null;
  /** Already checked (checkSessionUrl). */
  callbackUrl: string | null;
  locale: SessionLocale;
  /** Already checked (checkSessionUrl). */
  returnUrl: string | null;
  /** Already checked (checkSessionUrl). */
  privacyNoticeUrl: string | null;
}

export interface CreateSessionContext extends LifecycleOptions {
  owner: ApiKeyOwner;
  /** `api_key:<id>`. */
  actor: string;
  /** The key that creates it (null when the platform itself does). */
  apiKeyId: string | null;
  now: Date;
  ttlMs: number;
  prices: VerificationPriceList;
  /** What decides sessions, by environment and type: fixed on the session when it is created. */
  decisions: DecisionTable;
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

  const session = await insertSession(tx, {
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
    locale: input.locale,
    returnUrl: input.returnUrl,
    privacyNoticeUrl: input.privacyNoticeUrl,
    decisionSource: decisionSourceFor(context, owner.environment, input.type).kind,
    price,
    requiredDocuments: requiredDocumentsFor(input.type),
    expiresAt: new Date(now.getTime() + context.ttlMs),
    createdAt: now,
    updatedAt: now,
  });
  await recordSessionCreated(tx, session, context.actor, context);
  return session;
}

async function placeHeldPrice(
  tx: Transaction,
  owner: ApiKeyOwner,
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
export async function getSession(db: DatabaseExecutor, owner: ApiKeyOwner, id: string): Promise<VerificationSession> {
  const session = await findSession(db, id, owner);
  if (session === undefined) throw notFound(SESSION_NOT_FOUND);
  return session;
}

/** Any session by id, for the hosted page, where the id in the URL is the credential. */
export async function findSessionById(db: DatabaseExecutor, id: string): Promise<VerificationSession | undefined> {
  return findSession(db, id);
}

/**
 * Cancels the owner's session (pending or requires_input) in the caller's transaction, releasing its hold: 404 for
 * another owner's or an unknown id, 409 from any other status.
 */
export async function cancelSession(
  tx: Transaction,
  owner: ApiKeyOwner,
  request: { sessionId: string; actor: string; now: Date },
  options: LifecycleOptions,
): Promise<VerificationSession> {
  const { session } = await moveSession(tx, { ...request, to: 'canceled', owner }, options);
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
  owner: ApiKeyOwner,
  { status, externalEndUserId, limit, cursor }: ListSessionsInput,
): Promise<{ sessions: VerificationSession[]; nextCursor: string | null }> {
  const rows = await listSessionRows(db, owner, {
    status,
    externalEndUserId,
    after: cursor === undefined ? undefined : decodeCursor(cursor),
    limit: limit + 1,
  });
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
    locale: session.locale,
    returnUrl: session.returnUrl,
    privacyNoticeUrl: session.privacyNoticeUrl,
    requiredDocuments: session.requiredDocuments as VerificationSessionView['requiredDocuments'],
    lastError: session.lastError,
    resubmitDocuments: session.resubmitDocuments,
    price: session.price,
    createdAt: session.createdAt.toISOString(),
    updatedAt: session.updatedAt.toISOString(),
    expiresAt: session.expiresAt.toISOString(),
    completedAt: session.completedAt?.toISOString() ?? null,
    submittedAt: session.submittedAt?.toISOString() ?? null,
    personalDataErasedAt: session.personalDataErasedAt?.toISOString() ?? null,
  };
}

function verificationUrlOf(verifyUrl: string, sessionId: string): string {
  return `${verifyUrl}/session/${sessionId}`;
}
