import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DatabaseHandle } from '@platform/db';
import { memberships, notifications, users, webhookEvents } from '@platform/db/schema';
import { createTestDatabase } from '@platform/db/testing';
import { setLowBalanceThreshold } from '@platform/ledger';
import { ensureWebhookEndpoint, setDefaultWebhookUrl } from '@platform/webhooks';
import { and, eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { missing, postgresServer } from '#test-prerequisites';
import { buildTestApp, replaceOrganizations, type TestOrganization } from '../../../test/app-fixtures.js';
import {
  createSessionRequest,
  fundWallet,
  truncateVerificationData,
  walletState,
} from '../../../test/verification-fixtures.js';
import type { BackendApp } from '../../app.js';

// A session's hold that takes the wallet below its low-balance threshold (set on main-api) alerts the organization's
// members and sends wallet.balance_low, once (docs/decisions.md#low-balance-alerts). The app runs on the real clock:
// the callback is signed at delivery and the receiver checks its timestamp against its own clock.

let database: DatabaseHandle;
let app: BackendApp;
let receiver: Server;
let callbackUrl: string;
const callbacks: Array<{ body: string; headers: Record<string, string> }> = [];
let acme: TestOrganization;

beforeAll(async () => {
  database = await createTestDatabase();
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      callbacks.push({ body, headers: request.headers as Record<string, string> });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callbacks`;
  app = await buildTestApp(database, { env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
});
afterAll(async () => {
  await app?.close();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
  await database?.close();
});
beforeEach(async () => {
  callbacks.length = 0;
  await truncateVerificationData(database.db);
  await database.db.delete(users);
  [acme] = await replaceOrganizations(database.db, 'Acme');
  await database.db.insert(users).values([
    { id: 'acme-owner', email: 'owner@acme.example' },
    { id: 'acme-billing', email: 'billing@acme.example' },
  ]);
  await database.db.insert(memberships).values([
    { organizationId: acme.id, userId: 'acme-owner', role: 'owner' },
    { organizationId: acme.id, userId: 'acme-billing', role: 'billing' },
  ]);
});

const createKyc = (key: string, n: number) =>
  createSessionRequest(app, key, { type: 'kyc', externalEndUserId: `u${n}` });

async function lowBalanceEvents() {
  return database.db
    .select()
    .from(webhookEvents)
    .where(and(eq(webhookEvents.organizationId, acme.id), eq(webhookEvents.type, 'wallet.balance_low')));
}

const alertNotifications = (userId: string) =>
  database.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.title, 'Wallet balance low')));

describe('low-balance alerts from session creation', () => {
  it('sends wallet.balance_low, signed, to the environment endpoint, and notifies every member', async () => {
    await fundWallet(database.db, acme.id, 'test', 160);
    await database.db.transaction((tx) =>
      setLowBalanceThreshold(tx, { organizationId: acme.id, environment: 'test' }, 100),
    );
    await setDefaultWebhookUrl(database.db, {
      organizationId: acme.id,
      environment: 'test',
      defaultUrl: callbackUrl,
      now: new Date(),
    });
    expect((await createKyc(acme.testKey, 1)).statusCode).toBe(201); // 110
    const crossing = await createKyc(acme.testKey, 2); // 60: below 100
    expect(crossing.statusCode).toBe(201);
    expect((await createKyc(acme.testKey, 3)).statusCode).toBe(201); // 10: still below, no second alert

    await app.webhookDelivery.runOnce();
    const { secret } = await ensureWebhookEndpoint(database.db, { organizationId: acme.id, environment: 'test' });
    const verified = callbacks.map(({ body, headers }) => new Webhook(secret).verify(body, headers)) as Array<{
      id: string;
      type: string;
      data: unknown;
    }>;
    const alerts = verified.filter((callback) => callback.type === 'wallet.balance_low');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.data).toEqual({
      environment: 'test',
      currency: 'KES',
      available: 60,
      held: 100,
      lowBalanceThreshold: 100,
      sessionId: crossing.json().data.sessionId,
    });
    const delivered = callbacks.find((callback) => callback.headers['webhook-id'] === alerts[0]!.id);
    expect(delivered?.headers['webhook-signature']).toMatch(/^v1,/);

    for (const member of ['acme-owner', 'acme-billing']) {
      const notes = await alertNotifications(member);
      expect(notes).toHaveLength(1);
      expect(notes[0]).toMatchObject({ organizationId: acme.id, type: 'warning' });
      expect(notes[0]!.message).toContain('The test wallet has KES 60 available, below the alert threshold of KES 100');
    }
  });

  it('leaves the other environment alone', async () => {
    await fundWallet(database.db, acme.id, 'live', 1_000);
    await fundWallet(database.db, acme.id, 'test', 1_000);
    await database.db.transaction((tx) =>
      setLowBalanceThreshold(tx, { organizationId: acme.id, environment: 'live' }, 980),
    );
    expect((await createKyc(acme.testKey, 1)).statusCode).toBe(201);
    expect(await lowBalanceEvents()).toHaveLength(0);
    expect((await createKyc(acme.liveKey, 2)).statusCode).toBe(201);
    expect((await lowBalanceEvents()).map((event) => event.environment)).toEqual(['live']);
  });
});

describe.skipIf(missing(postgresServer))(
  'low-balance alerts under concurrent session creation (real PostgreSQL)',
  () => {
    it('alerts once however many creates cross at once, and again only after a top-up re-arms it', async () => {
      const owner = { organizationId: acme.id, environment: 'live' as const };
      await fundWallet(database.db, acme.id, 'live', 1_000);
      await database.db.transaction((tx) => setLowBalanceThreshold(tx, owner, 500));

      const wave = async (from: number) => {
        const responses = await Promise.all(Array.from({ length: 25 }, (_, i) => createKyc(acme.liveKey, from + i)));
        return responses.map((response) => response.statusCode).sort();
      };
      // 1,000 KES pays 20 sessions of 50: the 11th crosses 500; the last 5 are refused.
      expect(await wave(0)).toEqual([...Array(20).fill(201), ...Array(5).fill(402)]);
      expect(await lowBalanceEvents()).toHaveLength(1);
      expect(await alertNotifications('acme-owner')).toHaveLength(1);
      expect(await alertNotifications('acme-billing')).toHaveLength(1);

      // Back to 1,000 KES available: re-armed, so the next wave crosses and alerts again, once.
      await fundWallet(database.db, acme.id, 'live', 1_000);
      expect(await wave(100)).toEqual([...Array(20).fill(201), ...Array(5).fill(402)]);
      const events = await lowBalanceEvents();
      expect(events).toHaveLength(2);
      expect(events.map((event) => (event.payload as { data: { available: number } }).data.available)).toEqual([
        450, 450,
      ]);
      expect(await alertNotifications('acme-owner')).toHaveLength(2);
      expect((await walletState(database.db, acme.id, 'live')).available).toBe(0);
    });
  },
);
