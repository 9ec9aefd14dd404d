import type { DatabaseHandle } from '@platform/db';
import { webhookDeliveryAttempts, webhookEvents } from '@platform/db/schema';
import { createTestDatabase } from '@platform/db/testing';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createWebhookDelivery, type WebhookDeliveryOptions } from '../src/delivery.js';
import { enqueueWebhookEvent } from '../src/outbox.js';
import { insertOrganization } from './fixtures.js';
import { type Receiver, startReceiver } from './receiver.js';

/**
 * A suite of the delivery worker (src/delivery*.test.ts): a test database and a receiver made once; before each
 * test no events, a receiver answering 204, and an organization of the test's own, so events of one test never
 * reach another's worker. Read `handle`, `receiver` and `organizationId` in hooks and tests.
 */
export function deliverySuite() {
  let handle: DatabaseHandle;
  let receiver: Receiver;
  let organizationId: string;

  beforeAll(async () => {
    handle = await createTestDatabase();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await handle?.close();
  });
  beforeEach(async () => {
    receiver.requests.length = 0;
    receiver.respond = () => ({ status: 204 });
    await handle.db.delete(webhookEvents);
    organizationId = await insertOrganization(handle.db);
  });

  const data = {
    sessionId: '8a1e2f44-5b6c-4d7e-9f80-112233445566',
    type: 'kyc',
    status: 'verified',
    previousStatus: 'processing',
    environment: 'test',
    externalEndUserId: 'customer-42',
    lastError: null,
  };

  function enqueue(
    overrides: { targetUrl?: string | null; now?: Date; environment?: 'live' | 'test'; organization?: string } = {},
  ) {
    return enqueueWebhookEvent(handle.db, {
      organizationId: overrides.organization ?? organizationId,
      environment: overrides.environment ?? 'test',
      type: 'verification_session.verified',
      data,
      targetUrl: overrides.targetUrl === undefined ? `${receiver.origin}/hooks` : overrides.targetUrl,
      now: overrides.now ?? new Date(),
    });
  }

  function worker(options: Partial<WebhookDeliveryOptions> = {}) {
    return createWebhookDelivery({ db: handle.db, allowPrivateTargets: true, ...options });
  }

  async function eventRow(id: string) {
    const [row] = await handle.db.select().from(webhookEvents).where(eq(webhookEvents.id, id));
    if (row === undefined) throw new Error(`No event ${id}`);
    return row;
  }

  function attemptsOf(id: string) {
    return handle.db
      .select()
      .from(webhookDeliveryAttempts)
      .where(eq(webhookDeliveryAttempts.eventId, id))
      .orderBy(asc(webhookDeliveryAttempts.attempt));
  }

  return {
    get handle() {
      return handle;
    },
    get receiver() {
      return receiver;
    },
    get organizationId() {
      return organizationId;
    },
    data,
    enqueue,
    worker,
    eventRow,
    attemptsOf,
  };
}
