import type { DatabaseHandle } from '@platform/db';
import { webhookEvents } from '@platform/db/schema';
import { createTestDatabase } from '@platform/db/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertOrganization } from '../test/fixtures.js';
import { enqueueWebhookEvent, newWebhookEventId } from './outbox.js';

let handle: DatabaseHandle;
let organizationId: string;
beforeAll(async () => {
  handle = await createTestDatabase();
  organizationId = await insertOrganization(handle.db);
});
afterAll(async () => {
  await handle?.close();
});

const NOW = new Date('2024-06-15T12:00:00.000Z');
const data = {
  sessionId: '8a1e2f44-5b6c-4d7e-9f80-112233445566',
  type: 'kyc',
  status: 'verified',
  previousStatus: 'processing',
  environment: 'test',
};

describe('newWebhookEventId', () => {
  it('is msg_ + 27 base62 characters, time-ordered and unique', () => {
    const ids = Array.from({ length: 1000 }, () => newWebhookEventId(NOW));
    for (const id of ids) expect(id).toMatch(/^msg_[0-9A-Za-z]{27}$/);
    expect(new Set(ids).size).toBe(1000);
    const later = newWebhookEventId(new Date(NOW.getTime() + 1));
    expect(later.slice(0, 13) > ids[0]!.slice(0, 13)).toBe(true);
  });
});

describe('enqueueWebhookEvent', () => {
  it('stores the exact body to send, due at once, with webhook-id equal to body.id', async () => {
    const { id } = await handle.db.transaction((tx) =>
      enqueueWebhookEvent(tx, {
        organizationId,
        environment: 'test',
        type: 'verification_session.verified',
        data,
        targetUrl: 'https://hooks.example.com/a',
        now: NOW,
      }),
    );
    const [row] = await handle.db.select().from(webhookEvents).where(eq(webhookEvents.id, id));
    expect(row).toMatchObject({
      id,
      organizationId,
      environment: 'test',
      type: 'verification_session.verified',
      payload: { id, type: 'verification_session.verified', timestamp: '2024-06-15T12:00:00.000Z', data },
      targetUrl: 'https://hooks.example.com/a',
      status: 'pending',
      attempts: 0,
      nextAttemptAt: NOW,
      lockedUntil: null,
      deliveredAt: null,
    });
  });

  it('keeps a null target (the default endpoint is looked up at delivery time)', async () => {
    const { id } = await enqueueWebhookEvent(handle.db, {
      organizationId,
      environment: 'live',
      type: 'verification_session.created',
      data,
      targetUrl: null,
      now: NOW,
    });
    const [row] = await handle.db.select().from(webhookEvents).where(eq(webhookEvents.id, id));
    expect(row?.targetUrl).toBeNull();
  });

  it('is rolled back with the transaction that wrote it', async () => {
    let id = '';
    await expect(
      handle.db.transaction(async (tx) => {
        ({ id } = await enqueueWebhookEvent(tx, {
          organizationId,
          environment: 'test',
          type: 'verification_session.canceled',
          data,
          targetUrl: null,
          now: NOW,
        }));
        throw new Error('the status change failed');
      }),
    ).rejects.toThrow('the status change failed');
    expect(id).toMatch(/^msg_/);
    expect(await handle.db.select().from(webhookEvents).where(eq(webhookEvents.id, id))).toEqual([]);
  });
});
