import { type DatabaseExecutor, type DatabaseHandle, queryRows } from '@platform/db';
import { organizations, verificationSessions } from '@platform/db/schema';
import { createTestDatabase } from '@platform/db/testing';
import { ensureWallet } from '@platform/ledger';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  listOrganizationSessionRows,
  type OrganizationSessionFilter,
  organizationSessionsQuery,
} from './organization-repository.js';

// The organization's session list (docs/decisions.md#organization-session-list) is read through an index, whatever
// the filter: with sequential and bitmap scans ruled out (on a few hundred rows the planner would rather read them
// all), each plan still finds a way, an index's, and those that are not about one end user read one of the list's
// two indexes in the list's order (no sort). On PGlite and PostgreSQL alike.

let handle: DatabaseHandle;
let organizationId: string;

beforeAll(async () => {
  handle = await createTestDatabase();
  const ids: string[] = [];
  for (const name of ['Listed', 'Other']) {
    const [organization] = await handle.db.insert(organizations).values({ name }).returning();
    ids.push(organization?.id ?? '');
  }
  organizationId = ids[0] ?? '';
  const rows = [];
  for (const [index, owner] of ids.entries()) {
    for (const environment of ['live', 'test'] as const) {
      const wallet = await ensureWallet(handle.db, { organizationId: owner, environment });
      for (let n = 0; n < 100; n += 1) {
        rows.push({
          organizationId: owner,
          environment,
          walletId: wallet.id,
          type: n % 3 === 0 ? ('kyb' as const) : ('kyc' as const),
          status: n % 5 === 0 ? ('verified' as const) : ('pending' as const),
          externalEndUserId: `person-${index}-${n % 20}`,
          decisionSource: 'manual' as const,
          price: 0,
          requiredDocuments: ['selfie'],
          expiresAt: new Date('2026-03-03T09:00:00Z'),
          createdAt: new Date(Date.parse('2026-03-01T09:00:00Z') + n * 60_000),
        });
      }
    }
  }
  await handle.db.insert(verificationSessions).values(rows);
  await handle.db.execute(sql`analyze verification_sessions`);
});
afterAll(async () => {
  await handle?.close();
});

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

/** The plan of `query` with sequential scans turned off, as its nodes, outermost first. */
async function planNodes(query: { getSQL(): SQL }): Promise<PlanNode[]> {
  const plan = await handle.db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    await tx.execute(sql`set local enable_bitmapscan = off`);
    const [row] = await queryRows<{ 'QUERY PLAN': unknown }>(
      tx as unknown as DatabaseExecutor,
      sql`explain (format json) ${query.getSQL()}`,
    );
    const text = row?.['QUERY PLAN'];
    return (typeof text === 'string' ? JSON.parse(text) : text) as Array<{ Plan: PlanNode }>;
  });
  const nodes: PlanNode[] = [];
  const walk = (node: PlanNode) => {
    nodes.push(node);
    for (const child of node.Plans ?? []) walk(child);
  };
  for (const entry of plan) walk(entry.Plan);
  return nodes;
}

const ordered: Array<[string, OrganizationSessionFilter]> = [
  ['no filter', {}],
  ['a status', { status: 'verified' }],
  ['a type', { type: 'kyb' }],
  ['an environment', { environment: 'test' }],
  [
    'a creation period',
    { createdFrom: new Date('2026-03-01T09:30:00Z'), createdBefore: new Date('2026-03-01T10:00:00Z') },
  ],
];

describe('the organization session list', () => {
  it.each(ordered)('with %s reads an index in the list order', async (_what, filter) => {
    const nodes = await planNodes(
      organizationSessionsQuery(handle.db, organizationId, { filter, after: undefined, limit: 51 }),
    );
    const types = nodes.map((node) => node['Node Type']);
    expect(types).not.toContain('Seq Scan');
    expect(types).not.toContain('Sort');
    const indexes = nodes.map((node) => node['Index Name']).filter((name) => name !== undefined);
    expect(indexes).toEqual([expect.stringMatching(/^verification_sessions_organization_(list|status)_idx$/)]);
  });

  it('after a cursor, reads the index from the cursor on', async () => {
    const after = { createdAt: '2026-03-01T09:40:00.000000Z', id: '00000000-0000-4000-8000-000000000000' };
    const nodes = await planNodes(
      organizationSessionsQuery(handle.db, organizationId, { filter: {}, after, limit: 51 }),
    );
    expect(nodes.map((node) => node['Node Type'])).not.toContain('Seq Scan');
    expect(nodes.map((node) => node['Node Type'])).not.toContain('Sort');
  });

  // Where two indexes narrow the rows, the planner may read the narrower one and sort what it found.
  it.each([
    ["one end user's sessions", { externalEndUserId: 'person-0-3' }],
    ['a status and an environment', { status: 'pending', environment: 'live' }],
  ] satisfies Array<[string, OrganizationSessionFilter]>)('with %s reads an index', async (_what, filter) => {
    const nodes = await planNodes(
      organizationSessionsQuery(handle.db, organizationId, { filter, after: undefined, limit: 51 }),
    );
    expect(nodes.map((node) => node['Node Type'])).not.toContain('Seq Scan');
    expect(nodes.some((node) => node['Index Name']?.startsWith('verification_sessions_'))).toBe(true);
  });

  it("answers the organization's rows only, newest first, without the sealed details", async () => {
    const rows = await listOrganizationSessionRows(handle.db, organizationId, {
      filter: { status: 'verified', environment: 'live' },
      after: undefined,
      limit: 100,
    });
    expect(rows).toHaveLength(20);
    const owned = await queryRows<{ id: string }>(
      handle.db,
      sql`select id from verification_sessions
          where organization_id = ${organizationId}::uuid and status = 'verified' and environment = 'live'`,
    );
    expect(new Set(rows.map((row) => row.fields.sessionId))).toEqual(new Set(owned.map((row) => row.id)));
    const times = rows.map((row) => Date.parse(row.fields.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(rows[0]?.fields).toMatchObject({ status: 'verified', requiredDocuments: ['selfie'], price: 0 });
    expect(Object.keys(rows[0]?.fields ?? {})).not.toContain('submittedDetails');
  });

  it('reads the next page from the cursor of the last row, each set of filters its own statement', async () => {
    const first = await listOrganizationSessionRows(handle.db, organizationId, {
      filter: { environment: 'test' },
      after: undefined,
      limit: 60,
    });
    const last = first.at(-1);
    const rest = await listOrganizationSessionRows(handle.db, organizationId, {
      filter: { environment: 'test' },
      after: { createdAt: last?.position ?? '', id: last?.fields.sessionId ?? '' },
      limit: 60,
    });
    expect(first).toHaveLength(60);
    expect(rest).toHaveLength(40);
    const ids = [...first, ...rest].map((row) => row.fields.sessionId);
    expect(new Set(ids).size).toBe(100);
    const kyb = await listOrganizationSessionRows(handle.db, organizationId, {
      filter: { environment: 'test', type: 'kyb' },
      after: undefined,
      limit: 100,
    });
    expect(kyb).toHaveLength(34);
    expect(kyb.every((row) => row.fields.type === 'kyb' && row.fields.environment === 'test')).toBe(true);
  });
});
