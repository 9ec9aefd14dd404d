import type { KycStatus, UnitOfWork } from '@platform/db';
import { users } from '@platform/db/schema/users';
import { type AnyColumn, type SQL, sql } from 'drizzle-orm';

// The statements on users that code outside main-api's accounts module runs (docs/decisions.md#one-owner-per-table):
// a verification decision's KYC status (both services decide), and a user's email, which other repositories embed in
// their own statements so a request keeps its round trips.

/** Adds the update of a user's kycStatus to the unit of work, sent at its commit (no row when there is no such user). */
export function addKycStatus(work: UnitOfWork, userId: string, kycStatus: KycStatus, now: Date): void {
  work.write(sql`update ${users} set kyc_status = ${kycStatus}::text, updated_at = ${now.toISOString()}::timestamptz
    where ${users.id} = ${userId}::text
    returning id`);
}

/** The email of the user `userId` (a column of the embedding statement) refers to, as a subquery; null for none. */
export function userEmailOf(userId: AnyColumn): SQL<string | null> {
  return sql<string | null>`(select ${users.email} from ${users} where ${users.id} = ${userId})`;
}
