import type {
  ApiKeyEnvironment,
  DatabaseExecutor,
  VerificationSession,
  VerificationStatus,
  VerificationType,
} from '@platform/db';
import { verificationSessions } from '@platform/db/schema/verification';
import { afterPosition, cursorTimeOf, type PagePosition } from '@platform/pagination';
import { and, desc, eq, gte, lt, type SQL } from 'drizzle-orm';
import { sessionsOwnedBy } from './repository.js';

// The list of an organization's sessions that its members read on main-api (docs/decisions.md#organization-session-list),
// both environments at once. main-api runs it through this package's index.ts: the sessions are backend-api's
// verification module's tables, published here (docs/decisions.md#one-owner-per-table).

export interface OrganizationSessionFilter {
  status?: VerificationStatus | undefined;
  type?: VerificationType | undefined;
  environment?: ApiKeyEnvironment | undefined;
  /** Created at or after. */
  createdFrom?: Date | undefined;
  /** Created before. */
  createdBefore?: Date | undefined;
  externalEndUserId?: string | undefined;
}

/**
 * Up to `limit` of the organization's sessions matching `filter`, newest first by (createdAt, id), after `after`
 * when given, each with its position as the cursor holds it. Read in the order of an index
 * (verification_sessions_organization_list_idx, or _organization_status_idx with a status; the other filters are
 * checked on the rows read); with an end user, the few sessions verification_sessions_end_user_idx finds may be
 * sorted instead.
 */
export function listOrganizationSessionRows(
  db: DatabaseExecutor,
  organizationId: string,
  page: OrganizationSessionPage,
): Promise<Array<{ session: VerificationSession; position: string }>> {
  return organizationSessionsQuery(db, organizationId, page);
}

interface OrganizationSessionPage {
  filter: OrganizationSessionFilter;
  after: PagePosition | undefined;
  limit: number;
}

/** The list's statement, not yet sent (statements.test.ts reads its plan). */
export function organizationSessionsQuery(
  db: DatabaseExecutor,
  organizationId: string,
  { filter, after, limit }: OrganizationSessionPage,
) {
  const conditions: Array<SQL | undefined> = [sessionsOwnedBy({ organizationId, environment: filter.environment })];
  if (filter.status !== undefined) conditions.push(eq(verificationSessions.status, filter.status));
  if (filter.type !== undefined) conditions.push(eq(verificationSessions.type, filter.type));
  if (filter.externalEndUserId !== undefined) {
    conditions.push(eq(verificationSessions.externalEndUserId, filter.externalEndUserId));
  }
  if (filter.createdFrom !== undefined) conditions.push(gte(verificationSessions.createdAt, filter.createdFrom));
  if (filter.createdBefore !== undefined) conditions.push(lt(verificationSessions.createdAt, filter.createdBefore));
  if (after !== undefined) conditions.push(afterPosition(verificationSessions, after));
  return db
    .select({ session: verificationSessions, position: cursorTimeOf(verificationSessions.createdAt) })
    .from(verificationSessions)
    .where(and(...conditions))
    .orderBy(desc(verificationSessions.createdAt), desc(verificationSessions.id))
    .limit(limit);
}
