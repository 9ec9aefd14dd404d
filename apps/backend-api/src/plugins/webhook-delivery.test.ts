import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DatabaseHandle } from '@platform/db';
import { organizations, webhookEvents } from '@platform/db/schema';
import { createTestDatabase } from '@platform/db/testing';
import { enqueueWebhookEvent } from '@platform/webhooks';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { EVENTUALLY_TIMEOUT_MS, quietPeriod } from '#test-timing';
import { buildTestApp } from '../../test/app-fixtures.js';
import { loadBackendApiConfig } from '../config.js';

let database: DatabaseHandle;
let server: Server;
let origin: string;
let received: string[];
let organizationId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  server = createServer((request, response) => {
    received.push(String(request.headers['webhook-id']));
    request.resume();
    response.writeHead(204).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await database?.close();
});
beforeEach(async () => {
  received = [];
  await database.db.delete(webhookEvents);
  const [organization] = await database.db.insert(organizations).values({ name: 'Acme' }).returning();
  organizationId = organization!.id;
});

function enqueue(now: Date, targetUrl = `${origin}/hooks`) {
  return enqueueWebhookEvent(database.db, {
    organizationId,
    environment: 'test',
    type: 'verification_session.created',
    data: { sessionId: 'a2d9f0c4-3e1b-4c5a-8d7e-6f5a4b3c2d1e' },
    targetUrl,
    now,
  });
}

async function statusOf(id: string) {
  const [row] = await database.db.select().from(webhookEvents).where(eq(webhookEvents.id, id));
  return row?.status;
}

describe('webhook delivery in backend-api', () => {
  it('is on by default and refuses private targets by default', () => {
    const config = loadBackendApiConfig({});
    expect(config.webhooks).toEqual({
      deliveryEnabled: true,
      allowPrivateTargets: false,
      deliveryIntervalMs: 1000,
      deliveryBatchSize: 20,
    });
  });

  it('sends nothing by itself when disabled; runOnce with the app clock delivers what is due', async () => {
    let clock = new Date('2024-06-15T12:00:00.000Z');
    const app = await buildTestApp(database, {
      now: () => clock,
      env: {
        WEBHOOK_DELIVERY_ENABLED: 'false',
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        WEBHOOK_DELIVERY_INTERVAL_MS: '20',
      },
    });
    try {
      const due = await enqueue(clock);
      // Due now, and a poller would run every 20 ms: none runs, so it is still there for runOnce.
      await quietPeriod();
      expect(received).toEqual([]);
      expect(await app.webhookDelivery.runOnce()).toEqual({ claimed: 1, delivered: 1, retrying: 0, failed: 0 });
      expect(received).toEqual([due.id]);
      received = [];

      const { id } = await enqueue(new Date(clock.getTime() + 60_000));
      expect(await app.webhookDelivery.runOnce()).toMatchObject({ claimed: 0 });
      clock = new Date(clock.getTime() + 60_000);
      expect(await app.webhookDelivery.runOnce()).toEqual({ claimed: 1, delivered: 1, retrying: 0, failed: 0 });
      expect(received).toEqual([id]);
      expect(await statusOf(id)).toBe('delivered');
    } finally {
      await app.close();
    }
  });

  it('polls once ready when enabled, and stops when the app closes', async () => {
    const app = await buildTestApp(database, {
      env: {
        WEBHOOK_DELIVERY_ENABLED: 'true',
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        WEBHOOK_DELIVERY_INTERVAL_MS: '20',
      },
    });
    const { id } = await enqueue(new Date());
    await vi.waitFor(async () => expect(await statusOf(id)).toBe('delivered'), { timeout: EVENTUALLY_TIMEOUT_MS });
    await app.close();
    const after = await enqueue(new Date());
    // A poller still running (every 20 ms) would have sent it by now.
    await quietPeriod();
    expect(await statusOf(after.id)).toBe('pending');
  });

  it('refuses loopback callbacks unless WEBHOOK_ALLOW_PRIVATE_TARGETS is set', async () => {
    const app = await buildTestApp(database);
    try {
      const { id } = await enqueue(new Date());
      expect(await app.webhookDelivery.runOnce()).toMatchObject({ claimed: 1, failed: 1 });
      expect(await statusOf(id)).toBe('failed');
      expect(received).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
