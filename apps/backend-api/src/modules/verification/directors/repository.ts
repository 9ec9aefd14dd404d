import type { DatabaseExecutor } from '@platform/db';
import { verificationChecks, verificationSessions } from '@platform/db/schema/verification';
import { finalStatuses } from '@platform/verification-lifecycle';
import { and, asc, eq, exists, isNotNull, not, notInArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';

// The query of the directors' settlement (docs/decisions.md#directors).

const child = alias(verificationSessions, 'director');

/**
 * The next kyb session still deciding whose directors' own sessions have all ended and whose current submission has
 * no `directors` check yet, locked (FOR UPDATE SKIP LOCKED: instances take different ones); undefined when none.
 */
export async function claimSettledParent(tx: DatabaseExecutor, skip: ReadonlySet<string>): Promise<string | undefined> {
  const parent = verificationSessions;
  const directors = tx.select({ one: sql`1` }).from(child).where(eq(child.parentSessionId, parent.id));
  const openDirectors = tx
    .select({ one: sql`1` })
    .from(child)
    .where(and(eq(child.parentSessionId, parent.id), notInArray(child.status, [...finalStatuses])));
  const checked = tx
    .select({ one: sql`1` })
    .from(verificationChecks)
    .where(
      and(
        eq(verificationChecks.sessionId, parent.id),
        eq(verificationChecks.kind, 'directors'),
        eq(verificationChecks.submittedAt, parent.submittedAt),
      ),
    );
  const [due] = await tx
    .select({ id: parent.id })
    .from(parent)
    .where(
      and(
        eq(parent.type, 'kyb'),
        eq(parent.status, 'processing'),
        isNotNull(parent.submittedAt),
        exists(directors),
        not(exists(openDirectors)),
        not(exists(checked)),
        skip.size > 0 ? notInArray(parent.id, [...skip]) : undefined,
      ),
    )
    .orderBy(asc(parent.submittedAt))
    .limit(1)
    .for('update', { of: parent, skipLocked: true });
  return due?.id;
}

/** Whether the submission already has its `directors` check. */
export async function hasDirectorsCheck(tx: DatabaseExecutor, sessionId: string, submittedAt: Date): Promise<boolean> {
  const [found] = await tx
    .select({ id: verificationChecks.id })
    .from(verificationChecks)
    .where(
      and(
        eq(verificationChecks.sessionId, sessionId),
        eq(verificationChecks.kind, 'directors'),
        eq(verificationChecks.submittedAt, submittedAt),
      ),
    )
    .limit(1);
  return found !== undefined;
}
