import type { MailSubscriptionStatus } from '@platform/db';
import { mailSubscriptions } from '@platform/db/schema/mail-subscriptions';
import { type SQL, sql } from 'drizzle-orm';

// The reads of mail subscriptions that code outside main-api's billing/subscriptions runs
// (docs/decisions.md#one-owner-per-table): backend-api's drive quota, which embeds the plan in its own statement so
// a folder's create keeps its round trips.

/**
 * The plan of the organization's subscription when its status is one of `statuses`, as a subquery (null: none);
 * `organizationId` is a uuid parameter.
 */
export function subscriptionPlanOf(organizationId: string, statuses: readonly MailSubscriptionStatus[]): SQL {
  return sql`(select ${mailSubscriptions.plan} from ${mailSubscriptions}
    where ${mailSubscriptions.organizationId} = ${organizationId}::uuid
      and ${mailSubscriptions.status} in (${sql.join(
        statuses.map((status) => sql`${status}::text`),
        sql`, `,
      )}))`;
}
