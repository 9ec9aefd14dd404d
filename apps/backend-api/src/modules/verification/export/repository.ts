import type { ApiKeyOwner, DatabaseExecutor } from '@platform/db';
import {
  verificationChecks,
  verificationConsents,
  verificationDocuments,
  verificationSessions,
  verificationSessionTransitions,
} from '@platform/db/schema/verification';
import { and, asc, eq, isNull } from 'drizzle-orm';

// The reads of an export (docs/decisions.md#verification-export): the session as its key's organization and
// environment see it, and what it holds. Oldest first everywhere, so two exports list alike.

export async function findOwnedSession(db: DatabaseExecutor, id: string, owner: ApiKeyOwner) {
  const [session] = await db
    .select()
    .from(verificationSessions)
    .where(
      and(
        eq(verificationSessions.id, id),
        eq(verificationSessions.organizationId, owner.organizationId),
        eq(verificationSessions.environment, owner.environment),
      ),
    );
  return session;
}

/** Every document whose file is still stored, superseded ones included. */
export function listStoredDocuments(db: DatabaseExecutor, sessionId: string) {
  return db
    .select()
    .from(verificationDocuments)
    .where(and(eq(verificationDocuments.sessionId, sessionId), isNull(verificationDocuments.erasedAt)))
    .orderBy(asc(verificationDocuments.createdAt), asc(verificationDocuments.id));
}

export function listChecks(db: DatabaseExecutor, sessionId: string) {
  return db
    .select()
    .from(verificationChecks)
    .where(eq(verificationChecks.sessionId, sessionId))
    .orderBy(asc(verificationChecks.createdAt), asc(verificationChecks.id));
}

export function listTransitions(db: DatabaseExecutor, sessionId: string) {
  return db
    .select()
    .from(verificationSessionTransitions)
    .where(eq(verificationSessionTransitions.sessionId, sessionId))
    .orderBy(asc(verificationSessionTransitions.createdAt), asc(verificationSessionTransitions.id));
}

export function listConsents(db: DatabaseExecutor, sessionId: string) {
  return db
    .select()
    .from(verificationConsents)
    .where(eq(verificationConsents.sessionId, sessionId))
    .orderBy(asc(verificationConsents.createdAt), asc(verificationConsents.id));
}
