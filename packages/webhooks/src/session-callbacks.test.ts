import { randomUUID } from 'node:crypto';
import { type DatabaseExecutor, type DatabaseHandle, queryRows } from '@platform/db';
import { webhookDeliveryAttempts } from '@platform/db/schema';
import { createTestDatabase } from '@platform/db/testing';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertOrganization } from '../test/fixtures.js';
import { enqueueWebhookEvent } from './outbox.js';
import { listSessionCallbacks, sessionCallbacksQuery } from './session-callbacks-repository.js';

// The callbacks of one verification session, with their attempts, for its timeline on main-api
// (docs/decisions.md#organization-session-list): only that session's, only that organization's, found by
// webhook_events_session_idx.

let handle: DatabaseHandle;
let organizationId: string;
let otherOrganizationId: string;
const sessionId = randomUUID();
const BASE = Date.parse('2026-03-01T09:00:00Z');
const at = (seconds: number) => new Date(BASE + seconds * 1000);

async function enqueue(organization: string, type: string, session: string, now: Date): Promise<string> {
  const { id } = await handle.db.transaction((tx) =>
    enqueueWebhookEvent(tx, {
      organizationId: organization,
      environment: 'live',
      type,
      data: { sessionId: session, status: type.split('.')[1] },
      targetUrl: null,
      now,
    }),
  );
  return id;
}

let createdId: string;
let canceledId: string;

beforeAll(async () => {
  handle = await createTestDatabase();
  organizationId = await insertOrganization(handle.db);
  otherOrganizationId = await insertOrganization(handle.db);
  createdId = await enqueue(organizationId, 'verification_session.created', sessionId, at(0));
  canceledId = await enqueue(organizationId, 'verification_session.canceled', sessionId, at(60));
  await enqueue(organizationId, 'verification_session.created', randomUUID(), at(1));
  // Another organization's event naming the same id (as no real one could) stays out.
  await enqueue(otherOrganizationId, 'verification_session.created', sessionId, at(2));
  await enqueue(organizationId, 'wallet.balance_low', sessionId, at(3));
  await handle.db.insert(webhookDeliveryAttempts).values([
    {
      eventId: createdId,
      attempt: 2,
      url: 'https://a.example',
      responseStatus: 200,
      durationMs: 8,
      outcome: 'delivered',
      createdAt: at(30),
    },
    {
      eventId: createdId,
      attempt: 1,
      url: 'https://a.example',
      responseStatus: null,
      durationMs: 10_000,
      outcome: 'retrying',
      createdAt: at(1),
    },
  ]);
});
afterAll(async () => {
  await handle?.close();
});

describe('listSessionCallbacks', () => {
  it("answers the session's callbacks of the organization, oldest first, each with its attempts in order", async () => {
    expect(await listSessionCallbacks(handle.db, { organizationId, sessionId })).toEqual([
      {
        eventId: createdId,
        type: 'verification_session.created',
        status: 'pending',
        createdAt: at(0),
        deliveredAt: null,
        attempts: [
          { delivery: 1, attempt: 1, at: at(1), responseStatus: null, durationMs: 10_000, outcome: 'retrying' },
          { delivery: 1, attempt: 2, at: at(30), responseStatus: 200, durationMs: 8, outcome: 'delivered' },
        ],
      },
      {
        eventId: canceledId,
        type: 'verification_session.canceled',
        status: 'pending',
        createdAt: at(60),
        deliveredAt: null,
        attempts: [],
      },
    ]);
  });

  it('answers nothing for a session without callbacks', async () => {
    expect(await listSessionCallbacks(handle.db, { organizationId, sessionId: randomUUID() })).toEqual([]);
  });

  it("finds the session's events by their index", async () => {
    const plan = await handle.db.transaction(async (tx) => {
      // On a few rows the planner would rather read them all.
      await tx.execute(sql`set local enable_seqscan = off`);
      const query: { getSQL(): SQL } = sessionCallbacksQuery(tx as unknown as DatabaseExecutor, {
        organizationId,
        sessionId,
      });
      const [row] = await queryRows<{ 'QUERY PLAN': unknown }>(
        tx as unknown as DatabaseExecutor,
        sql`explain (format json) ${query.getSQL()}`,
      );
      return JSON.stringify(row?.['QUERY PLAN']);
    });
    expect(plan).toContain('webhook_events_session_idx');
    expect(plan).not.toContain('"Seq Scan"');
  });
});
