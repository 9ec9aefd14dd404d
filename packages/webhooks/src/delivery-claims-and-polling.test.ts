import { createDatabase, queryRows } from '@platform/db';
import { sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { missing, postgresServer } from '#test-prerequisites';
import { EVENTUALLY_TIMEOUT_MS, quietPeriod } from '#test-timing';
import { deliverySuite } from '../test/delivery-suite.js';
import { createWebhookDelivery, startWebhookDelivery } from './delivery.js';
import type { WebhookRequest, WebhookResponse } from './http-sender.js';

const suite = deliverySuite();
const { enqueue, worker, eventRow, attemptsOf } = suite;

describe('claims and leases', () => {
  it('keeps other workers off a claimed event until its lease runs out; the first worker then does not overwrite', async () => {
    let clock = new Date('2024-06-15T12:00:00.000Z');
    const { id } = await enqueue({ now: clock });
    let release: (response: WebhookResponse) => void = () => {};
    const sent: WebhookRequest[] = [];
    const stalled = worker({
      now: () => clock,
      send: (request) => {
        sent.push(request);
        return new Promise((resolve) => (release = resolve));
      },
    });
    const stalledRun = stalled.runOnce();
    await vi.waitFor(() => expect(sent).toHaveLength(1), { timeout: EVENTUALLY_TIMEOUT_MS });

    const other = worker({ now: () => clock });
    expect((await other.runOnce()).claimed).toBe(0);
    clock = new Date(clock.getTime() + 59_999);
    expect((await other.runOnce()).claimed).toBe(0);
    clock = new Date(clock.getTime() + 1);
    expect(await other.runOnce()).toEqual({ claimed: 1, delivered: 1, retrying: 0, failed: 0 });

    release({ status: 500 });
    expect(await stalledRun).toEqual({ claimed: 1, delivered: 0, retrying: 0, failed: 0 });
    expect(await eventRow(id)).toMatchObject({ status: 'delivered', attempts: 1, lastError: null });
    // Both sends happened (delivery is at least once) and both are on record.
    expect((await attemptsOf(id)).map((attempt) => attempt.responseStatus).sort()).toEqual([204, 500]);
  });
});

describe('polling', () => {
  it('delivers without being asked once started, and stops', async () => {
    const delivery = startWebhookDelivery({ db: suite.handle.db, allowPrivateTargets: true, intervalMs: 10 });
    try {
      const { id } = await enqueue();
      await vi.waitFor(async () => expect((await eventRow(id)).status).toBe('delivered'), {
        timeout: EVENTUALLY_TIMEOUT_MS,
      });
    } finally {
      await delivery.stop();
    }
    const { id } = await enqueue();
    // A poller still running (every 10 ms) would have sent it by now.
    await quietPeriod();
    expect((await eventRow(id)).status).toBe('pending');
  });

  it('claims batch after batch at once while they come back full, without waiting for the next tick', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await enqueue()).id);
    const delivery = startWebhookDelivery({
      db: suite.handle.db,
      allowPrivateTargets: true,
      batchSize: 2,
      intervalMs: 60 * 60_000,
    });
    try {
      // The receiver answers before each row is marked delivered: wait for the rows, not only the requests.
      await vi.waitFor(
        async () => {
          for (const id of ids) expect((await eventRow(id)).status).toBe('delivered');
        },
        { timeout: EVENTUALLY_TIMEOUT_MS },
      );
      expect(suite.receiver.requests).toHaveLength(5);
    } finally {
      await delivery.stop();
    }
  });

  it('logs a failed poll and polls again on the next tick', async () => {
    const errors: string[] = [];
    const logger = {
      info: () => undefined,
      warn: () => undefined,
      error: (_details: object, message: string) => errors.push(message),
    };
    let polls = 0;
    const flaky = createWebhookDelivery({
      db: suite.handle.db,
      allowPrivateTargets: true,
      intervalMs: 10,
      logger,
      // The first poll's clock fails before anything is claimed.
      now: () => {
        polls += 1;
        if (polls === 1) throw new Error('clock unavailable');
        return new Date();
      },
    });
    const { id } = await enqueue();
    flaky.start();
    try {
      await vi.waitFor(async () => expect((await eventRow(id)).status).toBe('delivered'), {
        timeout: EVENTUALLY_TIMEOUT_MS,
      });
      expect(errors).toEqual(['Webhook delivery poll failed']);
    } finally {
      await flaky.stop();
    }
  });
});

describe.skipIf(missing(postgresServer))('several instances on one PostgreSQL (needs DATABASE_URL)', () => {
  it('delivers each event exactly once when two workers with their own connection pools race', async () => {
    const [database] = await queryRows<{ name: string }>(suite.handle.db, sql`select current_database() as name`);
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${database!.name}`;
    const second = await createDatabase({ url: url.toString(), maxConnections: 5 });
    try {
      const count = 120;
      const ids = new Set<string>();
      for (let i = 0; i < count; i++) ids.add((await enqueue()).id);
      // A receiver that takes a moment, so the workers' batches overlap more (the outcome holds however they do).
      suite.receiver.respond = async () => {
        await new Promise((resolve) => setTimeout(resolve, 2));
        return { status: 204 };
      };
      const workers = [
        createWebhookDelivery({ db: suite.handle.db, allowPrivateTargets: true, batchSize: 7 }),
        createWebhookDelivery({ db: second.db, allowPrivateTargets: true, batchSize: 7 }),
      ];
      const claimedBy = [0, 0];
      // Three polling loops per worker, all at once.
      await Promise.all(
        [0, 0, 0, 1, 1, 1].map(async (index) => {
          for (;;) {
            const { claimed } = await workers[index]!.runOnce();
            if (claimed === 0) return;
            claimedBy[index]! += claimed;
          }
        }),
      );

      const received = suite.receiver.requests.map((request) => request.headers['webhook-id'] as string);
      expect(received).toHaveLength(count);
      expect(new Set(received)).toEqual(ids);
      expect(claimedBy[0]! + claimedBy[1]!).toBe(count);
      expect(claimedBy[0]).toBeGreaterThan(0);
      expect(claimedBy[1]).toBeGreaterThan(0);
      const statuses = await queryRows<{ status: string; n: number }>(
        suite.handle.db,
        sql`select status, count(*)::int as n from webhook_events group by status`,
      );
      expect(statuses).toEqual([{ status: 'delivered', n: count }]);
      const [attempts] = await queryRows<{ n: number }>(
        suite.handle.db,
        sql`select count(*)::int as n from webhook_delivery_attempts a join webhook_events e on e.id = a.event_id
            where e.organization_id = ${suite.organizationId}`,
      );
      expect(attempts?.n).toBe(count);
    } finally {
      await second.close();
    }
  });
});
