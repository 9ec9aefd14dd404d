import type { DatabaseExecutor } from '@platform/db';
import { verificationConsents, verificationDocuments } from '@platform/db/schema/verification';
import { and, asc, eq, isNull } from 'drizzle-orm';

// The reads only an export makes (docs/decisions.md#verification-export): every stored document and every consent of
// the session, oldest first, so two exports list alike. The session, its checks and its transitions are read with the
// queries every other reader uses.

/** Every document whose file is still stored, superseded ones included. */
export function listStoredDocuments(db: DatabaseExecutor, sessionId: string) {
  return db
    .select()
    .from(verificationDocuments)
    .where(and(eq(verificationDocuments.sessionId, sessionId), isNull(verificationDocuments.erasedAt)))
    .orderBy(asc(verificationDocuments.createdAt), asc(verificationDocuments.id));
}

export function listConsents(db: DatabaseExecutor, sessionId: string) {
  return db
    .select()
    .from(verificationConsents)
    .where(eq(verificationConsents.sessionId, sessionId))
    .orderBy(asc(verificationConsents.createdAt), asc(verificationConsents.id));
}
