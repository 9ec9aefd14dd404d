import { randomUUID } from 'node:crypto';
import type {
  ApiKeyOwner,
  DatabaseExecutor,
  SessionLocale,
  UnitOfWork,
  VerificationSession,
  VerificationStatus,
  VerificationType,
} from '@platform/db';
import { insufficientFunds, notFound } from '@platform/errors';
import { addHold, ensureWallet } from '@platform/ledger';
import { decodeCursor, pageOf } from '@platform/pagination';
import { formatKes } from '@platform/pricing';
import {
  addSessionCreated,
  cancelSession as cancelOwnedSession,
  holdReferenceOf,
  type LifecycleOptions,
  requiredDocumentsFor,
  SESSION_NOT_FOUND,
} from '@platform/verification-lifecycle';
import { type DecisionTable, decisionSourceFor } from './decisions/index.js';
import type { KnownPrices } from './known-prices.js';
import {
  addPriceCheck,
  addSession,
  findPriceAndWallet,
  findSessionWithId,
  listSessionRows,
  type NewSessionRow,
} from './repository.js';
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

export interface CreateSessionContext extends LifecycleOptions {
  owner: ApiKeyOwner;
  /** `api_key:<id>`. */
  actor: string;
  /** The key that creates it (null when the platform itself does). */
  apiKeyId: string | null;
  now: Date;
  ttlMs: number;
  prices: VerificationPriceList;
  /** Whole KES a test wallet first used by this session starts with (docs/decisions.md#test-credit); 0: none. */
  testWalletCredit?: number;
  /** What decides sessions, by environment and type: fixed on the session when it is created. */
  decisions: DecisionTable;
  /** The organizations' prices this instance has seen, for a create in one statement (known-prices.ts). */
  pricesSeen: KnownPrices;
}

/** A session just created: its wallet is the owner's of its environment, found by the statement that writes it. */
export type CreatedSession = Omit<VerificationSession, 'walletId'>;

/**
 * Creates a pending session and holds its price on the owner's wallet of the same environment, in `work`: the
 * session, its first transition, its created event (and kycStatus) and the hold are written together at the
 * unit's commit, the hold first, taking the wallet's lock for that one statement. Too little available balance is
 * a 402 and writes nothing.
 *
 * One statement or a transaction (docs/decisions.md#a-create-in-one-statement): with a price this instance has seen
 * for the organization and type, nothing is sent before the commit, which is then one statement by itself, holding
 * that price while it is still the one in force. Any other end (the price changed, the wallet short or never used,
 * a low-balance alert to send) writes nothing there, and the unit runs this again in a transaction, which reads the
 * price first and answers each of them.
 */
export async function createSession(
  work: UnitOfWork,
  input: NewSessionInput,
  context: CreateSessionContext,
): Promise<CreatedSession> {
  const { owner } = context;
  const row = newSessionRow(input, context);
  const price = await priceToHold(work, row, context);
  const session = pendingSession(row, price);
  addSession(work, row, price);
  addSessionCreated(work, session, context.actor, context);
  if (price > 0) {
    addHold(
      work,
      owner,
      { amount: price, reference: holdReferenceOf(row.id), description: `${input.type} verification` },
      { whenShort: (available) => tooLittleAvailable(owner, input.type, price, available) },
    );
  }
  return session;
}

/**
 * The price the new session holds. While the unit may still commit as one statement, a price this instance has seen
 * for the organization and type, with the check, at commit, that it is still the one in force; otherwise the price
 * read in the unit's transaction (and remembered), on a wallet that exists: a wallet never used is created for a free
 * session (empty) and for a test session its test credit pays (docs/decisions.md#test-credit), and is a 402 otherwise.
 */
async function priceToHold(work: UnitOfWork, row: NewSessionRow, context: CreateSessionContext): Promise<number> {
  const { owner, pricesSeen } = context;
  const defaultPrice = context.prices[row.type];
  const seen = work.transactional ? undefined : pricesSeen.get(owner.organizationId, row.type);
  if (seen !== undefined && seen > 0) {
    addPriceCheck(work, row, { price: seen, defaultPrice });
    return seen;
  }
  const { price, walletFound } = await findPriceAndWallet(work, row, defaultPrice);
  pricesSeen.remember(owner.organizationId, row.type, price);
  if (!walletFound) {
    // A test wallet first used here starts with its test credit, which the hold then takes from.
    const credit = owner.environment === 'test' ? (context.testWalletCredit ?? 0) : 0;
    if (price > credit) throw tooLittleAvailable(owner, row.type, price, credit);
    await ensureWallet(await work.transaction(), owner, { testCredit: credit });
  }
  return price;
}

/** The row of a new pending session of `input` for `context.owner`, with a new id (its price not yet known). */
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
    parentSessionId: null,
    expiresAt: new Date(now.getTime() + context.ttlMs),
    createdAt: now,
    updatedAt: now,
  };
}

/** The session a new row is at its price: pending, nothing submitted or decided yet. */
function pendingSession(row: NewSessionRow, price: number): CreatedSession {
  return {
    ...row,
    price,
    lastError: null,
    lastErrorCode: null,
    submittedDetails: null,
    hostedPageDraft: null,
    resubmitDocuments: null,
    submittedAt: null,
    personalDataErasedAt: null,
    completedAt: null,
    verifiedOutputs: null,
    idNumberDigest: null,
    decisionPolicy: null,
  };
}

function tooLittleAvailable(owner: ApiKeyOwner, type: VerificationType, price: number, available: number) {
  return insufficientFunds(
    `Insufficient wallet balance: a ${type} verification costs ${formatKes(price)} and your ` +
      `${owner.environment} wallet has ${formatKes(available)} available. Top up your wallet and try again.`,
  );
}

/**
 * The session as its owner (organization and environment) sees it, or 404: unknown ids and other organizations' or
 * environments' sessions look the same.
 */
export async function readOwnerSession(
  db: DatabaseExecutor,
  owner: ApiKeyOwner,
  id: string,
): Promise<VerificationSession> {
  const session = await findSessionWithId(db, id, owner);
  if (session === undefined) throw notFound(SESSION_NOT_FOUND);
  return session;
}

/**
 * Any session by id, for the service's own work: the hosted page (where the id in the URL is the credential) and the
 * decision sources' jobs.
 */
export function readAnySession(db: DatabaseExecutor, id: string): Promise<VerificationSession | undefined> {
  return findSessionWithId(db, id);
}

/**
 * Cancels the owner's session (pending or requires_input) in `work`, its hold released at the unit's commit: 404 for
 * another owner's or an unknown id, 409 from any other status. The lifecycle's cancel, which main-api's members run
 * too (docs/decisions.md#cancel-from-the-main-api).
 */
export function cancelSession(
  work: UnitOfWork,
  owner: ApiKeyOwner,
  request: { sessionId: string; actor: string; now: Date },
  options: LifecycleOptions,
): Promise<VerificationSession> {
  return cancelOwnedSession(work, { ...request, owner }, options);
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
export function sessionView(session: CreatedSession, verifyUrl: string): VerificationSessionView {
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
