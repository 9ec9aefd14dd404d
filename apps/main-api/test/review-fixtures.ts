import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type {
  ApiKeyEnvironment,
  Database,
  DecisionSourceKind,
  DocumentContentType,
  DocumentKind,
  MembershipRole,
  NewVerificationCheck,
  VerificationStatus,
  VerificationType,
} from '@platform/db';
import {
  auditEvents,
  ledgerTransactions,
  memberships,
  verificationChecks,
  verificationDocuments,
  verificationSessions,
  verificationSessionTransitions,
} from '@platform/db/schema';
import type { StatementLog } from '@platform/db/testing';
import { handWrittenPdf } from '@platform/document-checks/testing';
import {
  createDocumentVault,
  createLocalFolderObjectStore,
  type DocumentVault,
  generateDocumentKeyEntry,
  parseDocumentKeyring,
} from '@platform/document-vault';
import { placeHold, topUpWallet } from '@platform/ledger';
import { checkEvidenceKey, holdReferenceOf } from '@platform/verification-lifecycle';
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { buildApp } from '../src/app.js';
import { createTestApp, insertOrganization, insertUser, type TestApp, tokenFor } from './helpers.js';
import { tinyPng } from './images.js';

// Sessions waiting for a reviewer, made the way backend-api leaves them after a submission (a held price, the
// pending and processing transitions, documents encrypted in a vault and the details sealed on the row), so that
// main-api's review routes can be tested without backend-api. review-flow.test.ts does the same through
// backend-api itself, once.

export interface ReviewTestApp extends TestApp {
  vault: DocumentVault;
  platformOrganizationId: string;
  /** A reviewer of the platform organization. */
  reviewerId: string;
  /** The test clock the app reads: starts now, moves when told. */
  clock: { now(): Date; advance(ms: number): void };
}

/** A document vault over a fresh temporary folder; `remove` deletes the folder. */
export async function temporaryVault(): Promise<{ vault: DocumentVault; remove: () => Promise<void> }> {
  const directory = await mkdtemp(path.join(tmpdir(), 'main-api-documents-'));
  const vault = createDocumentVault({
    keyring: parseDocumentKeyring(generateDocumentKeyEntry('test')),
    store: createLocalFolderObjectStore({ directory }),
  });
  return { vault, remove: () => rm(directory, { recursive: true, force: true }) };
}

/** main-api with a platform organization, a reviewer in it, a document vault of its own and a clock to move. */
export async function createReviewTestApp(
  options: {
    env?: NodeJS.ProcessEnv;
    reviewerId?: string;
    logger?: FastifyBaseLogger;
    setup?: (app: ReturnType<typeof buildApp>) => void;
    statementLog?: StatementLog;
  } = {},
): Promise<ReviewTestApp> {
  const { vault, remove } = await temporaryVault();
  let current = Date.now();
  const clock = { now: () => new Date(current), advance: (ms: number) => void (current += ms) };
  const platformOrganizationId = randomUUID();
  const t = await createTestApp({
    env: { PLATFORM_ORGANIZATION_ID: platformOrganizationId, ...options.env },
    deps: { vault, now: clock.now, ...(options.logger === undefined ? {} : { logger: options.logger }) },
    ...(options.setup === undefined ? {} : { setup: options.setup }),
    ...(options.statementLog === undefined ? {} : { statementLog: options.statementLog }),
  });
  const reviewerId = options.reviewerId ?? 'user_reviewer';
  await insertUser(t.db, { id: reviewerId });
  await insertOrganization(t.db, {
    id: platformOrganizationId,
    name: 'The platform',
    members: [{ userId: reviewerId, role: 'reviewer' }],
  });
  return {
    ...t,
    vault,
    platformOrganizationId,
    reviewerId,
    clock,
    async close() {
      await t.close();
      await remove();
    },
  };
}

/** Adds a member of `role` to the platform organization (a user made first). */
export async function addPlatformMember(t: ReviewTestApp, userId: string, role: MembershipRole) {
  await insertUser(t.db, { id: userId });
  await t.db.insert(memberships).values({ organizationId: t.platformOrganizationId, userId, role });
}

export interface SessionToReview {
  organizationId: string;
  type?: VerificationType;
  environment?: ApiKeyEnvironment;
  status?: VerificationStatus;
  decisionSource?: DecisionSourceKind;
  appName?: string | null;
  externalEndUserId?: string;
  price?: number;
  submittedAt?: Date | null;
  /** Documents to store; kyc: front and selfie by default, kyb: its four papers. */
  documents?: DocumentKind[];
  /** Documents of those stored as a PDF; the others are PNG images. */
  pdfDocuments?: DocumentKind[];
  callbackUrl?: string | null;
  /**
   * For a decided status (verified, rejected, requires_input): who decided it (a transition's actor,
   * `reviewer:user_reviewer` by default), why, and when (a minute after the submission by default). The session then
   * moves pending, processing, and the decision, as the lifecycle moves it.
   */
  decidedBy?: string;
  decisionReason?: string | null;
  decidedAt?: Date;
  /** A hand-over to a reviewer before the decision (Smile ID's: processing to processing, with its reason). */
  handOver?: { actor: string; reason: string };
  /** What the submission stated, sealed on the row; an ID card's type and number by default (kyb: its company). */
  details?: Record<string, unknown>;
}

const decidedStatuses: readonly VerificationStatus[] = ['verified', 'rejected', 'requires_input'];

export interface InsertedSession {
  sessionId: string;
  documents: Array<{ id: string; kind: DocumentKind; bytes: Buffer; contentType: DocumentContentType }>;
}

const defaultDocuments: Record<VerificationType, DocumentKind[]> = {
  kyc: ['id_document_front', 'selfie'],
  kyb: ['certificate_of_incorporation', 'cr12', 'kra_pin_certificate', 'director_id'],
};

/**
 * A session as backend-api leaves it once submitted (processing, decided by a reviewer, unless told otherwise),
 * with its price held from a funded wallet, its documents in `vault` and its details sealed.
 */
export async function insertSessionToReview(
  db: Database,
  vault: DocumentVault,
  input: SessionToReview,
): Promise<InsertedSession> {
  const sessionId = randomUUID();
  const type = input.type ?? 'kyc';
  const environment = input.environment ?? 'live';
  const price = input.price ?? (type === 'kyc' ? 50 : 200);
  const status = input.status ?? 'processing';
  const submittedAt = input.submittedAt === undefined ? new Date(Date.now() - 60_000) : input.submittedAt;
  const wallet = { organizationId: input.organizationId, environment };
  const details =
    input.details ??
    (type === 'kyc'
      ? { type, idType: 'national_id', idNumber: '12345678' }
      : { type, registrationNumber: 'PVT-AB12CD3', companyName: 'Acme Ltd' });
  const sealed =
    submittedAt === null
      ? null
      : vault.seal({
          key: `${type}/${sessionId}/details`,
          bytes: Buffer.from(JSON.stringify(details)),
          contentType: 'application/json',
        }).sealed;

  const documents: InsertedSession['documents'] = [];
  for (const kind of input.documents ?? defaultDocuments[type]) {
    const id = randomUUID();
    // Different bytes per document, so a test can tell which one it was served.
    if (input.pdfDocuments?.includes(kind)) {
      const bytes = handWrittenPdf({ catalog: `/Lang (document ${documents.length + 1})` });
      documents.push({ id, kind, bytes, contentType: 'application/pdf' });
    } else {
      documents.push({ id, kind, bytes: tinyPng(documents.length + 1), contentType: 'image/png' });
    }
  }

  await db.transaction(async (tx) => {
    await topUpWallet(tx, wallet, { amount: price + 1_000, reference: `review-test-funding:${sessionId}` });
    const { wallet: held } = await placeHold(tx, wallet, {
      amount: price,
      reference: holdReferenceOf(sessionId),
      description: `${type} verification`,
    });
    const createdAt = new Date((submittedAt ?? new Date()).getTime() - 60_000);
    await tx.insert(verificationSessions).values({
      id: sessionId,
      organizationId: input.organizationId,
      environment,
      walletId: held.id,
      type,
      status,
      externalEndUserId: input.externalEndUserId ?? `end-user-${sessionId.slice(0, 8)}`,
      appName: input.appName === undefined ? 'Acme Lending' : input.appName,
      callbackUrl: input.callbackUrl ?? null,
      decisionSource: input.decisionSource ?? 'manual',
      price,
      requiredDocuments: type === 'kyc' ? ['national_id_or_passport', 'selfie'] : ['certificate_of_incorporation'],
      submittedDetails: sealed,
      submittedAt,
      expiresAt: new Date(createdAt.getTime() + 86_400_000),
      createdAt,
      updatedAt: submittedAt ?? createdAt,
    });
    await tx
      .insert(verificationSessionTransitions)
      .values(transitionsOf(sessionId, status, input, createdAt, submittedAt));
  });
  for (const document of documents) {
    const storageKey = `${type}/${sessionId}/${document.id}`;
    const stored = await vault.store({ key: storageKey, bytes: document.bytes, contentType: document.contentType });
    await db.insert(verificationDocuments).values({
      id: document.id,
      sessionId,
      kind: document.kind,
      contentType: document.contentType,
      sizeBytes: stored.size,
      sha256: stored.sha256,
      storageKey,
      encryptionKeyId: stored.keyId,
    });
  }
  return { sessionId, documents };
}

/**
 * The session's status changes: created pending; then moved to its status, through processing (and the hand-over)
 * when it is a decision, as the lifecycle records them.
 */
function transitionsOf(
  sessionId: string,
  status: VerificationStatus,
  input: SessionToReview,
  createdAt: Date,
  submittedAt: Date | null,
): Array<typeof verificationSessionTransitions.$inferInsert> {
  const submitted = submittedAt ?? createdAt;
  const moves: Array<typeof verificationSessionTransitions.$inferInsert> = [
    { sessionId, fromStatus: null, toStatus: 'pending', actor: 'api_key:test', createdAt },
  ];
  if (status === 'pending') return moves;
  if (status !== 'processing' && !decidedStatuses.includes(status)) {
    return [
      ...moves,
      { sessionId, fromStatus: 'pending', toStatus: status, actor: 'api_key:test', createdAt: submitted },
    ];
  }
  moves.push({ sessionId, fromStatus: 'pending', toStatus: 'processing', actor: 'hosted_page', createdAt: submitted });
  if (input.handOver !== undefined) {
    const { actor, reason } = input.handOver;
    const at = new Date(submitted.getTime() + 30_000);
    moves.push({ sessionId, fromStatus: 'processing', toStatus: 'processing', actor, reason, createdAt: at });
  }
  if (status === 'processing') return moves;
  moves.push({
    sessionId,
    fromStatus: 'processing',
    toStatus: status,
    actor: input.decidedBy ?? 'reviewer:user_reviewer',
    reason: input.decisionReason ?? null,
    createdAt: input.decidedAt ?? new Date(submitted.getTime() + 60_000),
  });
  return moves;
}

/**
 * Erases the session's documents and submitted details as retention does: the files' rows marked erased, the details
 * cleared, the session stamped. The stored files are left (the vault is the test's own).
 */
export async function eraseAsRetention(db: Database, sessionId: string, at: Date): Promise<void> {
  await db.update(verificationDocuments).set({ erasedAt: at }).where(eq(verificationDocuments.sessionId, sessionId));
  await db
    .update(verificationSessions)
    .set({ personalDataErasedAt: at, submittedDetails: null })
    .where(eq(verificationSessions.id, sessionId));
  await db.update(verificationChecks).set({ evidence: null }).where(eq(verificationChecks.sessionId, sessionId));
}

/**
 * A check of the session's submission as backend-api records it; with `sealed`, its evidence sealed by the vault under
 * the check's key, as backend-api seals it.
 */
export async function insertCheck(
  db: Database,
  sessionId: string,
  check: Pick<NewVerificationCheck, 'kind' | 'source' | 'outcome' | 'summary' | 'submittedAt'> &
    Partial<Pick<NewVerificationCheck, 'code' | 'details'>> & { createdAt?: Date },
  sealed?: { vault: DocumentVault; type: VerificationType; evidence: Record<string, unknown> },
): Promise<string> {
  const id = randomUUID();
  const evidence =
    sealed === undefined
      ? null
      : sealed.vault.seal({
          key: checkEvidenceKey({ type: sealed.type, id: sessionId }, id),
          bytes: Buffer.from(JSON.stringify(sealed.evidence)),
          contentType: 'application/json',
        }).sealed;
  const [row] = await db
    .insert(verificationChecks)
    .values({ id, sessionId, evidence, ...check })
    .returning({ id: verificationChecks.id });
  if (row === undefined) throw new Error('the check was not inserted');
  return row.id;
}

/** The session's status and lastError as stored. */
export async function sessionState(db: Database, sessionId: string) {
  const [row] = await db
    .select({
      status: verificationSessions.status,
      lastError: verificationSessions.lastError,
      resubmitDocuments: verificationSessions.resubmitDocuments,
    })
    .from(verificationSessions)
    .where(eq(verificationSessions.id, sessionId));
  return row;
}

/** The kinds of ledger movements of the session's hold, e.g. ['capture', 'hold']. */
export async function holdMovements(db: Database, sessionId: string): Promise<string[]> {
  const rows = await db
    .select({ kind: ledgerTransactions.kind })
    .from(ledgerTransactions)
    .where(eq(ledgerTransactions.reference, holdReferenceOf(sessionId)));
  return rows.map((row) => row.kind).sort();
}

/** The platform organization's audit events of `action`, oldest first. */
export function auditEventsOf(db: Database, organizationId: string, action: string) {
  return db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.organizationId, organizationId), eq(auditEvents.action, action)))
    .orderBy(asc(auditEvents.createdAt), asc(auditEvents.id));
}

/** Bearer headers of `userId`, signed at the app's clock (which tests move, and tokens are checked against). */
export async function headersOf(t: ReviewTestApp, userId: string): Promise<{ authorization: string }> {
  return { authorization: `Bearer ${await tokenFor(userId, { now: t.clock.now(), expiresIn: 3600 })}` };
}
