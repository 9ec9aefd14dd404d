import type {
  ApiKeyOwner,
  DatabaseExecutor,
  DocumentKind,
  NewVerificationDocument,
  VerificationDocument,
  VerificationSession,
  VerificationStatus,
} from '@platform/db';
import { verificationConsents, verificationDocuments, verificationSessions } from '@platform/db/schema/verification';
import { effectiveRetentionDaysOf, type VerificationRetentionBounds } from '@platform/organizations';
import { and, asc, eq, exists, inArray, isNotNull, isNull, lte, notInArray, or, sql } from 'drizzle-orm';

// The queries of a session's documents and of what a submission and an erasure change on the session (and on its
// consents). Given an owner, a session query sees only that organization's and environment's sessions.

const sessionIs = (id: string, owner: ApiKeyOwner | undefined) =>
  and(
    eq(verificationSessions.id, id),
    owner && eq(verificationSessions.organizationId, owner.organizationId),
    owner && eq(verificationSessions.environment, owner.environment),
  );

/**
 * The session, locked until the transaction ends: uploads, submissions and erasures of one session take turns, so
 * a document never lands on a session that was just submitted.
 */
export async function lockSession(
  tx: DatabaseExecutor,
  id: string,
  owner: ApiKeyOwner | undefined,
): Promise<VerificationSession | undefined> {
  const [session] = await tx.select().from(verificationSessions).where(sessionIs(id, owner)).for('update');
  return session;
}

const current = and(isNull(verificationDocuments.supersededAt), isNull(verificationDocuments.erasedAt));

/** The session's documents that count: neither replaced by a newer one of their kind nor erased, oldest first. */
export function listCurrentDocuments(tx: DatabaseExecutor, sessionId: string): Promise<VerificationDocument[]> {
  return tx
    .select()
    .from(verificationDocuments)
    .where(and(eq(verificationDocuments.sessionId, sessionId), current))
    .orderBy(asc(verificationDocuments.createdAt), asc(verificationDocuments.kind), asc(verificationDocuments.id));
}

/** Marks the session's current documents of `kind` as replaced (a newer one of the kind is being added). */
export async function supersedeDocuments(
  tx: DatabaseExecutor,
  sessionId: string,
  kind: DocumentKind,
  now: Date,
): Promise<void> {
  await tx
    .update(verificationDocuments)
    .set({ supersededAt: now })
    .where(and(eq(verificationDocuments.sessionId, sessionId), eq(verificationDocuments.kind, kind), current));
}

export async function insertDocument(
  tx: DatabaseExecutor,
  values: NewVerificationDocument,
): Promise<VerificationDocument> {
  const [document] = await tx.insert(verificationDocuments).values(values).returning();
  if (document === undefined) throw new Error('Inserting the verification document returned no row');
  return document;
}

/** Keeps the sealed submitted details on the session and when they were submitted. */
export async function recordSubmission(
  tx: DatabaseExecutor,
  sessionId: string,
  sealedDetails: Buffer,
  now: Date,
): Promise<void> {
  await tx
    .update(verificationSessions)
    .set({ submittedDetails: sealedDetails, submittedAt: now, updatedAt: now })
    .where(eq(verificationSessions.id, sessionId));
}

/** A consent that still says where it was given from or with what browser. */
const consentWithEvidence = or(isNotNull(verificationConsents.ip), isNotNull(verificationConsents.userAgent));

/**
 * Records that the session's personal data is gone: its documents erased (rows kept), its details and the hosted
 * page's draft removed, the IP address and user agent of its consents removed (their time, text version and locale
 * stay as evidence that consent was given), and the time of the first erasure (a repeated erasure keeps it).
 */
export async function markPersonalDataErased(
  tx: DatabaseExecutor,
  session: VerificationSession,
  now: Date,
): Promise<VerificationSession> {
  await tx
    .update(verificationDocuments)
    .set({ erasedAt: now })
    .where(and(eq(verificationDocuments.sessionId, session.id), isNull(verificationDocuments.erasedAt)));
  await tx
    .update(verificationConsents)
    .set({ ip: null, userAgent: null })
    .where(and(eq(verificationConsents.sessionId, session.id), consentWithEvidence));
  const [erased] = await tx
    .update(verificationSessions)
    .set({
      submittedDetails: null,
      hostedPageDraft: null,
      // What was verified goes with what was submitted (docs/decisions.md#verified-data).
      verifiedOutputs: null,
      personalDataErasedAt: session.personalDataErasedAt ?? now,
      ...(session.personalDataErasedAt === null ? { updatedAt: now } : {}),
    })
    .where(eq(verificationSessions.id, session.id))
    .returning();
  if (erased === undefined) throw new Error('The erased verification session disappeared');
  return erased;
}

/**
 * One session whose personal data is due for deletion, locked until the transaction ends and skipped by anyone who
 * holds it already (FOR UPDATE SKIP LOCKED: instances running the retention job at once take different sessions):
 * in one of `statuses`, final for its organization's period at `now` (never later than `finalBefore`), not erased yet, and with something to erase (sealed
 * details, the hosted page's draft, a document whose file is still stored, or a consent's IP address or user
 * agent). Oldest first; `skip` are passed over.
 */
export async function claimSessionDueForErasure(
  tx: DatabaseExecutor,
  {
    statuses,
    now,
    finalBefore,
    retention,
    skip,
  }: {
    statuses: readonly VerificationStatus[];
    now: Date;
    /** No session final later is due (the shortest period allowed): the bound the index scan stops at. */
    finalBefore: Date;
    retention: VerificationRetentionBounds;
    skip: ReadonlySet<string>;
  },
): Promise<string | undefined> {
  const storedDocument = tx
    .select({ id: verificationDocuments.id })
    .from(verificationDocuments)
    .where(and(eq(verificationDocuments.sessionId, verificationSessions.id), isNull(verificationDocuments.erasedAt)));
  const consentToErase = tx
    .select({ id: verificationConsents.id })
    .from(verificationConsents)
    .where(and(eq(verificationConsents.sessionId, verificationSessions.id), consentWithEvidence));
  const [due] = await tx
    .select({ id: verificationSessions.id })
    .from(verificationSessions)
    .where(
      and(
        inArray(verificationSessions.status, [...statuses]),
        lte(verificationSessions.completedAt, finalBefore),
        // The organization's own period (or the default), read per row from its primary key.
        sql`${verificationSessions.completedAt} <= ${now.toISOString()}::timestamptz - make_interval(days => ${effectiveRetentionDaysOf(verificationSessions.organizationId, retention)})`,
        isNull(verificationSessions.personalDataErasedAt),
        or(
          isNotNull(verificationSessions.submittedDetails),
          isNotNull(verificationSessions.hostedPageDraft),
          exists(storedDocument),
          exists(consentToErase),
        ),
        skip.size > 0 ? notInArray(verificationSessions.id, [...skip]) : undefined,
      ),
    )
    .orderBy(asc(verificationSessions.completedAt), asc(verificationSessions.id))
    .limit(1)
    .for('update', { of: verificationSessions, skipLocked: true });
  return due?.id;
}
