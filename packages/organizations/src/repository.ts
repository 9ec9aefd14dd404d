import type { ApiKeyEnvironment, DatabaseExecutor, Organization, Transaction } from '@platform/db';
import { allowedOrigins } from '@platform/db/schema/allowed-origins';
import { memberships } from '@platform/db/schema/memberships';
import { organizations } from '@platform/db/schema/organizations';
import { type AnyColumn, and, eq, getTableName, type SQL, sql } from 'drizzle-orm';
import type { VerificationRetentionBounds } from './verification-retention.js';

// The statements on organizations, their members and their allowed origins that code outside main-api's
// organizations and allowed-origins modules runs (docs/decisions.md#one-owner-per-table): backend-api's operator
// commands, wallet and hosted page, and the other owners' repositories, which embed the fragments in their own
// statements so a request keeps its round trips.

export async function findOrganization(db: DatabaseExecutor, id: string): Promise<Organization | undefined> {
  const [organization] = await db.select().from(organizations).where(eq(organizations.id, id));
  return organization;
}

export async function organizationExists(db: DatabaseExecutor, organizationId: string): Promise<boolean> {
  const [organization] = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return organization !== undefined;
}

export async function findOrganizationName(db: DatabaseExecutor, organizationId: string): Promise<string | undefined> {
  const [organization] = await db
    .select({ name: organizations.name })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return organization?.name;
}

/** The maximum operators set for the organization's keys; null when it has none of its own. */
export async function findOrganizationKeyRateLimitMax(
  db: DatabaseExecutor,
  organizationId: string,
): Promise<number | null> {
  const [organization] = await db
    .select({ max: organizations.maxKeyRateLimitPerMinute })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return organization?.max ?? null;
}

/** Sets (or with null removes) the organization's key rate-limit maximum; its name, or undefined if unknown. */
export async function updateKeyRateLimitMaximum(
  db: DatabaseExecutor,
  organizationId: string,
  max: number | null,
): Promise<{ name: string } | undefined> {
  const [organization] = await db
    .update(organizations)
    .set({ maxKeyRateLimitPerMinute: max })
    .where(eq(organizations.id, organizationId))
    .returning({ name: organizations.name });
  return organization;
}

/** The organization's allowed origins in one environment, as main-api stored them; [] when it set none. */
export async function findAllowedOrigins(
  db: DatabaseExecutor,
  organizationId: string,
  environment: ApiKeyEnvironment,
): Promise<string[]> {
  const [row] = await db
    .select({ origins: allowedOrigins.origins })
    .from(allowedOrigins)
    .where(and(eq(allowedOrigins.organizationId, organizationId), eq(allowedOrigins.environment, environment)));
  return row?.origins ?? [];
}

/** A select of the organization's members at that moment, one `user_id` column, for another statement to embed. */
export function membersOf(organizationId: string): SQL {
  return sql`select ${memberships.userId} as user_id from ${memberships}
    where ${memberships.organizationId} = ${organizationId}::uuid`;
}

/** The buyer a billing document names: the organization's name and KRA PIN as they are now. */
export async function findOrganizationBuyer(
  db: DatabaseExecutor,
  organizationId: string,
): Promise<{ name: string; kraPin: string | null } | undefined> {
  const [buyer] = await db
    .select({ name: organizations.name, kraPin: organizations.kraPin })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return buyer;
}

/**
 * The organization's row, locked FOR KEY SHARE until the transaction ends, and when it was retired (null: it was not).
 * With `skipLocked`, undefined instead of waiting when another transaction holds it FOR UPDATE.
 */
export async function lockOrganizationKeyShare(
  tx: Transaction,
  organizationId: string,
  options: { skipLocked?: boolean } = {},
): Promise<{ retiredAt: Date | null } | undefined> {
  const [row] = await tx
    .select({ retiredAt: organizations.retiredAt })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
    .for('key share', options.skipLocked === true ? { skipLocked: true } : {});
  return row;
}

/** A column named with its table, so a subquery compares the embedding statement's row, whatever it joins. */
const qualified = (column: AnyColumn): SQL =>
  sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;

/** The name of the organization `organizationId` (a column of the embedding statement) refers to, as a subquery. */
export function organizationNameOf(organizationId: AnyColumn): SQL<string> {
  return sql<string>`(select ${qualified(organizations.name)} from ${organizations}
    where ${qualified(organizations.id)} = ${qualified(organizationId)})`;
}

/** When the organization `organizationId` refers to was retired (null: it was not), as a subquery. */
export function organizationRetiredAtOf(organizationId: AnyColumn): SQL<Date | null> {
  return sql<Date | null>`(select ${qualified(organizations.retiredAt)} from ${organizations}
    where ${qualified(organizations.id)} = ${qualified(organizationId)})`.mapWith(organizations.retiredAt);
}

/** The organization's own period (null: the default), as main-api stored it. */
export async function findVerificationRetentionDays(
  db: DatabaseExecutor,
  organizationId: string,
): Promise<number | null> {
  const [organization] = await db
    .select({ days: organizations.verificationRetentionDays })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return organization?.days ?? null;
}

/**
 * effectiveRetentionDays in SQL for the organization `organizationId` refers to: a subquery on its primary key that
 * the retention job's due query embeds, an integer number of days.
 */
export function effectiveRetentionDaysOf(organizationId: AnyColumn, bounds: VerificationRetentionBounds): SQL<number> {
  const stored = sql`(select ${qualified(organizations.verificationRetentionDays)} from ${organizations}
    where ${qualified(organizations.id)} = ${qualified(organizationId)})`;
  const { minDays, maxDays, defaultDays } = bounds;
  return sql<number>`least(${maxDays}::integer, greatest(${minDays}::integer, coalesce(${stored}, ${defaultDays}::integer)))`;
}
