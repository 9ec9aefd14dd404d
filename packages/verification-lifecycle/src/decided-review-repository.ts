import type { DatabaseExecutor, VerificationSession, VerificationStatus } from '@platform/db';
import { verificationSessions, verificationSessionTransitions } from '@platform/db/schema/verification';
import { organizationNameOf } from '@platform/organizations';
import { cursorTimeOf, type PagePosition } from '@platform/pagination';
import { and, desc, eq, ne, type SQL, sql } from 'drizzle-orm';
import type { ReviewedOrganization } from './review-repository.js';

// The decided reviews (docs/decisions.md#decided-reviews): sessions a reviewer was given (decision_source manual: a
// hand-over sets it and nothing sets it back) that have left the queue with a decision, newest decision first, so a
// reviewer finds one again. Run by main-api's reviews module through this package's index.ts, as the queue is.

const t = verificationSessionTransitions;
const s = verificationSessions;

/**
 * Each session's last decision: its last move out of processing to another status. A hand-over (processing to
 * processing) is no decision. DISTINCT ON keeps one row per session, the newest.
 */
function lastDecisions(db: DatabaseExecutor) {
  return db
    .selectDistinctOn([t.sessionId], {
      sessionId: t.sessionId,
      actor: t.actor,
      decision: t.toStatus,
      reason: t.reason,
      decidedAt: t.createdAt,
    })
    .from(t)
    .where(and(eq(t.fromStatus, 'processing'), ne(t.toStatus, 'processing')))
    .orderBy(t.sessionId, desc(t.createdAt), desc(t.id))
    .as('last_decisions');
}

export interface DecidedRow {
  session: Pick<VerificationSession, 'id' | 'type' | 'environment' | 'appName' | 'status' | 'personalDataErasedAt'>;
  organization: ReviewedOrganization;
  /** When it joined the queue last: its submission (its creation, before submissions were recorded). */
  queuedAt: Date;
  decision: { actor: string; to: VerificationStatus; reason: string | null; at: Date };
  /** The decision's time as the cursor holds it (microseconds). */
  position: string;
}

/**
 * Up to `limit` decided sessions, newest decision first by (decision time, id), after `after` when given. A session
 * waiting again (resubmitted after requires_input) is in the queue, not here. The last decisions are found over all
 * transitions (no index orders them): enough for the platform's reviewers' volume; an index on decisions is the next
 * step if this list grows slow.
 */
export async function listDecidedRows(
  db: DatabaseExecutor,
  { after, limit }: { after: PagePosition | undefined; limit: number },
): Promise<DecidedRow[]> {
  const decisions = lastDecisions(db);
  const conditions: Array<SQL | undefined> = [eq(s.decisionSource, 'manual'), ne(s.status, 'processing')];
  if (after !== undefined) {
    conditions.push(sql`(${decisions.decidedAt}, ${s.id}) < (${after.createdAt}::timestamptz, ${after.id}::uuid)`);
  }
  const rows = await db
    .select({
      id: s.id,
      type: s.type,
      environment: s.environment,
      appName: s.appName,
      status: s.status,
      personalDataErasedAt: s.personalDataErasedAt,
      submittedAt: s.submittedAt,
      createdAt: s.createdAt,
      organizationId: s.organizationId,
      organizationName: organizationNameOf(s.organizationId),
      actor: decisions.actor,
      decision: decisions.decision,
      reason: decisions.reason,
      decidedAt: decisions.decidedAt,
      position: cursorTimeOf(decisions.decidedAt),
    })
    .from(s)
    .innerJoin(decisions, eq(decisions.sessionId, s.id))
    .where(and(...conditions))
    .orderBy(desc(decisions.decidedAt), desc(s.id))
    .limit(limit);
  return rows.map((row) => ({
    session: {
      id: row.id,
      type: row.type,
      environment: row.environment,
      appName: row.appName,
      status: row.status,
      personalDataErasedAt: row.personalDataErasedAt,
    },
    organization: { id: row.organizationId, name: row.organizationName },
    queuedAt: row.submittedAt ?? row.createdAt,
    decision: { actor: row.actor, to: row.decision, reason: row.reason, at: row.decidedAt },
    position: row.position,
  }));
}
