import { randomUUID } from 'node:crypto';
import {
  type ApiKeyOwner,
  type Database,
  type DatabaseExecutor,
  type RidingStatement,
  type SessionLocale,
  sendRiders,
  type Transaction,
  type VerificationSession,
  type VerificationStatus,
  type VerificationType,
} from '@platform/db';
import { insufficientFunds, notFound } from '@platform/errors';
import { ensureWallet, InsufficientFundsError, placeHold, placeHoldOrDefer, walletIdQuery } from '@platform/ledger';
import { decodeCursor, pageOf } from '@platform/pagination';
import { formatKes } from '@platform/pricing';
import {
  findSession,
  holdReferenceOf,
  type LifecycleOptions,
  type MoveOptions,
  moveSession,
  readSession,
  SESSION_NOT_FOUND,
  sessionCreatedRiders,
} from '@platform/verification-lifecycle';
import { type DecisionTable, decisionSourceFor } from './decisions/index.js';
import { insertPricedSession, listSessionRows, type NewSessionRow, oneStatementSessionParts } from './repository.js';
import { requiredDocumentsFor } from './required-documents.js';
import type { VerificationSessionView } from './schemas.js';

/**
 * The service's default price per verification type, whole KES (configuration); an organization's own price
 * (`verification_prices`) replaces it.
 */
export type VerificationPriceList = Readonly<Record<VerificationType, number>>;

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

export interface CreateSessionContext extends LifecycleOptions, MoveOptions {
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
 *
 * Two statements (docs/decisions.md#statements-per-request): the first inserts the session at its price with its
 * transition, event and kycStatus; the second places the hold, locking the wallet, with `context.alongside` (the
 * caller's writes built from the new session, such as the stored idempotent answer). The wallet stays locked from
 * that last statement to the COMMIT, one round trip, so creates of one organization follow each other closely.
 */
export async function createSession(
  tx: Transaction,
  input: NewSessionInput,
  context: CreateSessionContext,
): Promise<VerificationSession> {
  const { owner } = context;
  const row = newSessionRow(input, context);
  const insert = () =>
    insertPricedSession(
      tx,
      row,
      { defaultPrice: context.prices[input.type], walletId: walletIdQuery(owner) },
      (onlyIf) =>
        sessionCreatedRiders(
          { ...row, lastError: null, lastErrorCode: null, resubmitDocuments: null },
          context.actor,
          context,
          onlyIf,
        ),
    );
  let created = await insert();
  if (created.walletId === null) {
    // The owner's wallet was never used: nothing to hold from, unless the session is free.
    if (created.price > 0) throw tooLittleAvailable(owner, input.type, created.price, 0);
    await ensureWallet(tx, owner);
    created = await insert();
  }
  const { price, walletId } = created;
  if (!created.inserted || walletId === null) throw new Error('The verification session was not inserted');
  const session = pendingSession(row, price, walletId);
  const alongside = context.alongside?.(session) ?? [];
  if (session.price === 0) await sendRiders(tx, alongside);
  else await placeHeldPrice(tx, owner, session, alongside);
  return session;
}

/** The row of a new pending session of `input` for `context.owner`, with a new id (its price and wallet not yet known). */
function newSessionRow(input: NewSessionInput, context: CreateSessionContext): NewSessionRow {
  const { owner, now } = context;
  return {
    id: randomUUID(),
    organizationId: owner.organizationId,
    environment: owner.environment,
    apiKeyId: context.apiKeyId,
    type: input.type,
    status: 'pending',
    externalEndUserId: input.externalEndUserId,
    appName: input.appName,
    callbackUrl: input.callbackUrl,
    locale: input.locale,
    returnUrl: input.returnUrl,
    privacyNoticeUrl: input.privacyNoticeUrl,
    decisionSource: decisionSourceFor(context, owner.environment, input.type).kind,
    requiredDocuments: requiredDocumentsFor(input.type),
    expiresAt: new Date(now.getTime() + context.ttlMs),
    createdAt: now,
    updatedAt: now,
  };
}

/** The session a new row is once its price and wallet are known: pending, nothing submitted or decided yet. */
function pendingSession(row: NewSessionRow, price: number, walletId: string): VerificationSession {
  return {
    ...row,
    price,
    walletId,
    lastError: null,
    lastErrorCode: null,
    submittedDetails: null,
    hostedPageDraft: null,
    resubmitDocuments: null,
    submittedAt: null,
    personalDataErasedAt: null,
    completedAt: null,
  };
}

/**
 * Creates a pending session as `createSession` does, in one statement sent outside a transaction, holding `price`,
 * the organization's price for the type as this instance last saw it (docs/decisions.md#a-create-in-one-statement):
 * the hold, the session with its transition, event and kycStatus, and `context.alongside` (the stored idempotent
 * answer, which must be written: `alongside` riders are required) commit together. When the wallet is missing or
 * short, the hold would send a low-balance alert, the price is no longer `price`, or an answer would not be stored,
 * the statement writes nothing and fails with an error `isDeferredToTransaction` knows: run `createSession` in a
 * transaction then. The session given to `alongside` has no wallet id yet (`walletId` empty: the statement finds it).
 */
export async function createSessionInOneStatement(
  db: Database,
  input: NewSessionInput,
  context: CreateSessionContext,
  price: number,
): Promise<VerificationSession> {
  const { owner } = context;
  const row = newSessionRow(input, context);
  const session = pendingSession(row, price, '');
  const parts = oneStatementSessionParts(row, price, context.prices[input.type]);
  // The session's insert first (the parts' condition names it): its transition, event and kycStatus only with it.
  const riders = [
    parts.sessionInsert,
    ...sessionCreatedRiders(
      { ...row, lastError: null, lastErrorCode: null, resubmitDocuments: null },
      context.actor,
      context,
      parts.withTheSession,
    ),
  ];
  const alongside = context.alongside?.(session) ?? [];
  const { walletId } = await placeHoldOrDefer(
    db,
    owner,
    { amount: price, reference: holdReferenceOf(row.id), description: `${input.type} verification` },
    {
      leading: parts.leading,
      onlyIf: parts.onlyIf,
      riders: [...riders, ...alongside],
      required: alongside.map((_, index) => riders.length + index),
    },
  );
  return { ...session, walletId };
}

async function placeHeldPrice(
  tx: Transaction,
  owner: ApiKeyOwner,
  session: { id: string; type: VerificationType; price: number },
  alongside: readonly RidingStatement[],
): Promise<void> {
  try {
    await placeHold(
      tx,
      owner,
      { amount: session.price, reference: holdReferenceOf(session.id), description: `${session.type} verification` },
      { alongside },
    );
  } catch (error) {
    if (error instanceof InsufficientFundsError) {
      throw tooLittleAvailable(owner, session.type, session.price, error.available);
    }
    throw error;
  }
}

function tooLittleAvailable(owner: ApiKeyOwner, type: VerificationType, price: number, available: number) {
  return insufficientFunds(
    `Insufficient wallet balance: a ${type} verification costs ${formatKes(price)} and your ` +
      `${owner.environment} wallet has ${formatKes(available)} available. Top up your wallet and try again.`,
  );
}

/** The owner's session, or 404: unknown ids and other organizations' or environments' sessions look the same. */
export async function getSession(db: DatabaseExecutor, owner: ApiKeyOwner, id: string): Promise<VerificationSession> {
  const session = await findSession(db, id, owner);
  if (session === undefined) throw notFound(SESSION_NOT_FOUND);
  return session;
}

/** getSession outside any transaction, as GET /v1/verify/sessions/:id (which customers poll) reads it: one prepared read. */
export async function readOwnedSession(db: Database, owner: ApiKeyOwner, id: string): Promise<VerificationSession> {
  const session = await readSession(db, id, owner);
  if (session === undefined) throw notFound(SESSION_NOT_FOUND);
  return session;
}

/** findSessionById outside any transaction, as the hosted page reads its session on every step: one prepared read. */
export function readSessionById(db: Database, id: string): Promise<VerificationSession | undefined> {
  return readSession(db, id);
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
  moveOptions: MoveOptions = {},
): Promise<VerificationSession> {
  const { session } = await moveSession(tx, { ...request, to: 'canceled', owner }, options, moveOptions);
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
    lastErrorCode: session.lastErrorCode,
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
