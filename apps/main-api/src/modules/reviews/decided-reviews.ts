import { decodeCursor, pageOf } from '@platform/pagination';
import { listDecidedRows } from './repository.js';
import { actorsNamer } from './review-actors.js';
import { platformOrganization, type ReviewServiceOptions } from './review-context.js';
import type { ReviewDecision, ReviewQueuePage } from './review-views.js';

// The decided sessions (docs/decisions.md#decided-reviews): those given to reviewers that have a decision, newest
// decision first, a page at a time, in the queue's shape, so a reviewer finds one again (a complaint, a second look).

export async function listDecided(
  options: ReviewServiceOptions,
  { limit, cursor }: { limit: number; cursor?: string | undefined },
): Promise<ReviewQueuePage> {
  platformOrganization(options);
  const rows = await listDecidedRows(options.db, {
    after: cursor === undefined ? undefined : decodeCursor(cursor),
    limit: limit + 1,
  });
  const { page, nextCursor } = pageOf(rows, limit, (row) => ({ createdAt: row.position, id: row.session.id }));
  const actorOf = await actorsNamer(
    options.db,
    page.map((row) => row.decision.actor),
  );
  return {
    reviews: page.map((row) => ({
      sessionId: row.session.id,
      type: row.session.type,
      environment: row.session.environment,
      organization: row.organization,
      appName: row.session.appName,
      status: row.session.status,
      submittedAt: row.queuedAt.toISOString(),
      claimedBy: null,
      claimExpiresAt: null,
      // A move out of processing is to verified, rejected or requires_input only (the lifecycle's allowed moves).
      decision: row.decision.to as ReviewDecision,
      decidedBy: actorOf(row.decision.actor),
      decidedAt: row.decision.at.toISOString(),
      reason: row.decision.reason,
    })),
    nextCursor,
  };
}
