import type { KycStatus, UnitOfWork } from '@platform/db';
import { users } from '@platform/db/schema/users';
import { sql } from 'drizzle-orm';

// The statements on users that code outside main-api's accounts module runs (docs/decisions.md#one-owner-per-table):
// a verification decision's KYC status, which both services decide.

/** Adds the update of a user's kycStatus to the unit of work, sent at its commit (no row when there is no such user). */
export function addKycStatus(work: UnitOfWork, userId: string, kycStatus: KycStatus, now: Date): void {
  work.write(sql`update ${users} set kyc_status = ${kycStatus}::text, updated_at = ${now.toISOString()}::timestamptz
    where ${users.id} = ${userId}::text
    returning id`);
}
