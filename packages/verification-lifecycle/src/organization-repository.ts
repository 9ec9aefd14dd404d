import {
  type ApiKeyEnvironment,
  apiTimeOf,
  type Database,
  type DatabaseExecutor,
  preparedPerDatabase,
  prepareWithRowsMapper,
  type VerificationSession,
  type VerificationStatus,
  type VerificationType,
} from '@platform/db';
import { verificationSessions } from '@platform/db/schema/verification';
import { cursorTimeOf, type PagePosition } from '@platform/pagination';
import { and, desc, type Placeholder, type SQL, sql } from 'drizzle-orm';

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

type Listed = Pick<
  VerificationSession,
  | 'type'
  | 'environment'
  | 'status'
  | 'externalEndUserId'
  | 'appName'
  | 'callbackUrl'
  | 'locale'
  | 'returnUrl'
  | 'privacyNoticeUrl'
  | 'requiredDocuments'
  | 'lastError'
  | 'lastErrorCode'
  | 'resubmitDocuments'
  | 'price'
>;

/**
 * A session as the list shows it: what main-api's session view is made of, its times written as the API writes them
 * (ISO, milliseconds). Never the sealed details or the hosted page's draft: a list has no use for them.
 */
interface OrganizationSessionListFields extends Listed {
  sessionId: string;
  createdAt: string;
  updatedAt: string;
  expiresAt: string;
  completedAt: string | null;
  submittedAt: string | null;
  personalDataErasedAt: string | null;
}

/** A session of the list, with its position for the next page's cursor. */
export interface OrganizationSessionListRow {
  position: string;
  fields: OrganizationSessionListFields;
}

interface OrganizationSessionPage {
  filter: OrganizationSessionFilter;
  after: PagePosition | undefined;
  limit: number;
}

/** Which filters a list has: each set of them is its own prepared statement (at most 128). */
type ListFilters = Record<
  'status' | 'type' | 'environment' | 'createdFrom' | 'createdBefore' | 'externalEndUserId' | 'after',
  boolean
>;

/** A statement's value by name: a placeholder of the prepared statement, or the value itself (the plan tests'). */
type ValueOf = (name: string) => unknown;

const s = verificationSessions;

/**
 * The list's statement for these filters. Each condition is one an index serves
 * (verification_sessions_organization_list_idx, or _organization_status_idx with a status; the other filters are
 * checked on the rows read; with an end user, verification_sessions_end_user_idx), read newest first by
 * (createdAt, id) from the cursor on.
 */
function listStatement(db: DatabaseExecutor, filters: ListFilters, value: ValueOf) {
  const conditions: SQL[] = [sql`${s.organizationId} = ${value('organizationId')}::uuid`];
  if (filters.environment) conditions.push(sql`${s.environment} = ${value('environment')}::text`);
  if (filters.status) conditions.push(sql`${s.status} = ${value('status')}::text`);
  if (filters.type) conditions.push(sql`${s.type} = ${value('type')}::text`);
  if (filters.externalEndUserId) conditions.push(sql`${s.externalEndUserId} = ${value('externalEndUserId')}::text`);
  if (filters.createdFrom) conditions.push(sql`${s.createdAt} >= ${value('createdFrom')}::timestamptz`);
  if (filters.createdBefore) conditions.push(sql`${s.createdAt} < ${value('createdBefore')}::timestamptz`);
  if (filters.after) {
    conditions.push(sql`(${s.createdAt}, ${s.id}) < (${value('afterAt')}::timestamptz, ${value('afterId')}::uuid)`);
  }
  return db
    .select({
      position: cursorTimeOf(s.createdAt),
      sessionId: s.id,
      type: s.type,
      environment: s.environment,
      status: s.status,
      externalEndUserId: s.externalEndUserId,
      appName: s.appName,
      callbackUrl: s.callbackUrl,
      locale: s.locale,
      returnUrl: s.returnUrl,
      privacyNoticeUrl: s.privacyNoticeUrl,
      requiredDocuments: s.requiredDocuments,
      lastError: s.lastError,
      lastErrorCode: s.lastErrorCode,
      resubmitDocuments: s.resubmitDocuments,
      price: s.price,
      createdAt: apiTimeOf(s.createdAt),
      updatedAt: apiTimeOf(s.updatedAt),
      expiresAt: apiTimeOf(s.expiresAt),
      completedAt: apiTimeOf<string | null>(s.completedAt),
      submittedAt: apiTimeOf<string | null>(s.submittedAt),
      personalDataErasedAt: apiTimeOf<string | null>(s.personalDataErasedAt),
    })
    .from(s)
    .where(and(...conditions))
    .orderBy(desc(s.createdAt), desc(s.id))
    .limit(value('limit') as number | Placeholder);
}

/** jsonb as the driver gave it: parsed by postgres.js, text on a driver that leaves it. */
const jsonOf = <T>(cell: unknown): T => (typeof cell === 'string' ? (JSON.parse(cell) as T) : (cell as T));

/** A row of the statement (its cells in select order) as the list shows the session. */
function listRowOf(cells: unknown[]): OrganizationSessionListRow {
  const [position, sessionId, type, environment, status, externalEndUserId, appName, callbackUrl, locale] = cells as [
    string,
    string,
    Listed['type'],
    Listed['environment'],
    Listed['status'],
    string,
    string | null,
    string | null,
    Listed['locale'],
  ];
  const [returnUrl, privacyNoticeUrl, requiredDocuments, lastError, lastErrorCode, resubmitDocuments, price] =
    cells.slice(9, 16) as [
      string | null,
      string | null,
      unknown,
      string | null,
      Listed['lastErrorCode'],
      unknown,
      number,
    ];
  const [createdAt, updatedAt, expiresAt, completedAt, submittedAt, personalDataErasedAt] = cells.slice(16) as [
    string,
    string,
    string,
    string | null,
    string | null,
    string | null,
  ];
  return {
    position,
    fields: {
      sessionId,
      type,
      environment,
      status,
      externalEndUserId,
      appName,
      callbackUrl,
      locale,
      returnUrl,
      privacyNoticeUrl,
      requiredDocuments: jsonOf<Listed['requiredDocuments']>(requiredDocuments),
      lastError,
      lastErrorCode,
      resubmitDocuments: resubmitDocuments === null ? null : jsonOf<Listed['resubmitDocuments']>(resubmitDocuments),
      price: Number(price),
      createdAt,
      updatedAt,
      expiresAt,
      completedAt,
      submittedAt,
      personalDataErasedAt,
    },
  };
}

function filtersOf({ filter, after }: OrganizationSessionPage): ListFilters {
  return {
    status: filter.status !== undefined,
    type: filter.type !== undefined,
    environment: filter.environment !== undefined,
    createdFrom: filter.createdFrom !== undefined,
    createdBefore: filter.createdBefore !== undefined,
    externalEndUserId: filter.externalEndUserId !== undefined,
    after: after !== undefined,
  };
}

function valuesOf(organizationId: string, { filter, after, limit }: OrganizationSessionPage): Record<string, unknown> {
  return {
    organizationId,
    status: filter.status,
    type: filter.type,
    environment: filter.environment,
    externalEndUserId: filter.externalEndUserId,
    createdFrom: filter.createdFrom?.toISOString(),
    createdBefore: filter.createdBefore?.toISOString(),
    afterAt: after?.createdAt,
    afterId: after?.id,
    limit,
  };
}

// Prepared once per database and set of filters, read by position: building the query and mapping 50 rows of every
// session column through drizzle cost the dashboard's Verifications page more than PostgreSQL's work
// (docs/benchmarks.md#the-verifications-page-get-dashboardverifications-3-dec).
const listStatements = preparedPerDatabase(() => new Map<string, ReturnType<typeof prepareList>>());

function prepareList(db: Database, filters: ListFilters, name: string) {
  return prepareWithRowsMapper(
    db,
    name,
    listStatement(db, filters, (value) => sql.placeholder(value)),
    (rows) => rows.map(listRowOf),
  );
}

/**
 * Up to `limit` of the organization's sessions matching `filter`, newest first by (createdAt, id), after `after`
 * when given, each with its position as the cursor holds it. Runs on the database itself, never in a transaction
 * (a prepared statement per database).
 */
export function listOrganizationSessionRows(
  db: Database,
  organizationId: string,
  page: OrganizationSessionPage,
): Promise<OrganizationSessionListRow[]> {
  const filters = filtersOf(page);
  const name = `organization_sessions_${Object.values(filters)
    .map((present) => (present ? 1 : 0))
    .join('')}`;
  const statements = listStatements(db);
  let statement = statements.get(name);
  if (statement === undefined) {
    statement = prepareList(db, filters, name);
    statements.set(name, statement);
  }
  return statement.execute(valuesOf(organizationId, page));
}

/** The list's statement with its values in place, not yet sent: organization-repository.test.ts reads its plan. */
export function organizationSessionsQuery(db: DatabaseExecutor, organizationId: string, page: OrganizationSessionPage) {
  const values = valuesOf(organizationId, page);
  return listStatement(db, filtersOf(page), (name) => values[name]);
}
