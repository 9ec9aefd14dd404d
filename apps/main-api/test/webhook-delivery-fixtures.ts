import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ApiKeyEnvironment } from '@platform/db';
import { organizations, users } from '@platform/db/schema';
import { createWebhookDelivery, enqueueWebhookEvent, setDefaultWebhookUrl } from '@platform/webhooks';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { authHeader, createTestApp, insertOrganization, insertUser, type TestApp } from './helpers.js';

interface ReceivedCallback {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface CallbackReceiver {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  received: ReceivedCallback[];
  /** The answer to each callback; 204 without a body by default. */
  respond: (callback: ReceivedCallback) => { status: number; body?: string };
  close(): Promise<void>;
}

/** A customer's callback endpoint on 127.0.0.1 and a port of its own, recording what it receives. */
export async function startCallbackReceiver(): Promise<CallbackReceiver> {
  const receiver: CallbackReceiver = {
    origin: '',
    received: [],
    respond: () => ({ status: 204 }),
    close: async () => undefined,
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const callback = { path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString() };
      receiver.received.push(callback);
      const answer = receiver.respond(callback);
      response.writeHead(answer.status).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.close = () =>
    new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((error) => (error ? reject(error) : resolve()));
    });
  return receiver;
}

const DEVELOPER = 'user_deliveries_developer';
export const MEMBER = 'user_deliveries_member';
export const OUTSIDER = 'user_deliveries_outsider';

/**
 * A suite of the delivery log routes: main-api on a clock the test moves, a receiver, and the delivery worker (run
 * by backend-api in production) on the same database and clock. Before each test: organization A (a developer and
 * a plain member) and B (the outsider's), the test environment of A sending to the receiver by default.
 */
export function deliveryLogSuite() {
  const state = {
    t: undefined as unknown as TestApp,
    receiver: undefined as unknown as CallbackReceiver,
    clock: new Date('2026-03-02T09:00:00.000Z'),
    orgA: '',
    orgB: '',
  };

  beforeAll(async () => {
    state.t = await createTestApp({ deps: { now: () => state.clock } });
    state.receiver = await startCallbackReceiver();
  });
  afterAll(async () => {
    await state.receiver?.close();
    await state.t?.close();
  });
  beforeEach(async () => {
    state.clock = new Date('2026-03-02T09:00:00.000Z');
    state.receiver.received.length = 0;
    state.receiver.respond = () => ({ status: 204 });
    await state.t.db.delete(organizations);
    await state.t.db.delete(users);
    for (const id of [DEVELOPER, MEMBER, OUTSIDER]) await insertUser(state.t.db, { id });
    state.orgA = await insertOrganization(state.t.db, {
      name: 'A',
      members: [
        { userId: DEVELOPER, role: 'developer' },
        { userId: MEMBER, role: 'member' },
      ],
    });
    state.orgB = await insertOrganization(state.t.db, { name: 'B', members: [{ userId: OUTSIDER, role: 'owner' }] });
    await setDefaultWebhookUrl(state.t.db, {
      organizationId: state.orgA,
      environment: 'test',
      defaultUrl: `${state.receiver.origin}/hooks`,
      now: state.clock,
    });
  });

  /** The worker, as backend-api runs it, on the suite's clock. */
  const runWorker = () =>
    createWebhookDelivery({ db: state.t.db, allowPrivateTargets: true, now: () => state.clock }).runOnce();

  /** An event of organization A (or `organizationId`) at the suite's clock, to its default URL. */
  const enqueue = (
    options: { type?: string; environment?: ApiKeyEnvironment; organizationId?: string; at?: Date } = {},
  ) =>
    enqueueWebhookEvent(state.t.db, {
      organizationId: options.organizationId ?? state.orgA,
      environment: options.environment ?? 'test',
      type: options.type ?? 'verification_session.verified',
      data: { sessionId: '8a1e2f44-5b6c-4d7e-9f80-112233445566', status: 'verified' },
      targetUrl: null,
      now: options.at ?? state.clock,
    });

  async function call(method: 'GET' | 'POST', url: string, options: { userId?: string; organizationId?: string } = {}) {
    return state.t.app.inject({
      method,
      url,
      headers: {
        ...(await authHeader(options.userId ?? DEVELOPER)),
        'x-organization-id': options.organizationId ?? state.orgA,
      },
    });
  }

  return { state, runWorker, enqueue, call };
}
