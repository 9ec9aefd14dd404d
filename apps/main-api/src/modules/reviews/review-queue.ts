import { decodeCursor, pageOf } from '@platform/pagination';
import { listQueueRows } from './repository.js';
import { platformOrganization, type ReviewServiceOptions } from './review-context.js';
import type { ReviewQueuePage } from './review-views.js';

// The queue: the sessions waiting for a reviewer, oldest submission first, a page at a time, with whose customer each
// is (docs/decisions.md#the-review-queue) and who holds a claim.

export async function listQueue(
  options: ReviewServiceOptions,
  { limit, cursor }: { limit: number; cursor?: string | undefined },
): Promise<ReviewQueuePage> {
  platformOrganization(options);
  const rows = await listQueueRows(options.db, {
    after: cursor === undefined ? undefined : decodeCursor(cursor),
    limit: limit + 1,
    now: options.now(),
  });
  const { page, nextCursor } = pageOf(rows, limit, (row) => ({ createdAt: row.position, id: row.session.id }));
  return {
    reviews: page.map((row) => ({
      sessionId: row.session.id,
      type: row.session.type,
      environment: row.session.environment,
      organization: row.organization,
      appName: row.session.appName,
      status: 'processing',
      submittedAt: row.queuedAt.toISOString(),
      claimedBy: row.claim?.reviewerId ?? null,
      claimExpiresAt: row.claim?.expiresAt.toISOString() ?? null,
      decision: null,
      decidedBy: null,
      decidedAt: null,
      reason: null,
    })),
    nextCursor,
  };
}
